// The data directory is private: it holds prompts, tool inputs and outputs and the server token. It is
// created 0700 and every file in it is kept 0600, whatever the umask; a looser one found at open is
// tightened (and reported, so the command can say so), and one that belongs to another user is refused —
// someone else could read or swap what is in it.
import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';

import { StoreError } from '../protocol/errors.js';

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;
/** Group and other permission bits. */
const SHARED_BITS = 0o077;

/** One permission this process tightened: what it was, what it is now. */
export interface PermissionFix {
  path: string;
  from: number;
  to: number;
}

/** `tightened <path> from 0755 to 0700`: how the commands report a fix. */
export function describeFix(fix: PermissionFix): string {
  return `tightened ${fix.path} from ${octal(fix.from)} to ${octal(fix.to)} (warden data is private to its user)`;
}

/**
 * Makes `dir` (creating it 0700 if missing) and everything in it private to this user: directories 0700,
 * files 0600. Symbolic links are left alone (never followed). Throws StoreError when `dir` or anything in
 * it belongs to another user, or is not a directory. Returns what it had to tighten.
 */
export function securePrivateDir(dir: string): PermissionFix[] {
  // The parents are the user's business (their usual modes); only the data directory itself is ours.
  mkdirSync(dirname(dir), { recursive: true });
  try {
    mkdirSync(dir, { mode: DIR_MODE });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw wrap(dir, error);
  }
  const fixes: PermissionFix[] = [];
  const root = stat(dir);
  if (!root.isDirectory()) throw new StoreError(`The data directory ${dir} is not a directory`);
  checkOwner(dir, root);
  // Look at everything before changing anything: a directory that is plainly not Warden's (a --data-dir
  // pointing at a project, a home) is refused whole rather than half rewritten.
  const entries: { path: string; stats: Stats }[] = [];
  collect(dir, dir, entries);
  // Then the directory first: from then on nobody else can even look inside while the rest is fixed.
  tighten(dir, root, DIR_MODE, fixes);
  for (const { path, stats } of entries)
    tighten(path, stats, stats.isDirectory() ? DIR_MODE : FILE_MODE, fixes);
  return fixes;
}

/** Creates `path` empty with mode 0600 if it is missing, so what is written to it is private from byte one. */
export function createPrivateFile(path: string): void {
  try {
    closeSync(openSync(path, 'a', FILE_MODE));
  } catch (error) {
    throw wrap(path, error);
  }
}

/** Warden keeps a handful of files; far more means the directory is someone else's. */
const MAX_ENTRIES = 1000;
/** Directories Warden fills itself (one spool directory per live CLI): their entries are not counted. */
const OWN_DIRS = new Set(['cli']);

function collect(
  root: string,
  dir: string,
  entries: { path: string; stats: Stats }[],
  counted = { entries: 0 },
  own = false,
): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stats = stat(path);
    if (stats.isSymbolicLink()) continue;
    checkOwner(path, stats);
    entries.push({ path, stats });
    if (!own && (counted.entries += 1) > MAX_ENTRIES)
      throw new StoreError(
        `${root} holds more than ${MAX_ENTRIES} entries: it does not look ` +
          'like a warden data directory, so its permissions were left alone (pass a directory of its own)',
      );
    if (stats.isDirectory())
      collect(root, path, entries, counted, own || (dir === root && OWN_DIRS.has(name)));
  }
}

function tighten(path: string, stats: Stats, mode: number, fixes: PermissionFix[]): void {
  const current = stats.mode & 0o7777;
  if ((current & SHARED_BITS) === 0 && (current & 0o7000) === 0) return;
  try {
    chmodSync(path, mode);
  } catch (error) {
    throw wrap(path, error);
  }
  fixes.push({ path, from: current, to: mode });
}

function checkOwner(path: string, stats: Stats): void {
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid)
    throw new StoreError(
      `${path} is owned by another user (uid ${stats.uid}); the data directory and everything in it must ` +
        'belong to the user running warden',
    );
}

function stat(path: string): Stats {
  try {
    return lstatSync(path);
  } catch (error) {
    throw wrap(path, error);
  }
}

function wrap(path: string, error: unknown): StoreError {
  return new StoreError(`Could not secure ${path}: ${(error as Error).message}`, { cause: error });
}

function octal(mode: number): string {
  return `0${mode.toString(8).padStart(3, '0')}`;
}
