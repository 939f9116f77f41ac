// Programs that run another program: `sudo rm -f a` runs `rm`, and a deny rule on `rm` must see it. For
// each wrapper, where its inner command starts, or the shell code it runs. Words are the static values the
// parser found (`undefined` for a word only known when the shell runs: a variable, a glob).
//
// | Wrapper                          | Inner command                                                     |
// |----------------------------------|-------------------------------------------------------------------|
// | command, builtin                 | after the options (`command -v x` only looks `x` up: none)        |
// | busybox, toybox                  | its first argument names the applet                               |
// | exec, nohup, setsid, nice,       | after the options (and their arguments); `env` also skips         |
// | stdbuf, ionice, time, env, doas, | NAME=value and runs `-S string` as words                          |
// | pkexec, unbuffer, strace,        |                                                                   |
// | ltrace, nsenter, unshare,        |                                                                   |
// | setpriv, systemd-run, prlimit,   |                                                                   |
// | eatmydata, chronic, ssh-agent,   |                                                                   |
// | dbus-run-session                 |                                                                   |
// | the dynamic loader (ld.so,       | after the options: it runs its first operand as a program         |
// | ld-linux*.so*, ld-musl*.so*)     |                                                                   |
// | fakeroot, setarch (after the     | after the options; with no command, a shell reading stdin         |
// | architecture), linux32, linux64, |                                                                   |
// | i386, x86_64, uname26            |                                                                   |
// | timeout, chroot, taskset, chrt   | after the options and one operand (duration, root, mask, priority)|
// | flock                            | after the options and the lock file, or `-c STRING` as code       |
// | sudo                             | after the options and NAME=value; with -s/-i, the rest as code    |
// | xargs                            | after the options (default `echo`); its arguments come from stdin;|
// |                                  | with -I/-i/--replace/-J, a word holding the replace string is     |
// |                                  | only known when it runs                                           |
// | find                             | each `-exec`/`-execdir`/`-ok`/`-okdir` … `;` or `{} +`; a word    |
// |                                  | holding `{}` is only known when it runs                           |
// | sh, bash, zsh, dash, ksh, …      | `-c STRING`: the string parsed as shell code; with no script      |
// |                                  | file, with `-s`, or with `-`/`/dev/stdin` as the script, the code |
// |                                  | is stdin (a static here-document or here-string is parsed)        |
// | at, batch                        | stdin (unless `-f FILE`)                                          |
// | su, runuser, script              | `-c STRING` parsed as shell code (runuser -u: after the options)  |
// | sg, newgrp                       | sg: `[-] GROUP [-c] STRING` parsed as shell code; with no string  |
// |                                  | (and newgrp always), a shell reading stdin                        |
// | watch, trap                      | their first argument (watch: all of them) parsed as shell code    |
// | eval, source, `.`, alias, hash,  | opaque: the shell decides what runs only when it runs             |
// | enable                           |                                                                   |
//
// Options are read as getopt reads them: clustered (`-iu root` is `-i -u root`), with an argument
// attached (`-uroot`, `--user=root`) or in the next word; an optional argument only attached (`-i%`,
// `--replace=%`). A word a wrapper fills in when it runs (xargs' replace string, find's `{}`) is never
// static code or a known program: what it names is only known then.
import { basename } from 'node:path';

export type Words = readonly (string | undefined)[];

