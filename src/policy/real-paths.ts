// Where a path really leads: symlinks resolved on the part that exists, so a link cannot carry a write
// somewhere a check on the path as written would not see. One copy, for the modes and the rules alike.
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';

/** `path` inside `root` (or equal to it), both absolute. */
export function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * While set, what the filesystem said of each path, for a run over many requests at one moment (a
 * simulation over the log): each path is looked up once. Null: it could not be resolved.
 */
let remembered: Map<string, string | null> | undefined;
let rememberedLinks: Map<string, string | null> | undefined;

/** Runs `fn` with each path's real path looked up once (nested calls share the outer memory). */
export function withRememberedPaths<T>(fn: () => T): T {
  const outer = remembered;
  const outerLinks = rememberedLinks;
  remembered = outer ?? new Map();
  rememberedLinks = outerLinks ?? new Map();
  try {
    return fn();
  } finally {
    remembered = outer;
    rememberedLinks = outerLinks;
  }
}

/** realpathSync, or null where it throws; remembered while withRememberedPaths runs. */
function realpathOrNull(path: string): string | null {
  const known = remembered?.get(path);
  if (known !== undefined) return known;
  let real: string | null;
  try {
    real = realpathSync(path);
  } catch {
    real = null;
  }
  remembered?.set(path, real);
  return real;
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
  const known = rememberedLinks?.get(path);
  if (known !== undefined) return known ?? undefined;
  const target = readDanglingTarget(path);
  rememberedLinks?.set(path, target ?? null);
  return target;
}

function readDanglingTarget(path: string): string | undefined {
  try {
    if (!lstatSync(path).isSymbolicLink()) return undefined;
    return resolve(dirname(path), readlinkSync(path));
  } catch {
    return undefined;
  }
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
