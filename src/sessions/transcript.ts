// Reads a transcript the CLI wrote: one JSON object per line. The CLI appends while it runs and may be
// killed mid-write, so a line that is not a JSON object is skipped and reported, never fatal.
import type { Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { ProtocolError, type WardenError } from '../protocol/errors.js';
import { excerptOf } from '../protocol/validate.js';

/** One line of a transcript. Only the fields the session functions read are named; the rest pass through. */
export type TranscriptEntry = {
  type?: unknown;
  uuid?: unknown;
  parentUuid?: unknown;
  sessionId?: unknown;
  timestamp?: unknown;
  isSidechain?: unknown;
  isMeta?: unknown;
  message?: unknown;
  [key: string]: unknown;
};

export interface Transcript {
  path: string;
  entries: TranscriptEntry[];
  /** Integer milliseconds, as the official SDK reports it. */
  mtimeMs: number;
  size: number;
  /** The raw text ends with a newline (appending needs none first). */
  endsWithNewline: boolean;
}

export type Warn = (warning: WardenError) => void;

export const defaultWarn: Warn = (warning) => process.emitWarning(warning);

/** Reads and parses a transcript; undefined when it cannot be read (it vanished, or is not a file). */
export async function readTranscript(path: string, warn: Warn): Promise<Transcript | undefined> {
  let text: string;
  let info: Stats;
  try {
    info = await stat(path);
    text = await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
  return {
    path,
    entries: parseTranscript(text, path, warn),
    mtimeMs: Math.round(info.mtimeMs),
    size: info.size,
    endsWithNewline: text === '' || text.endsWith('\n'),
  };
}

export function parseTranscript(text: string, path: string, warn: Warn): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  const lines = text.split('\n');
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      value = undefined;
    }
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      entries.push(value as TranscriptEntry);
      continue;
    }
    const truncated = index === lines.length - 1 ? ' (truncated: no newline at the end)' : '';
    warn(
      new ProtocolError(
        `Skipped a malformed line ${index + 1} of transcript ${path}${truncated}`,
        excerptOf(line),
      ),
    );
  }
  return entries;
}

export function stringField(entry: TranscriptEntry, key: string): string | undefined {
  const value = entry[key];
  return typeof value === 'string' ? value : undefined;
}
