// Reads the wire transcripts of real Claude Code runs (test/fixtures/transcripts/*.jsonl) for replay tests:
// what the CLI wrote, what the recorded host (the official SDK) wrote, and what query() should yield when
// the fake CLI plays the CLI's side back.
//
// Transcript lines: {"ts","t","dir":"in"|"out"|"meta","msg"?,"event"?}. `in` went to the CLI's stdin,
// `out` came from its stdout, `meta` records spawn / stdin_end / exit.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import type { Frame } from './sdk-fake.js';

export interface TranscriptEntry {
  dir: 'in' | 'out' | 'meta';
  t: number;
  msg?: Frame;
  event?: string;
}

export function transcriptPath(name: string): string {
  return fileURLToPath(new URL(`../../fixtures/transcripts/${name}.jsonl`, import.meta.url));
}

export function loadTranscript(name: string): TranscriptEntry[] {
  return readFileSync(transcriptPath(name), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as TranscriptEntry);
}

function messages(entries: readonly TranscriptEntry[], dir: 'in' | 'out'): Frame[] {
  return entries.flatMap((entry) => (entry.dir === dir && entry.msg !== undefined ? [entry.msg] : []));
}

export const cliLines = (entries: readonly TranscriptEntry[]): Frame[] => messages(entries, 'out');
export const hostLines = (entries: readonly TranscriptEntry[]): Frame[] => messages(entries, 'in');

const isStateFrame = (frame: Frame): boolean =>
  frame.type === 'system' && frame.subtype === 'session_state_changed';

/** The lines the replaying fake writes: every `out` line, without state frames when they are stripped. */
export function replayedLines(entries: readonly TranscriptEntry[], { strip = false } = {}): Frame[] {
  return cliLines(entries).filter((frame) => !(strip && isStateFrame(frame)));
}

/**
 * What query() yields for these CLI lines: all of them except control frames (the control channel's),
 * keep_alive, and state frames the CLI marks sdk_host_only (consumed, as the official SDK does).
 */
export function expectedMessages(lines: readonly Frame[]): Frame[] {
  return lines.filter(
    (frame) =>
      !String(frame.type).startsWith('control_') &&
      frame.type !== 'keep_alive' &&
      !(isStateFrame(frame) && frame.sdk_host_only === true),
  );
}

/** The CLI's can_use_tool requests, in order (the whole control_request frames). */
export function permissionRequests(entries: readonly TranscriptEntry[]): Frame[] {
  return cliLines(entries).filter(
    (frame) => frame.type === 'control_request' && frame.request?.subtype === 'can_use_tool',
  );
}

/** Ids of CLI requests the CLI withdrew (control_cancel_request). */
export function withdrawnIds(entries: readonly TranscriptEntry[]): Set<string> {
  return new Set(
    cliLines(entries)
      .filter((frame) => frame.type === 'control_cancel_request')
      .map((frame) => String(frame.request_id)),
  );
}

/** The recorded host's reply to each CLI request, by request id. */
export function hostReplies(entries: readonly TranscriptEntry[]): Map<string, Frame> {
  const replies = new Map<string, Frame>();
  for (const frame of hostLines(entries)) {
    if (frame.type === 'control_response') replies.set(String(frame.response?.request_id), frame);
  }
  return replies;
}

/** The recorded host's control requests of one subtype, without their (random) ids. */
export function hostRequestBodies(entries: readonly TranscriptEntry[], subtype: string): Frame[] {
  return hostLines(entries)
    .filter((frame) => frame.type === 'control_request' && frame.request?.subtype === subtype)
    .map((frame) => frame.request as Frame);
}