export type Inner =
  /** Nothing more runs. */
  | { kind: 'none' }
  /**
   * `words.slice(start)` is a command; `appended` when the wrapper adds arguments the parser cannot see;
   * `replace`: the wrapper puts what it reads in place of this string, in any word holding it.
   */
  | { kind: 'command'; start: number; appended: boolean; replace?: string }
  /** Several commands inside the words (find -exec), `{}` in them replaced when it runs. */
  | { kind: 'commands'; ranges: readonly (readonly [number, number])[]; replace: string }
  /** Shell code to parse; undefined when it is not static. */
  | { kind: 'code'; code: string | undefined }
  /** A shell that reads its code from stdin. */
  | { kind: 'stdin' }
  | { kind: 'opaque'; why: string };

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'posh', 'fish']);
/** setarch and the names it is installed under, which stand for an architecture. */
const SETARCH = new Set(['setarch', 'linux32', 'linux64', 'i386', 'x86_64', 'uname26']);
/** The dynamic loader run as a program: glibc's ld.so, ld-linux-x86-64.so.2, ld64.so.2, musl's ld-musl-*.so.1. */
const LOADER_NAME = /^ld(?:[-_.\w]*)\.so(?:\.\d+)*$/u;
/** The key of the loader's options in WITH_ARGUMENT. */
const LOADER = 'ld.so';
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
  env: new Set(['-u', '-C', '-S', '--unset', '--chdir', '--split-string']),
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
    '-J',
    '-L',
    '-n',
    '-P',
    '-R',
    '-s',
    '-S',
    '--arg-file',
    '--delimiter',
    '--max-args',
    '--max-procs',
    '--max-chars',
    '--process-slot-var',
  ]),
  watch: new Set(['-n', '--interval']),
  setsid: new Set(),
  nohup: new Set(),
  chroot: new Set(['--userspec', '--groups']),
  taskset: new Set(),
  chrt: new Set(['-T', '-P', '-D', '--sched-runtime', '--sched-period', '--sched-deadline']),
  flock: new Set(['-c', '--command', '-w', '-E', '--timeout', '--wait', '--conflict-exit-code']),
  runuser: new Set([
    '-c',
    '-u',
    '-g',
    '-G',
    '-s',
    '-w',
    '--command',
    '--session-command',
    '--user',
    '--group',
    '--supp-group',
    '--shell',
  ]),
  pkexec: new Set(['--user', '-u']),
  unbuffer: new Set(),
  strace: new Set(['-o', '-e', '-p', '-s', '-u', '-a', '-E', '-b', '-I', '-O', '-P', '-S', '-X', '-U']),
  ltrace: new Set(['-o', '-e', '-p', '-s', '-u', '-a', '-n', '-x', '-A', '-D', '-F', '-l', '-L']),
  nsenter: new Set(['-t', '-S', '-G', '--target', '--setuid', '--setgid']),
  unshare: new Set(['-S', '-G', '-R', '-w', '--setuid', '--setgid', '--root', '--wd']),
  setpriv: new Set(['--reuid', '--regid', '--ruid', '--euid', '--rgid', '--egid', '--groups']),
  'systemd-run': new Set([
    '-u',
    '-p',
    '-E',
    '-M',
    '-H',
    '--unit',
    '--property',
    '--setenv',
    '--machine',
    '--host',
    '--description',
    '--slice',
    '--uid',
    '--gid',
    '--working-directory',
  ]),
  at: new Set(['-q', '-f', '-t']),
  batch: new Set(['-q', '-f', '-t']),
  su: new Set(['-c', '-g', '-G', '-s', '-w', '--command', '--session-command', '--group', '--shell']),
  script: new Set(['-c', '-E', '-I', '-O', '-B', '-T', '-m', '--command', '--log-io', '--log-timing']),
  prlimit: new Set(['-p', '-o', '--pid', '--output']),
  fakeroot: new Set(['-l', '-s', '-i', '-b', '--lib', '--faked']),
  chronic: new Set(),
  eatmydata: new Set(),
  'ssh-agent': new Set(['-a', '-E', '-O', '-P', '-t']),
  'dbus-run-session': new Set(['--config-file', '--dbus-daemon']),
  setarch: new Set(),
  [LOADER]: new Set([
    '--library-path',
    '--inhibit-rpath',
    '--audit',
    '--preload',
    '--argv0',
    '--glibc-hwcaps-prepend',
    '--glibc-hwcaps-mask',
  ]),
};

/**
 * Options whose argument is optional, so only ever attached (`-i%`, `--replace=%`): the next word is
 * never theirs: GNU xargs' -i/-l/-e, prlimit's limits (`-n1024`, `--nofile=1024`).
 */
