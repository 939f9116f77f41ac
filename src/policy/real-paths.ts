// Where a path really leads: symlinks resolved on the part that exists, so a link cannot carry a write
// somewhere a check on the path as written would not see. One copy, for the modes and the rules alike.
import { lstatSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path';

/** `path` inside `root` (or equal to it), both absolute. */
export function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** What the filesystem says of a path: where it really leads (null: nowhere yet), and, for a symlink
 * realpath could not follow, where it points. */
interface PathFacts {
  readonly real: string | null;
  readonly dangling: string | undefined;
}

/**
 * While set, what the filesystem said of each path, for a run over many requests at one moment (a
 * simulation over the log): each path is looked up once.
 */
let remembered: Map<string, PathFacts> | undefined;
/**
 * While set, the names in each directory asked about (folded: lower case, NFC), listed once: a name not
 * among them does not exist, with no syscall per path. A folded name that is there is looked up as usual.
 */
let listings: Map<string, ReadonlySet<string> | null> | undefined;

/** Runs `fn` with each path's real path looked up once (nested calls share the outer memory). */
export function withRememberedPaths<T>(fn: () => T): T {
  const outer = remembered;
  const outerListings = listings;
  remembered = outer ?? new Map();
  listings = outerListings ?? new Map();
  try {
    return fn();
  } finally {
    remembered = outer;
    listings = outerListings;
  }
}

/** The facts of `path`; remembered while withRememberedPaths runs. */
function factsOf(path: string): PathFacts {
  const known = remembered?.get(path);
  if (known !== undefined) return known;
  const facts = listedAbsent(path) ? ABSENT : lookUp(path);
  remembered?.set(path, facts);
  return facts;
}

/** Does the listing of `path`'s directory (while remembering) show that it is not there? */
function listedAbsent(path: string): boolean {
  if (listings === undefined) return false;
  const parent = dirname(path);
  if (parent === path) return false;
  let names = listings.get(parent);
  if (names === undefined) {
    names = listingOf(parent);
    listings.set(parent, names);
  }
  return names !== null && !names.has(folded(basename(path)));
}

/** The folded names in `directory`; none when it does not exist (or is no directory); null: unknown. */
function listingOf(directory: string): ReadonlySet<string> | null {
  try {
    return new Set(readdirSync(directory).map(folded));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? NOTHING : null;
  }
}

const NOTHING: ReadonlySet<string> = new Set();
const ASCII = /^[ -~]*$/u;

/** A name as a case-insensitive or normalising filesystem may take it. */
function folded(name: string): string {
  return (ASCII.test(name) ? name : name.normalize('NFC')).toLowerCase();
}

const ABSENT: PathFacts = { real: null, dangling: undefined };

function lookUp(path: string): PathFacts {
  // Most paths a history names do not exist (yet): one lstat that does not throw says so, where a
  // failing realpath would throw and a second lstat would ask again whether it is a dangling link.
  let stat;
  try {
    stat = lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return ABSENT;
  }
  if (stat === undefined) return ABSENT;
  try {
    return { real: realpathSync(path), dangling: undefined };
  } catch {
    if (!stat.isSymbolicLink()) return ABSENT;
    try {
      return { real: null, dangling: resolve(dirname(path), readlinkSync(path)) };
    } catch {
      return ABSENT;
    }
  }
}

/** realpathSync, or null where it throws. */
function realpathOrNull(path: string): string | null {
  return factsOf(path).real;
}

export function realOrSelf(path: string): string {
  return realpathOrNull(path) ?? path;
}

/** How many dangling symlinks one resolution follows, as the kernel bounds a chain of links (ELOOP). */
const MAX_LINKS = 40;

/**
 * The real path of `path` (absolute); for a path that does not exist yet, its nearest existing parent's.
 * A symlink whose target does not exist yet leads to that target: a write through it creates the target.
 */
export function realOfNearestExisting(path: string, links = 0): string {
  let current = path;
  const rest: string[] = [];
  for (;;) {
    const real = realpathOrNull(current);
    if (real !== null) return resolve(real, ...rest.reverse());
    const target = danglingTarget(current);
    if (target !== undefined && links < MAX_LINKS)
      return realOfNearestExisting(resolve(target, ...rest.reverse()), links + 1);
    const parent = dirname(current);
    if (parent === current) return path;
    rest.push(current.slice(parent.length + (parent.endsWith('/') ? 0 : 1)));
    current = parent;
  }
}

/** Where `path` points when it is a symlink (that realpath could not follow), else undefined. */
function danglingTarget(path: string): string | undefined {
  return factsOf(path).dangling;
}

/**
 * Is `target` (absolute, or relative to `cwd`) inside `cwd`? Lexically first (no `..` escapes), then with
 * symlinks resolved on the part of the path that exists, so a link in the cwd cannot point outside it.
 */
export function isInside(cwd: string, target: string): boolean {
  const root = resolve(cwd);
  const path = resolve(root, target);
  if (!within(root, path)) return false;
  return within(realOrSelf(root), realOfNearestExisting(path));
}

/** The path as written (resolved against `cwd`) and where it really leads; the same string when no link. */
export function lexicalAndReal(cwd: string, target: string): { lexical: string; real: string } {
  const lexical = resolve(cwd, target);
  return { lexical, real: realOfNearestExisting(lexical) };
}
