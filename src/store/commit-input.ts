// The checks every Store backend makes on commit()'s arguments before touching anything.
import { EVENT_TYPES, type EventDraft } from './event-types.js';
import type { CommitOptions } from './store.js';

const KNOWN_TYPES = new Set<string>(EVENT_TYPES);

/** Throws TypeError on a bad argument; returns the spool offset to record, if any. */
export function checkCommitInput(
  threadId: string,
  drafts: readonly EventDraft[],
  options: CommitOptions,
): number | undefined {
  if (typeof threadId !== 'string' || threadId === '') throw new TypeError('threadId must be a string');
  for (const draft of drafts) {
    if (!KNOWN_TYPES.has(draft?.type)) throw new TypeError(`Unknown event type ${String(draft?.type)}`);
  }
  const { spoolOffset } = options;
  if (spoolOffset !== undefined && !(Number.isSafeInteger(spoolOffset) && spoolOffset >= 0))
    throw new TypeError('options.spoolOffset must be a non-negative integer');
  return spoolOffset;
}
