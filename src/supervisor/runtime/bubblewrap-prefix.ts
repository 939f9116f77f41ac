// Warden's own confinement of a CLI's Bash commands on Linux: the CLI runs each command through
// `CLAUDE_CODE_SHELL_PREFIX` (as `'<prefix>' '<command string>'`), and the prefix is a small POSIX-sh
// script written here that starts the command under bubblewrap with the whole filesystem as it is,
// except the protected paths, bound read-only over themselves. Unlike the CLI's own sandbox it mounts
// nothing over a path that does not exist (no placeholder files, so `git status` and `git add -A` see
// the tree as it is); which paths exist is checked at each command, so a protected file made since the
// CLI started is held from the next command on. An absent protected path is the policy's to guard.
// If bubblewrap cannot start, the command fails: it never runs unconfined.
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The script's folder in the data directory (which is itself held read-only for the commands). */
export const PREFIX_DIR = 'confinement';

/** A word for POSIX sh, single-quoted. */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

export interface BubblewrapPrefix {
  /** Absolute path of bubblewrap (`bwrap`). */
  readonly bwrap: string;
  /** The shell that runs the CLI's command string inside (the CLI writes it for bash or zsh). */
  readonly shell: string;
  /** Absolute paths held read-only when they exist at the time of a command. */
  readonly held: readonly string[];
  /** A prefix the CLI's environment had already: it still runs, inside the sandbox. */
  readonly innerPrefix?: string | undefined;
}

/**
 * A held path as a word of the script: quoted, but a last segment that is a glob of the table
 * (`lefthook.*`, `*.code-workspace`) is left for the shell to expand at each command; one that matches
 * nothing stays as it is and does not exist.
 */
function heldWord(path: string): string {
  const slash = path.lastIndexOf('/');
  const last = path.slice(slash + 1);
  if (!last.includes('*') || !/^[A-Za-z0-9._*-]+$/u.test(last)) return shellQuote(path);
  return `${shellQuote(path.slice(0, slash + 1))}${last}`;
}

/**
 * A prefix as the CLI runs it: the program quoted as one word, and what follows its last ` -` as options
 * (`/opt/log -v` is `'/opt/log' -v`).
 */
function prefixWords(prefix: string): string {
  const options = prefix.lastIndexOf(' -');
  return options > 0
    ? `${shellQuote(prefix.slice(0, options))} ${prefix.slice(options + 1)}`
    : shellQuote(prefix);
}

/** The script's text. */
export function bubblewrapScript({ bwrap, shell, held, innerPrefix }: BubblewrapPrefix): string {
  // The command string goes to the prefix the CLI's environment had, which runs it as it would have.
  const run =
    innerPrefix === undefined
      ? `${shellQuote(shell)} -c "$command"`
      : `${prefixWords(innerPrefix)} "$command"`;
  return [
    '#!/bin/sh',
    '# Runs one Bash command of a Claude Code CLI started by Warden with the protected paths read-only',
    '# (bubblewrap); written by the supervisor at each start of a CLI, see docs/security.md.',
    'command=$1',
    'set --',
    `for path in ${held.map(heldWord).join(' ')}; do`,
    '  if [ -e "$path" ]; then set -- "$@" --ro-bind "$path" "$path"; fi',
    'done',
    // --die-with-parent: a command the CLI stops (timeout, interrupt) does not outlive its shell.
    `exec ${shellQuote(bwrap)} --dev-bind / / "$@" --die-with-parent -- ${run}`,
    '',
  ].join('\n');
}

/**
 * Writes the script for one CLI into `<dataDir>/confinement/` (atomically: a CLI already running with
 * the same script never reads half of one) and returns its path, the value for
 * `CLAUDE_CODE_SHELL_PREFIX`. Named by its content, so CLIs of the same cwd share it.
 */
export function writeBubblewrapPrefix(dataDir: string, prefix: BubblewrapPrefix): string {
  const text = bubblewrapScript(prefix);
  const name = createHash('sha256').update(text).digest('hex').slice(0, 24);
  const dir = join(dataDir, PREFIX_DIR);
  const path = join(dir, `${name}.sh`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const partial = `${path}.${process.pid}.tmp`;
  writeFileSync(partial, text, { mode: 0o700 });
  chmodSync(partial, 0o700);
  renameSync(partial, path);
  return path;
}
