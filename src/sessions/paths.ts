// Where the CLI keeps transcripts: `<config>/projects/<project>/<session>.jsonl`, with <config> from
// CLAUDE_CONFIG_DIR or `~/.claude`, and <project> the session's cwd with every character that is not a
// letter or digit turned into '-'. Names longer than 200 characters are cut there and get a hash suffix
// the CLI computes; we match those by prefix and let the caller check the session's own cwd.
import { existsSync, realpathSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

const MAX_PROJECT_NAME = 200;
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function claudeConfigDir(): string {
  const fromEnv = process.env.CLAUDE_CONFIG_DIR;
  return fromEnv !== undefined && fromEnv !== '' ? fromEnv : join(homedir(), '.claude');
}

export function projectsDir(): string {
  return join(claudeConfigDir(), 'projects');
}

/** Transcript names are UUIDs; anything else could name a path outside the projects directory. */
export function isSessionId(value: unknown): value is string {
  return typeof value === 'string' && SESSION_ID.test(value);
}

/** The absolute, symlink-free form the CLI sees as its cwd (when the directory exists). */
export function canonicalDir(dir: string): string {
  const absolute = resolve(dir);
  try {
    return existsSync(absolute) ? realpathSync(absolute) : absolute;
  } catch {
    return absolute;
  }
}

export function projectDirName(dir: string): string {
  return canonicalDir(dir).replace(/[^a-zA-Z0-9]/g, '-');
}

export interface ProjectDir {
  path: string;
  /** True when matched by the 200-character prefix only: sessions must be checked against their cwd. */
  byPrefix: boolean;
}

/** Every project directory under the projects dir. */
export async function allProjectDirs(): Promise<ProjectDir[]> {
  const root = projectsDir();
  const names = await readdirOrEmpty(root);
  const dirs: ProjectDir[] = [];
  for (const name of names.sort()) {
    const path = join(root, name);
    if (await isDirectory(path)) dirs.push({ path, byPrefix: false });
  }
  return dirs;
}

/** The project directories that may hold sessions whose cwd is `dir`. */
export async function projectDirsFor(dir: string): Promise<ProjectDir[]> {
  const root = projectsDir();
  const name = projectDirName(dir);
  if (name.length <= MAX_PROJECT_NAME) {
    const path = join(root, name);
    return (await isDirectory(path)) ? [{ path, byPrefix: false }] : [];
  }
  const prefix = `${name.slice(0, MAX_PROJECT_NAME)}-`;
  const names = await readdirOrEmpty(root);
  return names
    .filter((entry) => entry.startsWith(prefix))
    .sort()
    .map((entry) => ({ path: join(root, entry), byPrefix: true }));
}

/** The session's transcripts in the given project directories (normally one). */
export async function findTranscripts(sessionId: string, dirs: ProjectDir[]): Promise<string[]> {
  const found: string[] = [];
  for (const dir of dirs) {
    const path = join(dir.path, `${sessionId}.jsonl`);
    if (await isFile(path)) found.push(path);
  }
  return found;
}

export async function readdirOrEmpty(path: string): Promise<string[]> {
  try {
    return await readdir(path);
  } catch {
    return [];
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