const OPTIONAL_ARGUMENT: Record<string, ReadonlySet<string>> = {
  xargs: new Set(['-i', '-l', '-e']),
  prlimit: new Set([
    '-c',
    '-d',
    '-e',
    '-f',
    '-i',
    '-l',
    '-m',
    '-n',
    '-q',
    '-r',
    '-s',
    '-t',
    '-u',
    '-v',
    '-x',
    '-y',
  ]),
};

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/u;

/** The program's name as a deny rule compares it: `/bin/rm`, `./rm` and `rm` are all `rm`. */
export function programName(word: string): string {
  return basename(word);
}

interface Options {
  /** Index of the first operand; undefined when an option is only known when the shell runs. */
  readonly start: number | undefined;
  /** Every option given, as `-x` or `--name`, with its argument (`undefined` for a flag). */
  readonly given: ReadonlyMap<string, string | undefined>;
}

/** Reads the options of `wrapper` as getopt does (clusters, attached or separate arguments). */
function readOptions(words: Words, wrapper: string, assignments = false): Options {
  const takesArgument = WITH_ARGUMENT[wrapper] ?? new Set<string>();
  const mayTakeArgument = OPTIONAL_ARGUMENT[wrapper] ?? new Set<string>();
  const given = new Map<string, string | undefined>();
  let i = 1;
  while (i < words.length) {
    const word = words[i];
    if (word === undefined) return { start: undefined, given };
    if (word === '--') return { start: i + 1, given };
    if (assignments && ASSIGNMENT.test(word)) {
      i++;
      continue;
    }
    if (!word.startsWith('-') || word === '-') return { start: i, given };
    i++;
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      const name = eq === -1 ? word : word.slice(0, eq);
      if (eq !== -1) given.set(name, word.slice(eq + 1));
      else if (takesArgument.has(name)) given.set(name, words[i++]);
      else given.set(name, undefined);
      continue;
    }
    // A cluster: `-iu root` is `-i -u root`; `-uroot` carries the argument; `nice -5` is a number.
    for (let j = 1; j < word.length; j++) {
      const flag = `-${word[j] ?? ''}`;
      if (mayTakeArgument.has(flag)) {
        given.set(flag, j + 1 < word.length ? word.slice(j + 1) : undefined);
        break;
      }
      if (!takesArgument.has(flag)) {
        given.set(flag, undefined);
        continue;
      }
      given.set(flag, j + 1 < word.length ? word.slice(j + 1) : words[i++]);
      break;
    }
  }
  return { start: i, given };
}

/** Where the first non-option word is, skipping options of `wrapper` (and NAME=value when `assignments`). */
function afterOptions(words: Words, wrapper: string, assignments = false): number | undefined {
  return readOptions(words, wrapper, assignments).start;
}

/** The value of the first of `names` given, `null` when none is. */
function option(options: Options, ...names: string[]): string | undefined | null {
  for (const name of names) if (options.given.has(name)) return options.given.get(name);
  return null;
}

function commandAt(words: Words, start: number | undefined, appended = false, replace?: string): Inner {
  if (start === undefined)
    return { kind: 'opaque', why: 'an option of the wrapper is only known when it runs' };
  if (start >= words.length) return { kind: 'none' };
  return replace === undefined
    ? { kind: 'command', start, appended }
    : { kind: 'command', start, appended, replace };
}

/** The command after the options, or a shell reading stdin when there is none (fakeroot, setarch). */
function commandOrShell(words: Words, start: number | undefined): Inner {
  return start !== undefined && start >= words.length ? { kind: 'stdin' } : commandAt(words, start);
}

