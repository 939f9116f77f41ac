// Programs that run another program: `sudo rm -f a` runs `rm`, and a deny rule on `rm` must see it. For
// each wrapper, where its inner command starts, or the shell code it runs. Words are the static values the
// parser found (`undefined` for a word only known when the shell runs: a variable, a glob).
//
// | Wrapper                          | Inner command                                                     |
// |----------------------------------|-------------------------------------------------------------------|
// | command, builtin                 | after the options (`command -v x` only looks `x` up: none)        |
// | busybox                          | its first argument names the applet                               |
// | exec, nohup, setsid, nice,       | after the options (and their arguments); `env` also skips         |
// | stdbuf, ionice, time, env, doas  | NAME=value and runs `-S string` as words                          |
// | timeout                          | after the options and the duration                                |
// | sudo                             | after the options and NAME=value; with -s/-i, the rest as code    |
// | xargs                            | after the options (default `echo`); its arguments come from stdin |
// | find                             | each `-exec`/`-execdir`/`-ok`/`-okdir` … `;` or `+`               |
// | sh, bash, zsh, dash, ksh, …      | `-c STRING`: the string parsed as shell code; with no script      |
// |                                  | file, the code is stdin (a static here-document is parsed)        |
// | su                               | `-c STRING` parsed as shell code                                  |
// | watch, trap                      | their first argument (watch: all of them) parsed as shell code    |
// | eval, source, `.`, alias, hash,  | opaque: the shell decides what runs only when it runs             |
// | enable                           |                                                                   |
import { basename } from 'node:path';

export type Words = readonly (string | undefined)[];

export type Inner =
  /** Nothing more runs. */
  | { kind: 'none' }
  /** `words.slice(start)` is a command; `appended` when the wrapper adds arguments the parser cannot see. */
  | { kind: 'command'; start: number; appended: boolean }
  /** Several commands inside the words (find -exec). */
  | { kind: 'commands'; ranges: readonly (readonly [number, number])[] }
  /** Shell code to parse; undefined when it is not static. */
  | { kind: 'code'; code: string | undefined }
  /** A shell that reads its code from stdin. */
  | { kind: 'stdin' }
  | { kind: 'opaque'; why: string };

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'posh', 'fish']);
const OPAQUE: Record<string, string> = {
  eval: 'eval runs its arguments as shell code',
  source: 'source runs a file as shell code',
  '.': '. runs a file as shell code',
  alias: 'an alias changes what a later command runs',
  hash: 'hash can change which file a command name runs',
  enable: 'enable can load or disable builtins',
};

/** Options that take a separate argument, per wrapper (short options may also carry it attached). */
const WITH_ARGUMENT: Record<string, ReadonlySet<string>> = {
  exec: new Set(['-a']),
  nice: new Set(['-n', '--adjustment']),
  stdbuf: new Set(['-i', '-o', '-e', '--input', '--output', '--error']),
  ionice: new Set(['-c', '-n', '--class', '--classdata']),
  time: new Set(['-f', '-o', '--format', '--output']),
  env: new Set(['-u', '-C', '--unset', '--chdir']),
  doas: new Set(['-C', '-u']),
  timeout: new Set(['-s', '-k', '--signal', '--kill-after']),
  sudo: new Set([
    '-u',
    '-g',
    '-h',
    '-p',
    '-C',
    '-D',
    '-r',
    '-t',
    '-U',
    '-T',
    '--user',
    '--group',
    '--host',
    '--prompt',
    '--close-from',
    '--chdir',
    '--role',
    '--type',
    '--other-user',
    '--command-timeout',
  ]),
  xargs: new Set([
    '-a',
    '-d',
    '-E',
    '-I',
    '-L',
    '-n',
    '-P',
    '-s',
    '--arg-file',
    '--delimiter',
    '--eof',
    '--replace',
    '--max-lines',
    '--max-args',
    '--max-procs',
    '--max-chars',
    '--process-slot-var',
  ]),
  watch: new Set(['-n', '--interval']),
  setsid: new Set(),
  nohup: new Set(),
};

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/u;

/** The program's name as a deny rule compares it: `/bin/rm`, `./rm` and `rm` are all `rm`. */
export function programName(word: string): string {
  return basename(word);
}

/** Where the first non-option word is, skipping options of `wrapper` (and NAME=value when `assignments`). */
function afterOptions(words: Words, wrapper: string, assignments = false): number | undefined {
  const takesArgument = WITH_ARGUMENT[wrapper] ?? new Set<string>();
  let i = 1;
  while (i < words.length) {
    const word = words[i];
    if (word === undefined) return undefined;
    if (word === '--') return i + 1;
    if (assignments && ASSIGNMENT.test(word)) {
      i++;
      continue;
    }
    if (!word.startsWith('-') || word === '-') return i;
    const name = word.includes('=') ? word.slice(0, word.indexOf('=')) : word;
    // `-n 5` takes the next word; `-n5`, `--adjustment=5` carry it; `nice -5` is an old-style number.
    i += takesArgument.has(name) && !word.includes('=') ? 2 : 1;
  }
  return i;
}

