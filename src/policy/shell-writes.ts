// Files a simple command writes by its own arguments, not by a redirection: the policy checks them against
// the protected-path table, so `cp x .git/hooks/pre-commit` is asked like `echo x > .git/hooks/pre-commit`.
// Deliberately wide: every operand of a program that writes its operands counts, sources included, since
// a false match only costs a question (`cp .git/config backup` is asked too).
//
// | Program                                        | What it may write                                   |
// |------------------------------------------------|-----------------------------------------------------|
// | tee, cp, mv, ln, link, install, rsync, touch,  | every operand, and the value of `--opt=value`       |
// | truncate, mkdir, mkfifo, mknod, chmod, chown,  | (`--target-directory=DIR`, `-tDIR`)                 |
// | chgrp, unzip, tar, patch, rm, unlink, shred    |                                                     |
// | sed, perl, ruby with `-i`/`--in-place`         | every operand                                       |
// | dd                                             | `of=FILE`                                           |
// | git config (not a read), git -C DIR config     | `.git/config`; `--global`: `.gitconfig`; `-f FILE`  |
// | npm/pnpm config set|delete|edit, npm set       | `.npmrc`; yarn: `.yarnrc` and `.yarnrc.yml`         |
//
// An interpreter (`python -c`, `node -e`) writes what it likes; that is documented, not guessed at.
import { programName, type Words } from './shell-wrappers.js';

const WRITES_OPERANDS = new Set([
  'tee',
  'cp',
  'mv',
  'ln',
  'link',
  'install',
  'rsync',
  'touch',
  'truncate',
  'mkdir',
  'mkfifo',
  'mknod',
  'chmod',
  'chown',
  'chgrp',
  'unzip',
  'tar',
  'patch',
  'rm',
  'unlink',
  'shred',
]);
const IN_PLACE = new Set(['sed', 'perl', 'ruby']);
const GIT_READS = new Set([
  '--get',
  '--get-all',
  '--get-regexp',
  '--get-urlmatch',
  '--list',
  '-l',
  'get',
  'list',
]);
const GIT_OPTIONS_WITH_ARGUMENT = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--config-env',
]);
const PACKAGE_MANAGERS: Record<string, readonly string[]> = {
  npm: ['.npmrc'],
  pnpm: ['.npmrc'],
  yarn: ['.yarnrc', '.yarnrc.yml'],
};

/** The paths `values` (a simple command, static words as strings) writes through its arguments. */
export function writtenByArguments(values: Words): string[] {
  const program = programName(values[0] ?? '');
  const args = values.slice(1).filter((v): v is string => v !== undefined);
  if (WRITES_OPERANDS.has(program)) return args.flatMap(operandPaths);
  if (IN_PLACE.has(program) && args.some((a) => /^-[A-Za-z]*i/u.test(a) || a.startsWith('--in-place')))
    return args.filter((a) => !a.startsWith('-'));
  if (program === 'dd') return args.filter((a) => a.startsWith('of=')).map((a) => a.slice(3));
  if (program === 'git') return gitConfigWrites(args);
  const rc = PACKAGE_MANAGERS[program];
  if (rc !== undefined && changesConfig(args)) return [...rc];
  return [];
}

/** An operand as a path, or the value an option carries (`--target-directory=x`, `-tx`). */
function operandPaths(word: string): string[] {
  if (!word.startsWith('-')) return [word];
  if (word.startsWith('--') && word.includes('=')) return [word.slice(word.indexOf('=') + 1)];
  if (/^-[A-Za-z]*t./u.test(word)) return [word.slice(word.indexOf('t') + 1)];
  return [];
}

function gitConfigWrites(args: readonly string[]): string[] {
  let i = 0;
  while (i < args.length && (args[i] ?? '').startsWith('-'))
    i += GIT_OPTIONS_WITH_ARGUMENT.has(args[i] ?? '') ? 2 : 1;
  if (args[i] !== 'config') return [];
  const rest = args.slice(i + 1);
  if (rest.some((a) => GIT_READS.has(a))) return [];
  // `git config key` reads; `git config key value`, `set`, `--add`, `--unset`, `--edit` write.
  const operands = rest.filter((a) => !a.startsWith('-'));
  const writes =
    rest.some((a) => a.startsWith('-') && a !== '--global' && a !== '--local') || operands.length >= 2;
  if (!writes) return [];
  const file = rest.findIndex((a) => a === '-f' || a === '--file' || a.startsWith('--file='));
  if (file !== -1) {
    const named = rest[file] ?? '';
    const path = named.startsWith('--file=') ? named.slice('--file='.length) : rest[file + 1];
    return path === undefined ? ['.git/config'] : [path];
  }
  return rest.includes('--global') ? ['.gitconfig'] : ['.git/config'];
}

function changesConfig(args: readonly string[]): boolean {
  const words = args.filter((a) => !a.startsWith('-'));
  if (words[0] === 'set' || words[0] === 'unset') return true;
  return words[0] === 'config' && ['set', 'delete', 'edit', 'unset'].includes(words[1] ?? '');
}
