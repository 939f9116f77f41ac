// forkSession: a new session whose transcript is a copy of another's, up to a message or whole, every
// entry with a new uuid and the parent links remapped, so the CLI resumes it as a session of its own. The
// copy is a slice in file order of the main conversation's entries (abandoned branches come along, as in
// the official SDK, and do no harm: the CLI follows the chain from the newest leaf). Subagent entries,
// progress lines and bookkeeping stay behind, and the fork starts without undo history.
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { NotFoundError } from '../protocol/errors.js';
import { requireTranscript } from './locate.js';
import { sessionInfo } from './session-info.js';
import { defaultWarn, stringField, type Transcript, type TranscriptEntry } from './transcript.js';
import { checkOptions } from './validate.js';
import type { ForkSessionOptions, ForkSessionResult } from './types.js';

/** Fields that hold the uuid of another entry of the same transcript. */
const LINK_FIELDS = ['parentUuid', 'logicalParentUuid', 'sourceToolAssistantUUID'] as const;

export async function forkSession(
  sessionId: string,
  options: ForkSessionOptions = {},
): Promise<ForkSessionResult> {
  checkOptions(options, ['dir', 'upToMessageId', 'title']);
  const source = await requireTranscript(sessionId, options.dir, options.onWarning ?? defaultWarn);
  const copied = entriesToCopy(source.entries, sessionId, options.upToMessageId);
  const forkId = randomUUID();
  const uuids = new Map(copied.map((entry) => [String(entry.uuid), randomUUID()]));
  const remapped = copied.map((entry) => remap(entry, uuids, forkId, sessionId));
  // The fork's last activity is now: pickers that sort by it show the fork first.
  const last = remapped.at(-1);
  if (last !== undefined) last.timestamp = new Date().toISOString();
  const lines = [...remapped, ...carriedOver(source.entries, forkId)].map((entry) => JSON.stringify(entry));
  const title = options.title?.trim() || `${defaultTitleBase(source, sessionId)} (fork)`;
  lines.push(
    JSON.stringify({
      type: 'custom-title',
      sessionId: forkId,
      customTitle: title,
      uuid: randomUUID(),
      timestamp: new Date().toISOString(),
    }),
  );
  // 'wx': a fresh UUID never names an existing file; if it somehow does, fail rather than overwrite.
  await writeFile(join(dirname(source.path), `${forkId}.jsonl`), `${lines.join('\n')}\n`, { flag: 'wx' });
  return { sessionId: forkId };
}

/** The source's own title, else its first prompt: what the fork starts from (its last prompt stays behind). */
function defaultTitleBase(source: Transcript, sessionId: string): string {
  const info = sessionInfo(source);
  return info?.customTitle ?? info?.firstPrompt ?? info?.summary ?? sessionId;
}

/** Entry types that make up a conversation (progress lines and bookkeeping are left out). */
const COPIED_TYPES = new Set(['user', 'assistant', 'attachment', 'system']);
/** Bookkeeping the CLI reads back on resume: the latest of each is carried over. */
const CARRIED_TYPES = ['atis-latch', 'tools-used'];

function entriesToCopy(
  entries: readonly TranscriptEntry[],
  sessionId: string,
  upToMessageId: string | undefined,
): TranscriptEntry[] {
  const copied = entries.filter(
    (entry) =>
      COPIED_TYPES.has(String(entry.type)) &&
      entry.isSidechain !== true &&
      stringField(entry, 'uuid') !== undefined,
  );
  if (upToMessageId === undefined) return copied;
  const end = copied.findIndex((entry) => entry.uuid === upToMessageId);
  if (end < 0)
    throw new NotFoundError(
      'message',
      upToMessageId,
      `Message ${upToMessageId} not found in session ${sessionId}`,
    );
  // Forking at a compaction boundary forks what came before the compaction.
  const target = copied[end]!;
  const atBoundary = target.type === 'system' && target.subtype === 'compact_boundary';
  return copied.slice(0, atBoundary ? end : end + 1);
}

function carriedOver(entries: readonly TranscriptEntry[], forkId: string): TranscriptEntry[] {
  return CARRIED_TYPES.flatMap((type) => {
    const last = entries.findLast((entry) => entry.type === type);
    return last === undefined ? [] : [{ ...last, sessionId: forkId }];
  });
}

function remap(
  entry: TranscriptEntry,
  uuids: ReadonlyMap<string, string>,
  forkId: string,
  sourceId: string,
): TranscriptEntry {
  const copy: TranscriptEntry = { ...entry, sessionId: forkId, isSidechain: false };
  copy.uuid = uuids.get(String(entry.uuid));
  for (const field of LINK_FIELDS) {
    const link = stringField(entry, field);
    // A link to an entry that was not copied (another branch) would dangle: cut it.
    if (link !== undefined) copy[field] = uuids.get(link) ?? null;
  }
  // Which session's requests produced this answer (the CLI attributes usage by it).
  if (entry.type === 'assistant') copy.requestSessionId = stringField(entry, 'requestSessionId') ?? sourceId;
  copy.forkedFrom = { sessionId: sourceId, messageUuid: entry.uuid };
  return copy;
}
