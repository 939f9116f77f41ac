// Where the operating system does not hold the protected paths (no sandbox: `CompiledPolicy.osEnforced`
// false), a program's own options are the one way past the policy it cannot see (`git log
// --output=.git/config`, `sort -o`, `find -fprintf`): so there an allow rule covers only the words a
// person wrote in it, and past those only words this table knows are not a path the program writes.
// `Bash(git log:*)` then covers `git log --oneline -5 src/` but not `git log --output=F`, and
// `Bash(make:*)` covers `make` alone: `make build` asks (what `build` is, no table can say). A rule
// without `:*` or `*` names every word, and `Bash` alone covers every command: neither is narrowed.
//
// | Program              | Options known to write nothing                                   | Operands  |
// |----------------------|------------------------------------------------------------------|-----------|
// | git status           | -s --short -b --branch --porcelain -u… --ignored -v …            | paths     |
// | git log, show, diff  | formatting and selection (--oneline --format= -n -p --stat …)    | revs/paths|
// | cat head tail wc …   | their display options                                            | read      |
// | grep rg              | matching and display options                                     | read      |
// | ls pwd echo which    | display options                                                  | read      |
// | sort                 | all but -o/--output                                              | read      |
// | uniq                 | -c -d -u -i -f -s -w                                             | one (read)|
// | find                 | tests and -print/-print0/-ls, not -fprint*/-fls/-exec/-delete    | paths     |
//
// An option not in its row, or a word of a program with no row, is not covered: the mode decides.

interface ArgumentClass {
  /** Options that write no file: `--name` (also as `--name=value`) or `-x`. */
  readonly options: readonly string[];
  /**
   * Options that write no file and take a value, the next word when not joined with `=` (`-n 5`,
   * `-name x`); known whether or not `options` lists them too.
   */
  readonly valued?: readonly string[];
  /** How many operands may follow (files read, revisions, paths): `Infinity` for any. */
  readonly operands: number;
  /** `-5` for a count (git log -5, head -5). */
  readonly numeric?: boolean;
}

const GIT_FORMAT = [
  '--oneline',
  '--format',
  '--pretty',
  '-n',
  '--max-count',
  '--skip',
  '--stat',
  '--shortstat',
  '--numstat',
  '--name-only',
  '--name-status',
  '--graph',
  '--decorate',
  '--no-decorate',
  '--all',
  '--author',
  '--committer',
  '--since',
  '--after',
  '--until',
  '--before',
  '--grep',
  '-i',
  '-p',
  '-u',
  '--patch',
  '--no-patch',
  '-s',
  '--color',
  '--no-color',
  '--reverse',
  '-S',
  '-G',
  '--follow',
  '--abbrev-commit',
  '--date',
  '--first-parent',
  '--merges',
  '--no-merges',
  '--cached',
  '--staged',
  '--word-diff',
  '--summary',
  '-M',
  '-C',
  '--ignore-all-space',
  '-w',
  '--relative',
  '--unified',
  '-U',
  '--no-ext-diff',
  '--no-textconv',
  '--check',
  '--exit-code',
  '--quiet',
  '--raw',
  '--',
];
const GIT_VALUED = [
  '-n',
  '--max-count',
  '--skip',
  '--author',
  '--committer',
  '--since',
  '--until',
  '--grep',
  '-S',
  '-G',
  '--date',
  '-U',
];
const DISPLAY = [
  '-n',
  '-c',
  '-l',
  '-w',
  '-m',
  '-q',
  '-v',
  '-s',
  '-b',
  '-f',
  '-F',
  '-A',
  '-e',
  '-E',
  '-T',
  '--lines',
  '--bytes',
  '--quiet',
  '--verbose',
];

