// Resuming from a session store: before the CLI starts, the transcript is loaded from the store and
// written to a private config directory the CLI is pointed at (CLAUDE_CONFIG_DIR), beside copies of the
// account files it needs from the real one; the CLI then resumes from that file as from its own. The
// directory is removed once the CLI has exited.
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { isSessionId, projectDirName } from '../sessions/paths.js';
import type { Options } from './options.js';
import type { SessionStore, SessionStoreEntry } from './session-store.js';

const DEFAULT_LOAD_TIMEOUT_MS = 60_000;
/** What the CLI reads from its config directory besides transcripts: the account and user settings. */
const ACCOUNT_FILES = ['.credentials.json', '.claude.json', '.config.json', 'settings.json'];

export interface StoreResume {
  sessionId: string;
  configDir: string;
}

function toJsonl(entries: SessionStoreEntry[]): string {
  return entries.map((entry) => JSON.stringify(entry)).join('\n') + '\n';
}

async function bounded<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The session a store-backed `resume` or `continue` starts from, materialized; undefined for none. */
export async function resumeFromStore(
  options: Options,
  env: Record<string, string | undefined>,
): Promise<StoreResume | undefined> {
  const store = options.sessionStore;
  if (store === undefined || (options.resume === undefined && !options.continue)) return undefined;
  const timeoutMs = options.loadTimeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS;
  const projectKey = projectDirName(options.cwd ?? '.');
  let sessionId = options.resume;
  if (sessionId === undefined && store.listSessions !== undefined) {
    const sessions = await bounded(
      store.listSessions(projectKey),
      timeoutMs,
      `SessionStore.listSessions() timed out after ${timeoutMs}ms`,
    );
    sessionId = [...sessions].sort((a, b) => b.mtime - a.mtime)[0]?.sessionId;
  }
  if (sessionId === undefined || !isSessionId(sessionId)) return undefined;
  const entries = await bounded(
    store.load({ projectKey, sessionId }),
    timeoutMs,
    `SessionStore.load() timed out after ${timeoutMs}ms for session ${sessionId}`,
  );
  if (entries === null || entries.length === 0) return undefined;
  const configDir = await mkdtemp(join(tmpdir(), 'claude-resume-'));
  try {
    const projectDir = join(configDir, 'projects', projectKey);
    await mkdir(projectDir, { recursive: true, mode: 0o700 });
    await writeFile(join(projectDir, `${sessionId}.jsonl`), toJsonl(entries), { mode: 0o600 });
    const realConfig = env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), '.claude');
    for (const name of ACCOUNT_FILES)
      await copyFile(join(realConfig, name), join(configDir, name)).catch(() => undefined);
    await copySubagents(store, projectKey, sessionId, join(projectDir, sessionId), timeoutMs);
    return { sessionId, configDir };
  } catch (error) {
    await removeResumeDir(configDir);
    throw error;
  }
}

/** Subagent transcripts, when the store can list them; a subpath that would leave the directory is skipped. */
async function copySubagents(
  store: SessionStore,
  projectKey: string,
  sessionId: string,
  sessionDir: string,
  timeoutMs: number,
): Promise<void> {
  if (store.listSubkeys === undefined) return;
  const subkeys = await bounded(
    store.listSubkeys({ projectKey, sessionId }),
    timeoutMs,
    `SessionStore.listSubkeys() timed out after ${timeoutMs}ms for session ${sessionId}`,
  );
  for (const subpath of subkeys) {
    const file = resolve(sessionDir, `${subpath}.jsonl`);
    if (!subpath || subpath.split(/[\\/]/).includes('..') || !file.startsWith(sessionDir + sep)) continue;
    const entries = await bounded(
      store.load({ projectKey, sessionId, subpath }),
      timeoutMs,
      `SessionStore.load() timed out after ${timeoutMs}ms for session ${sessionId} subpath ${subpath}`,
    );
    const lines = (entries ?? []).filter((entry) => entry.type !== 'agent_metadata');
    const meta = (entries ?? []).filter((entry) => entry.type === 'agent_metadata').at(-1);
    if (lines.length > 0) {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, toJsonl(lines), { mode: 0o600 });
    }
    if (meta !== undefined) {
      const { type: _type, ...rest } = meta;
      await mkdir(dirname(file), { recursive: true });
      await writeFile(resolve(sessionDir, `${subpath}.meta.json`), JSON.stringify(rest), { mode: 0o600 });
    }
  }
}

export async function removeResumeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true, maxRetries: 4 }).catch(() => undefined);
}
