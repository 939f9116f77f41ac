// renameSession, tagSession, deleteSession. A title or a tag is an entry appended to the transcript, as
// the CLI's /rename does: the CLI and both SDKs read the last one. Appending is safe while the CLI runs the
// session (it appends too, a line at a time).
import { appendFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { deletedAt, markDeleted, removeTree } from './deleted-marks.js';
import { locateTranscript, requireTranscript } from './locate.js';
import { allProjectDirs, isSessionId, projectDirsFor } from './paths.js';
import { sessionIdOf } from './session-info.js';
import { defaultWarn, type Transcript } from './transcript.js';
import { checkOptions } from './validate.js';
import type { SessionMutationOptions } from './types.js';

/** Invisible characters that would make two equal-looking tags differ. */
const INVISIBLE = /[\u200b-\u200f\u2060\ufeff]/g;

export async function renameSession(
  sessionId: string,
  title: string,
  options: SessionMutationOptions = {},
): Promise<void> {
  checkOptions(options, ['dir']);
  const clean = typeof title === 'string' ? title.trim() : '';
  if (clean === '') throw new TypeError('title must be non-empty');
  const transcript = await requireTranscript(sessionId, options.dir, options.onWarning ?? defaultWarn);
  await appendEntry(transcript, { type: 'custom-title', customTitle: clean, sessionId });
}

/** Tags a session; `null` clears the tag. */
export async function tagSession(
  sessionId: string,
  tag: string | null,
  options: SessionMutationOptions = {},
): Promise<void> {
  checkOptions(options, ['dir']);
  let clean = '';
  if (tag !== null) {
    clean = typeof tag === 'string' ? tag.replace(INVISIBLE, '').trim() : '';
    if (clean === '') throw new TypeError('tag must be non-empty (use null to clear)');
  }
  const transcript = await requireTranscript(sessionId, options.dir, options.onWarning ?? defaultWarn);
  await appendEntry(transcript, { type: 'tag', tag: clean, sessionId });
}

/**
 * Deletes the transcript and the session's folder of subagent transcripts. If the folder cannot be
 * removed, this throws after the transcript is gone; a repeat call then tries the folder again and
 * resolves (the deletion was recorded, deleted-marks.ts). Without such a record it reports the session
 * not found, as the official SDK 0.3.333 does.
 */
export async function deleteSession(sessionId: string, options: SessionMutationOptions = {}): Promise<void> {
  checkOptions(options, ['dir']);
  const warn = options.onWarning ?? defaultWarn;
  if (!isSessionId(sessionId)) throw new TypeError(`Invalid sessionId: ${String(sessionId)}`);
  const transcript = await locateTranscript(sessionId, options.dir, warn);
  if (transcript !== undefined) {
    await markDeleted(transcript.path);
    await rm(transcript.path);
    await removeTree(join(dirname(transcript.path), sessionIdOf(transcript.path)));
    return;
  }
  let retried = false;
  const dirs = options.dir === undefined ? await allProjectDirs() : await projectDirsFor(options.dir);
  for (const { path: project } of dirs) {
    if ((await deletedAt(join(project, `${sessionId}.jsonl`))) === undefined) continue;
    await removeTree(join(project, sessionId));
    retried = true;
  }
  // Not found: the same error as the other mutations.
  if (!retried) await requireTranscript(sessionId, options.dir, warn);
}

export async function appendEntry(transcript: Transcript, entry: Record<string, unknown>): Promise<void> {
  // A line cut short by a killed CLI must not swallow ours.
  const separator = transcript.endsWithNewline ? '' : '\n';
  await appendFile(transcript.path, `${separator}${JSON.stringify(entry)}\n`);
}
