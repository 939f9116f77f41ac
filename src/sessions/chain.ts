// The conversation in a transcript is a chain, not the file order: every entry names its parent
// (`parentUuid`), a rewind or an edited prompt starts a branch, and subagent (sidechain) entries live in
// the same file. The current conversation is the chain that ends at the newest leaf: the last main-chain
// entry in the file that nothing names as its parent. Walking back from it gives the messages in order.
import { stringField, type TranscriptEntry } from './transcript.js';

/** Entry types that can end the conversation. Progress entries sit inside chains but never end one. */
const LEAF_TYPES = new Set(['user', 'assistant', 'system', 'attachment']);
const MESSAGE_TYPES = new Set(['user', 'assistant']);

/** The entries of the current conversation, oldest first, ending at its last user or assistant message. */
export function currentChain(entries: readonly TranscriptEntry[]): TranscriptEntry[] {
  const byUuid = indexByUuid(entries);
  const parents = new Set<string>();
  for (const entry of entries) {
    // A subagent's entries may hang off the main chain; they do not make their parent stop being a leaf.
    const parent = entry.isSidechain === true ? undefined : stringField(entry, 'parentUuid');
    if (parent !== undefined) parents.add(parent);
  }
  const leaf = entries.findLast((entry) => {
    const uuid = stringField(entry, 'uuid');
    return (
      uuid !== undefined &&
      LEAF_TYPES.has(String(entry.type)) &&
      entry.isSidechain !== true &&
      !parents.has(uuid)
    );
  });
  return leaf === undefined ? [] : trimToLastMessage(walkBack(leaf, byUuid));
}

/** Whether a chain entry is a conversation message (as opposed to an attachment, a system note, …). */
export function isMessageEntry(entry: TranscriptEntry): boolean {
  return MESSAGE_TYPES.has(String(entry.type));
}

/** The chain from the root to `from`, oldest first. A cycle (a corrupt file) ends the walk. */
export function walkBack(
  from: TranscriptEntry,
  byUuid: ReadonlyMap<string, TranscriptEntry>,
): TranscriptEntry[] {
  const chain: TranscriptEntry[] = [];
  const seen = new Set<TranscriptEntry>();
  let current: TranscriptEntry | undefined = from;
  while (current !== undefined && !seen.has(current)) {
    seen.add(current);
    chain.push(current);
    const parent = stringField(current, 'parentUuid');
    current = parent === undefined ? undefined : byUuid.get(parent);
  }
  return chain.reverse();
}

/** Notes the CLI wrote after the last message (a system entry, an attachment) are not part of it. */
function trimToLastMessage(chain: TranscriptEntry[]): TranscriptEntry[] {
  let end = chain.length;
  while (end > 0 && !isMessageEntry(chain[end - 1]!)) end -= 1;
  return chain.slice(0, end);
}

/** Every entry with a uuid, by uuid (the last one wins if the CLI wrote one twice). */
export function indexByUuid(entries: readonly TranscriptEntry[]): Map<string, TranscriptEntry> {
  const byUuid = new Map<string, TranscriptEntry>();
  for (const entry of entries) {
    const uuid = stringField(entry, 'uuid');
    if (uuid !== undefined) byUuid.set(uuid, entry);
  }
  return byUuid;
}
