// SDKSessionInfo from a transcript. The title is what a person would recognise the session by: a title
// they set (or the CLI generated), else their last prompt, else the CLI's summary, else the first prompt.
// A transcript with none of these (nothing typed yet) or that belongs to a subagent is not a session.
import { basename } from 'node:path';
import { firstPrompt } from './first-prompt.js';
import { stringField, type Transcript, type TranscriptEntry } from './transcript.js';
import type { SDKSessionInfo } from './types.js';

/** Entrypoints of sessions started through an SDK rather than by a person at a terminal. */
const PROGRAMMATIC_ENTRYPOINTS = new Set(['sdk-ts', 'sdk-py', 'sdk-cli']);

export function sessionIdOf(path: string): string {
  return basename(path, '.jsonl');
}

export function sessionInfo(transcript: Transcript): SDKSessionInfo | undefined {
  const { entries } = transcript;
  const firstWithSidechain = entries.find((entry) => typeof entry.isSidechain === 'boolean');
  if (firstWithSidechain?.isSidechain === true) return undefined;

  const customTitle =
    lastString(entries, 'custom-title', 'customTitle') ?? lastString(entries, 'ai-title', 'aiTitle');
  const prompt = firstPrompt(entries);
  const summary =
    customTitle ??
    lastString(entries, 'last-prompt', 'lastPrompt') ??
    lastString(entries, 'summary', 'summary') ??
    prompt;
  if (summary === undefined) return undefined;

  // customTitle, tag (and archived, list-sessions.ts) are keys even when unset, as the official SDK
  // 0.3.333 returns them (value undefined, the same JSON); the keys in its order.
  const info = {
    sessionId: sessionIdOf(transcript.path),
    summary,
    lastModified: transcript.mtimeMs,
    fileSize: transcript.size,
    customTitle,
  } as SDKSessionInfo;
  if (prompt !== undefined) info.firstPrompt = prompt;
  const gitBranch = entries.findLast((entry) => stringField(entry, 'gitBranch') !== undefined)?.gitBranch;
  if (typeof gitBranch === 'string') info.gitBranch = gitBranch;
  const cwd = cwdOf(entries);
  if (cwd !== undefined) info.cwd = cwd;
  Object.assign(info, { tag: lastString(entries, 'tag', 'tag') });
  const createdAt = createdAtOf(entries);
  if (createdAt !== undefined) info.createdAt = createdAt;
  return info;
}

export function isProgrammatic(transcript: Transcript): boolean {
  const entrypoint = transcript.entries.find(
    (entry) => stringField(entry, 'entrypoint') !== undefined,
  )?.entrypoint;
  return typeof entrypoint === 'string' && PROGRAMMATIC_ENTRYPOINTS.has(entrypoint);
}

export function cwdOf(entries: readonly TranscriptEntry[]): string | undefined {
  const cwd = entries.find((entry) => stringField(entry, 'cwd') !== undefined)?.cwd;
  return typeof cwd === 'string' ? cwd : undefined;
}

/** The value of `key` on the last entry of `type`; an empty string clears it (as tagSession(id, null) does). */
function lastString(entries: readonly TranscriptEntry[], type: string, key: string): string | undefined {
  const entry = entries.findLast(
    (candidate) => candidate.type === type && typeof candidate[key] === 'string',
  );
  const value = entry === undefined ? undefined : stringField(entry, key);
  return value === '' ? undefined : value;
}

function createdAtOf(entries: readonly TranscriptEntry[]): number | undefined {
  const first = entries.find((entry) => stringField(entry, 'timestamp') !== undefined);
  const time = first === undefined ? NaN : Date.parse(String(first.timestamp));
  return Number.isFinite(time) ? time : undefined;
}
