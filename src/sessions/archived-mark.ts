// Whether a session is archived, as listSessions and getSessionInfo report it: the mark in
// <project>/<sessionId>/archived.json ({archived, at}), unless a person prompted in the session after the
// mark was set — a later prompt unarchives it. Absent when the session was never archived (or the mark is
// unreadable), as in the official SDK.
import { open } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import { sessionIdOf } from './session-info.js';
import type { TranscriptEntry } from './transcript.js';

/** A mark larger than this is not one the SDKs wrote. */
const MAX_MARK_BYTES = 4096;
/** `at` must carry a time zone (`Z` or an offset): a local time would compare wrongly. */
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
/** Flags the CLI sets on user entries that nobody typed; any of them true means no prompt. */
const NOT_TYPED = [
  'isCompactSummary',
  'isSidechain',
  'isVirtual',
  'isVisibleInTranscriptOnly',
  'isMeta',
  'textNotTyped',
  'handedOff',
  'queueSkipAttachments',
] as const;
const COMMAND_NAME = /<command-name>(.*?)<\/command-name>/;
const TAGGED_OR_INTERRUPTED = /^(?:\s*<[a-z][\w-]*[\s>]|\[Request interrupted by user[^\]]*\])/;

interface Mark {
  archived: boolean;
  atMs: number;
}

export async function archivedState(
  transcriptPath: string,
  entries: readonly TranscriptEntry[],
): Promise<boolean | undefined> {
  const mark = await readMark(transcriptPath);
  if (mark?.archived !== true) return mark?.archived;
  return !entries.some((entry) => (promptTime(entry) ?? -Infinity) > mark.atMs);
}

async function readMark(transcriptPath: string): Promise<Mark | undefined> {
  const file = join(dirname(transcriptPath), sessionIdOf(transcriptPath), 'archived.json');
  let text: string;
  try {
    const handle = await open(file, 'r');
    try {
      const buffer = Buffer.alloc(MAX_MARK_BYTES + 1);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      if (bytesRead > MAX_MARK_BYTES) return undefined;
      text = buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
  try {
    const value = JSON.parse(text) as { archived?: unknown; at?: unknown };
    if (typeof value.archived !== 'boolean' || typeof value.at !== 'string') return undefined;
    if (!ISO_WITH_OFFSET.test(value.at)) return undefined;
    return { archived: value.archived, atMs: Date.parse(value.at) };
  } catch {
    return undefined;
  }
}

/**
 * When a person prompted, for an entry that is a typed prompt (a user message, or a command queued while
 * a turn ran); undefined for everything else — tool results, injected context, CLI-started turns.
 */
function promptTime(entry: TranscriptEntry): number | undefined {
  if (typeof entry.timestamp !== 'string' || entry.isSidechain === true) return undefined;
  let content: unknown;
  let origin: unknown;
  if (entry.type === 'user') {
    if (NOT_TYPED.some((flag) => entry[flag] !== undefined && entry[flag] !== false)) return undefined;
    if (entry.persist !== undefined || entry.wakeupSource !== undefined) return undefined;
    if (entry.scheduledTaskId !== undefined) return undefined;
    if (entry.toolUseResult !== undefined && entry.toolUseResult !== null) return undefined;
    if (!['human', 'sdk', 'unknown', undefined].includes(entry.turnOrigin as string | undefined))
      return undefined;
    if (typeof entry.message !== 'object' || entry.message === null) return undefined;
    content = (entry.message as { content?: unknown }).content;
    origin = entry.origin;
  } else if (entry.type === 'attachment') {
    const attachment = entry.attachment as Record<string, unknown> | undefined;
    if (attachment?.type !== 'queued_command') return undefined;
    if (attachment.isMeta !== undefined && attachment.isMeta !== false) return undefined;
    content = attachment.prompt;
    origin = attachment.origin;
  } else return undefined;
  if (origin !== undefined) {
    if (typeof origin !== 'object' || origin === null) return undefined;
    if ((origin as { kind?: unknown }).kind !== 'human') return undefined;
  }
  const blocks = blocksOf(content);
  if (blocks.some((block) => block.type === 'tool_result')) return undefined;
  const texts = blocks.map((block) => (typeof block.text === 'string' ? block.text.trimStart() : ''));
  const typed =
    (origin !== undefined
      ? texts.some((text) => text !== '') && !texts.some((text) => text.startsWith('<command-name>'))
      : isPrompt(texts) || texts.some((text) => text.startsWith('<command-message>'))) ||
    blocks.some((block) => block.type === 'image' || block.type === 'document');
  const time = Date.parse(entry.timestamp);
  return typed && !Number.isNaN(time) ? time : undefined;
}

function blocksOf(content: unknown): { type: string; text?: unknown }[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  const blocks = content as unknown[];
  const valid = blocks.every(
    (block) =>
      typeof block === 'object' && block !== null && typeof (block as { type?: unknown }).type === 'string',
  );
  return valid ? (blocks as { type: string; text?: unknown }[]) : [];
}

/** Some text is what a person typed: not a command's name, not CLI-tagged output, not an interrupt note. */
function isPrompt(texts: readonly string[]): boolean {
  return texts.some((raw) => {
    const text = raw.replaceAll('\n', ' ').trim();
    if (text === '' || COMMAND_NAME.test(text)) return false;
    return /<bash-input>[\s\S]*?<\/bash-input>/.test(text) || !TAGGED_OR_INTERRUPTED.test(text);
  });
}
