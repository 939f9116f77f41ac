// A record that a transcript was deleted here, kept where the official Agent SDK (0.3.333) keeps it:
// `<config>/state/deleted-transcripts/<sha256 of the lowercased "project/name.jsonl">` (and one of the
// name alone), written before the transcript goes. A deleteSession that removed the transcript but not the
// session's folder of subagent transcripts can then be repeated: the mark says the session was here, and
// the repeat removes the folder instead of reporting the session not found. Both SDKs read each other's.
import { createHash } from 'node:crypto';
import { mkdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

import { claudeConfigDir } from './paths.js';

function marksDir(): string {
  return join(claudeConfigDir(), 'state', 'deleted-transcripts');
}

function markPath(key: string): string {
  return join(marksDir(), createHash('sha256').update(key.toLowerCase()).digest('hex'));
}

function keysOf(transcriptPath: string): string[] {
  const name = basename(transcriptPath);
  return [`${basename(dirname(transcriptPath))}/${name}`, name];
}

/** Records that the transcript at this path is being deleted. Best effort: a failure to record is not one to delete. */
export async function markDeleted(transcriptPath: string): Promise<void> {
  await mkdir(marksDir(), { recursive: true, mode: 0o700 }).catch(() => undefined);
  const now = new Date();
  for (const key of keysOf(transcriptPath)) {
    const path = markPath(key);
    await writeFile(path, '', { flag: 'wx', mode: 0o600 }).catch(() => undefined);
    await utimes(path, now, now).catch(() => undefined);
  }
}

/** When the transcript at this path was recorded as deleted (ms since the epoch), if it was. */
export async function deletedAt(transcriptPath: string): Promise<number | undefined> {
  try {
    return (await stat(markPath(keysOf(transcriptPath)[0]!))).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Removes a folder and everything in it, retrying a few times while something still writes into it. */
export async function removeTree(path: string): Promise<void> {
  await rm(path, { recursive: true, force: true, maxRetries: 2, retryDelay: 100 });
}