const TABLE: Readonly<Record<string, ArgumentClass>> = {
  'git status': {
    options: [
      '-s',
      '--short',
      '-b',
      '--branch',
      '--porcelain',
      '-u',
      '-uno',
      '-uall',
      '-unormal',
      '--untracked-files',
      '--ignored',
      '-v',
      '--verbose',
      '--long',
      '--show-stash',
      '-z',
      '--ahead-behind',
      '--no-ahead-behind',
      '--',
    ],
    operands: Infinity,
  },
  'git log': { options: GIT_FORMAT, valued: GIT_VALUED, operands: Infinity, numeric: true },
  'git show': { options: GIT_FORMAT, valued: GIT_VALUED, operands: Infinity, numeric: true },
  'git diff': { options: GIT_FORMAT, valued: GIT_VALUED, operands: Infinity },
  cat: { options: ['-n', '-b', '-A', '-e', '-s', '-t', '-v', '-E', '-T'], operands: Infinity },
  head: { options: DISPLAY, valued: ['-n', '-c', '--lines', '--bytes'], operands: Infinity, numeric: true },
  tail: { options: DISPLAY, valued: ['-n', '-c', '--lines', '--bytes'], operands: Infinity, numeric: true },
  wc: {
    options: ['-l', '-w', '-c', '-m', '-L', '--lines', '--words', '--bytes', '--chars'],
    operands: Infinity,
  },
  ls: {
    options: ['-l', '-a', '-A', '-h', '-R', '-t', '-r', '-S', '-1', '-d', '-F', '--color', '--all'],
    operands: Infinity,
  },
  grep: {
    options: [
      '-r',
      '-R',
      '-n',
      '-i',
      '-l',
      '-L',
      '-c',
      '-v',
      '-w',
      '-x',
      '-E',
      '-F',
      '-P',
      '-o',
      '-h',
      '-H',
      '-s',
      '-q',
      '-e',
      '-A',
      '-B',
      '-C',
      '--include',
      '--exclude',
      '--exclude-dir',
      '--color',
      '--',
    ],
    valued: ['-e', '-A', '-B', '-C', '--include', '--exclude', '--exclude-dir'],
    operands: Infinity,
  },
  rg: {
    options: [
      '-n',
      '-i',
      '-l',
      '-c',
      '-v',
      '-w',
      '-F',
      '-S',
      '-g',
      '--glob',
      '-t',
      '--type',
      '--hidden',
      '--no-ignore',
      '-A',
      '-B',
      '-C',
      '--files',
      '--json',
      '--',
    ],
    valued: ['-g', '--glob', '-t', '--type', '-A', '-B', '-C'],
    operands: Infinity,
  },
  pwd: { options: ['-P', '-L'], operands: 0 },
  echo: { options: ['-n', '-e', '-E'], operands: Infinity },
  which: { options: ['-a'], operands: Infinity },
  sort: {
    options: [
      '-n',
      '-r',
      '-u',
      '-k',
      '-t',
      '-f',
      '-h',
      '-V',
      '-b',
      '-s',
      '-z',
      '--numeric-sort',
      '--reverse',
      '--unique',
    ],
    valued: ['-k', '-t'],
    operands: Infinity,
  },
  uniq: { options: ['-c', '-d', '-u', '-i', '-f', '-s', '-w'], valued: ['-f', '-s', '-w'], operands: 1 },
  find: {
    // With a value: below; without one:
    options: [
      '-empty',
      '-not',
      '-o',
      '-or',
      '-a',
      '-and',
      '-print',
      '-print0',
      '-ls',
      '-prune',
      '-L',
      '-H',
      '-P',
    ],
    valued: [
      '-name',
      '-iname',
      '-path',
      '-ipath',
      '-type',
      '-maxdepth',
      '-mindepth',
      '-newer',
      '-size',
      '-mtime',
      '-mmin',
      '-regex',
      '-user',
      '-perm',
    ],
    operands: Infinity,
  },
};

/** How many leading words of a Bash pattern a person wrote out (`git log:*`: 2; `npm test`: all). */
export function literalWords(pattern: string): number {
  const words = (pattern.endsWith(':*') ? pattern.slice(0, -2) : pattern).trim().split(/\s+/u);
  const glob = words.findIndex((word) => word.includes('*'));
  if (glob !== -1) return glob;
  return pattern.endsWith(':*') ? words.length : Number.POSITIVE_INFINITY;
}

function classOf(words: readonly string[]): { entry: ArgumentClass; named: number } | undefined {
  const [program = '', sub = ''] = words;
  const name = program.slice(program.lastIndexOf('/') + 1);
  const bySub = TABLE[`${name} ${sub}`];
  if (bySub !== undefined) return { entry: bySub, named: 2 };
  const byName = TABLE[name];
  return byName === undefined ? undefined : { entry: byName, named: 1 };
}

/** `-la` as `-l -a`: every letter a flag of the row that takes no value. */
function combinedFlags(entry: ArgumentClass, word: string): boolean {
  if (!/^-[A-Za-z]{2,}$/u.test(word)) return false;
  return [...word.slice(1)].every((letter) => {
    const flag = `-${letter}`;
    return entry.options.includes(flag) && entry.valued?.includes(flag) !== true;
  });
}

/**
 * The first word past the `literal` words a rule names that the table cannot classify as writing no
 * file, or undefined when there is none.
 */
export function unclassifiedWord(words: readonly string[], literal: number): string | undefined {
  if (literal >= words.length) return undefined;
  const found = classOf(words);
  if (found === undefined) return words[literal];
  const { entry, named } = found;
  let operands = 0;
  let onlyOperands = false;
  // Words the rule names are the person's; options among them still take their values from after it.
  for (let i = named; i < words.length; i++) {
    const word = words[i] ?? '';
    const covered = i < literal;
    if (!onlyOperands && word === '--') {
      onlyOperands = true;
      continue;
    }
    if (onlyOperands || !word.startsWith('-') || word === '-') {
      operands++;
      if (!covered && operands > entry.operands) return word;
      continue;
    }
    if (entry.numeric === true && /^-\d+$/u.test(word)) continue;
    const name = word.includes('=') ? word.slice(0, word.indexOf('=')) : word;
    const valued = entry.valued?.includes(name) === true;
    if (valued || entry.options.includes(name)) {
      if (valued && !word.includes('=')) i++;
      continue;
    }
    if (combinedFlags(entry, word)) continue;
    if (!covered) return word;
  }
  return undefined;
}