/** Script operands that make a shell read its code from stdin after all. */
const STDIN_SCRIPTS = new Set(['-', '/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);
/** Long shell options that take the next word as their argument. */
const SHELL_WITH_ARGUMENT = new Set(['--rcfile', '--init-file', '-o', '+o', '-O', '+O']);

function shellInner(words: Words): Inner {
  let fromStdin = false;
  for (let i = 1; i < words.length; i++) {
    const word = words[i];
    if (word === undefined)
      return { kind: 'opaque', why: 'an argument of the shell is only known when it runs' };
    if (word === '--' || (!word.startsWith('-') && !word.startsWith('+'))) {
      // With -s the operands are positional arguments; otherwise the first is the script file.
      const script = word === '--' ? words[i + 1] : word;
      if (fromStdin || script === undefined) return { kind: 'stdin' };
      return STDIN_SCRIPTS.has(script) ? { kind: 'stdin' } : { kind: 'none' };
    }
    if (/^-[A-Za-z]*c[A-Za-z]*$/u.test(word)) {
      const next = words.slice(i + 1).find((w) => w === undefined || !w.startsWith('-'));
      return { kind: 'code', code: next };
    }
    if (/^-[A-Za-z]*s[A-Za-z]*$/u.test(word)) fromStdin = true;
    if (word === '-') return { kind: 'stdin' };
    if (SHELL_WITH_ARGUMENT.has(word)) i++;
  }
  return { kind: 'stdin' };
}

function findInner(words: Words): Inner {
  const ranges: [number, number][] = [];
  for (let i = 1; i < words.length; i++) {
    const word = words[i];
    if (word !== '-exec' && word !== '-execdir' && word !== '-ok' && word !== '-okdir') continue;
    // `;` ends the command; `+` only right after `{}` (elsewhere it is an argument: `flock + rm a {} +`).
    let end = i + 1;
    while (end < words.length && words[end] !== ';' && !(words[end] === '+' && words[end - 1] === '{}'))
      end++;
    if (end > i + 1) ranges.push([i + 1, end]);
    i = end;
  }
  return ranges.length === 0 ? { kind: 'none' } : { kind: 'commands', ranges, replace: '{}' };
}

/** xargs: the command after the options, with the replace string of -I/-i/--replace/-J filled in. */
function xargsInner(words: Words): Inner {
  const options = readOptions(words, 'xargs');
  const replace = replaceString(options);
  if (replace === undefined)
    return { kind: 'opaque', why: "xargs' replace string is only known when it runs" };
  if (options.start !== undefined && options.start >= words.length) return { kind: 'none' }; // runs echo
  // With a replace string xargs puts what it reads there and appends nothing.
  return replace === null
    ? commandAt(words, options.start, true)
    : commandAt(words, options.start, false, replace);
}

/** The string xargs replaces with what it reads, null when it only appends, undefined when not static. */
function replaceString(options: Options): string | undefined | null {
  for (const [name, value] of options.given) {
    if (name === '-I' || name === '-J') return value;
    if (name === '-i' || name === '--replace') return value ?? '{}';
  }
  return null;
}

/** `sg [-] GROUP [-c] STRING`: the string as shell code; with none, sg starts a shell reading stdin. */
function sgInner(words: Words): Inner {
  let at = words[1] === '-' ? 2 : 1;
  if (at >= words.length) return { kind: 'stdin' };
  if (words[at] === undefined) return { kind: 'opaque', why: 'an argument of sg is only known when it runs' };
  at++;
  if (words[at] === '-c') at++;
  return at < words.length ? { kind: 'code', code: words[at] } : { kind: 'stdin' };
}

/** `setarch ARCH [options] [program]`; under one of its other names the name is the architecture. */
function setarchInner(words: Words, program: string): Inner {
  const first = words[1];
  const named = program !== 'setarch' || first === undefined || first.startsWith('-') ? 0 : 1;
  const options = readOptions([program, ...words.slice(1 + named)], 'setarch');
  if (['-h', '--help', '-V', '--version', '--list'].some((flag) => options.given.has(flag)))
    return { kind: 'none' };
  return commandOrShell(words, options.start === undefined ? undefined : options.start + named);
}

/** What `words` (a simple command whose program is static) runs besides itself. */
export function innerOf(words: Words): Inner {
  const program = programName(words[0] ?? '');
  const opaque = OPAQUE[program];
  if (opaque !== undefined) return { kind: 'opaque', why: opaque };
  if (SHELLS.has(program)) return shellInner(words);
  if (SETARCH.has(program)) return setarchInner(words, program);
  if (LOADER_NAME.test(program)) return commandAt(words, afterOptions(words, LOADER));
  switch (program) {
    case 'command': {
      const options = readOptions(words, program);
      if (options.given.has('-v') || options.given.has('-V')) return { kind: 'none' };
      return commandAt(words, options.start);
    }
    case 'busybox':
    case 'toybox':
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
    case 'pkexec':
    case 'unbuffer':
    case 'strace':
    case 'ltrace':
    case 'nsenter':
    case 'unshare':
    case 'setpriv':
    case 'systemd-run':
    case 'prlimit':
    case 'eatmydata':
    case 'chronic':
    case 'ssh-agent':
    case 'dbus-run-session':
      return commandAt(words, afterOptions(words, program));
    case 'fakeroot':
      return commandOrShell(words, afterOptions(words, program));
    case 'sg':
      return sgInner(words);
    case 'newgrp':
      return { kind: 'stdin' };
    case 'env': {
      const options = readOptions(words, program, true);
      const split = option(options, '-S', '--split-string');
      if (split !== null) return { kind: 'code', code: split };
      return commandAt(words, options.start);
    }
    case 'timeout':
    case 'chroot':
    case 'chrt':
    case 'taskset': {
      const options = readOptions(words, program);
      if (options.given.has('-p') || options.given.has('--pid')) return { kind: 'none' };
      return commandAt(words, options.start === undefined ? undefined : options.start + 1);
    }
    case 'flock': {
      const options = readOptions(words, program);
      if (options.start === undefined) return commandAt(words, undefined);
      const after = readOptions(['flock', ...words.slice(options.start + 1)], 'su');
      const code = option(after, '-c', '--command') ?? option(options, '-c', '--command');
      if (code !== null) return { kind: 'code', code };
      return commandAt(words, options.start + 1);
    }
    case 'sudo': {
      const options = readOptions(words, program, true);
      const start = options.start;
      if (start !== undefined && start < words.length && (options.given.has('-s') || options.given.has('-i')))
        return { kind: 'code', code: joinStatic(words.slice(start)) };
      return commandAt(words, start);
    }
    case 'at':
    case 'batch': {
      const options = readOptions(words, program);
      if (options.start === undefined) return commandAt(words, undefined);
      return option(options, '-f') === null ? { kind: 'stdin' } : { kind: 'none' };
    }
    case 'xargs':
      return xargsInner(words);
    case 'find':
      return findInner(words);
    case 'su':
    case 'script':
    case 'runuser':
      return suInner(words, program);
    case 'trap': {
      const at = words[1] === '--' ? 2 : 1;
      if (at >= words.length) return { kind: 'none' };
      const code = words[at];
      // `trap -p`, `trap -l` print; `trap - SIGNAL` resets.
      if (code === '-' || (at === 1 && code !== undefined && /^-[lp]/u.test(code))) return { kind: 'none' };
      return { kind: 'code', code };
    }
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

/** `su`, `runuser`, `script`: a `-c STRING` anywhere (su permutes its options); runuser -u runs a command. */
function suInner(words: Words, program: string): Inner {
  // su and runuser take options after the user name too, so read every word as a possible option.
  let code: string | undefined | null = null;
  for (let i = 1; i < words.length && code === null; i++) {
    const word = words[i];
    if (word === undefined)
      return { kind: 'opaque', why: `an argument of ${program} is only known when it runs` };
    if (word === '--') break;
    if (!word.startsWith('-')) continue;
    const options = readOptions([program, ...words.slice(i)], program);
    code = option(options, '-c', '--command', '--session-command');
  }
  if (code !== null) return { kind: 'code', code };
  if (program === 'runuser') {
    const options = readOptions(words, program);
    if (option(options, '-u', '--user') !== null) return commandAt(words, options.start);
  }
  return { kind: 'none' };
}

function joinStatic(words: Words): string | undefined {
  return words.every((w) => w !== undefined) ? words.join(' ') : undefined;
}
