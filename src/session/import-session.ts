// importSessionToStore(): copies a local transcript (and its subagents' transcripts) into a session store,
// in batches, under the key a store-backed query in `dir` (default: this process's cwd) would use.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { NotFoundError } from '../protocol/errors.js';
import { isSessionId, projectDirName } from '../sessions/paths.js';
import { locateTranscript } from '../sessions/locate.js';
import type {
  ImportSessionToStoreOptions,
  SessionKey,
  SessionStore,
  SessionStoreEntry,
} from './session-store.js';

const DEFAULT_BATCH_SIZE = 500;

export async function importSessionToStore(
  sessionId: string,
  store: SessionStore,
  options: ImportSessionToStoreOptions = {},
): Promise<void> {
  if (!isSessionId(sessionId)) throw new TypeError(`Invalid sessionId: ${String(sessionId)}`);
  const transcript = await locateTranscript(sessionId, options.dir, () => undefined);
  if (transcript === undefined)
    throw new NotFoundError('session', sessionId, `Session ${sessionId} not found`);
  const projectKey = projectDirName(options.dir ?? process.cwd());
  const batchSize =
    options.batchSize !== undefined && options.batchSize > 0 ? options.batchSize : DEFAULT_BATCH_SIZE;
  await appendFile(transcript.path, { projectKey, sessionId }, store, batchSize);
  if (options.includeSubagents === false) return;
  const sessionDir = transcript.path.replace(/\.jsonl$/, '');
  for (const file of await jsonlFilesUnder(join(sessionDir, 'subagents'))) {
    const subpath = relative(sessionDir, file)
      .split(sep)
      .join('/')
      .replace(/\.jsonl$/, '');
    const key = { projectKey, sessionId, subpath };
    await appendFile(file, key, store, batchSize);
    const meta = await readFile(file.replace(/\.jsonl$/, '.meta.json'), 'utf8').then(
      (text) => JSON.parse(text) as Record<string, unknown>,
      () => undefined,
    );
    if (meta !== undefined) await store.append(key, [{ ...meta, type: 'agent_metadata' }]);
  }
}

async function appendFile(
  path: string,
  key: SessionKey,
  store: SessionStore,
  batchSize: number,
): Promise<void> {
  const lines = (await readFile(path, 'utf8')).split('\n');
  let batch: SessionStoreEntry[] = [];
  for (const line of lines) {
    if (line.trim() === '') continue;
    try {
      batch.push(JSON.parse(line) as SessionStoreEntry);
    } catch {
      continue; // A torn or foreign line is skipped, as the session readers skip it.
    }
    if (batch.length >= batchSize) {
      await store.append(key, batch);
      batch = [];
    }
  }
  if (batch.length > 0) await store.append(key, batch);
}

async function jsonlFilesUnder(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir, { recursive: true });
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => join(dir, name))
    .sort();
}