function commandAt(words: Words, start: number | undefined, appended = false): Inner {
  if (start === undefined)
    return { kind: 'opaque', why: 'an option of the wrapper is only known when it runs' };
  return start < words.length ? { kind: 'command', start, appended } : { kind: 'none' };
}

function shellInner(words: Words): Inner {
  for (let i = 1; i < words.length; i++) {
    const word = words[i];
    if (word === undefined)
      return { kind: 'opaque', why: 'an argument of the shell is only known when it runs' };
    if (word === '--' || (!word.startsWith('-') && !word.startsWith('+'))) return { kind: 'none' }; // a script file
    if (/^-[A-Za-z]*c[A-Za-z]*$/u.test(word)) {
      const next = words.slice(i + 1).find((w) => w === undefined || !w.startsWith('-'));
      return { kind: 'code', code: next };
    }
    if (word === '-o' || word === '+o' || word === '-O' || word === '+O') i++;
  }
  return { kind: 'stdin' };
}

function findInner(words: Words): Inner {
  const ranges: [number, number][] = [];
  for (let i = 1; i < words.length; i++) {
    const word = words[i];
    if (word !== '-exec' && word !== '-execdir' && word !== '-ok' && word !== '-okdir') continue;
    let end = i + 1;
    while (end < words.length && words[end] !== ';' && words[end] !== '+') end++;
    if (end > i + 1) ranges.push([i + 1, end]);
    i = end;
  }
  return ranges.length === 0 ? { kind: 'none' } : { kind: 'commands', ranges };
}

/** What `words` (a simple command whose program is static) runs besides itself. */
export function innerOf(words: Words): Inner {
  const program = programName(words[0] ?? '');
  const opaque = OPAQUE[program];
  if (opaque !== undefined) return { kind: 'opaque', why: opaque };
  if (SHELLS.has(program)) return shellInner(words);
  switch (program) {
    case 'command': {
      const start = afterOptions(words, program);
      const options = words.slice(1, start ?? 1);
      if (options.some((o) => o !== undefined && /^-[a-z]*[vV]/u.test(o))) return { kind: 'none' };
      return commandAt(words, start);
    }
    case 'busybox':
      return commandAt(words, 1);
    case 'builtin':
    case 'exec':
    case 'nohup':
    case 'setsid':
    case 'nice':
    case 'stdbuf':
    case 'ionice':
    case 'time':
    case 'doas':
      return commandAt(words, afterOptions(words, program));
    case 'env': {
      const split = words.findIndex(
        (w, i) => i > 0 && (w === '-S' || w?.startsWith('--split-string') === true),
      );
      if (split > 0) {
        const word = words[split] ?? '';
        return {
          kind: 'code',
          code: word.includes('=') ? word.slice(word.indexOf('=') + 1) : words[split + 1],
        };
      }
      return commandAt(words, afterOptions(words, program, true));
    }
    case 'timeout': {
      const duration = afterOptions(words, program);
      return commandAt(words, duration === undefined ? undefined : duration + 1);
    }
    case 'sudo': {
      const start = afterOptions(words, program, true);
      const options = words.slice(1, start ?? 1);
      if (start !== undefined && start < words.length && options.some((o) => o === '-s' || o === '-i'))
        return { kind: 'code', code: joinStatic(words.slice(start)) };
      return commandAt(words, start);
    }
    case 'xargs': {
      const start = afterOptions(words, program);
      if (start !== undefined && start >= words.length) return { kind: 'none' }; // runs echo
      return commandAt(words, start, true);
    }
    case 'find':
      return findInner(words);
    case 'su': {
      const c = words.findIndex((w, i) => i > 0 && (w === '-c' || w === '--command'));
      return c > 0 ? { kind: 'code', code: words[c + 1] } : { kind: 'none' };
    }
    case 'trap':
      return words.length > 1 && words[1] !== '-' ? { kind: 'code', code: words[1] } : { kind: 'none' };
    case 'watch': {
      const start = afterOptions(words, program);
      return start === undefined
        ? commandAt(words, start)
        : { kind: 'code', code: joinStatic(words.slice(start)) };
    }
    default:
      return { kind: 'none' };
  }
}

function joinStatic(words: Words): string | undefined {
  return words.every((w) => w !== undefined) ? words.join(' ') : undefined;
}
