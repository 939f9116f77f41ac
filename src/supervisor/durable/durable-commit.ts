// A change that must be in the log before anyone is answered: a CLI permission request becoming an
// approval, a verdict of the policy. When the store cannot write for now (a full disk, an I/O error) the
// request is neither allowed nor denied because of it: it stays unanswered, the failure is reported once,
// and the change is tried again, with a growing pause, until the store takes it or the CLI withdraws the
// request (or its process ends, which withdraws it too), or the host lets go of the process. The commit
// is made at the end of the turn, in one transaction with the other requests' (turn-commits.ts).
import { setTimeout as sleep } from 'node:timers/promises';

import type { EventDraft, StoredEvent } from '../../store/event-types.js';
import type { SupervisorCore } from '../core.js';
import { isStoreFailure } from './record-backlog.js';

const FIRST_RETRY_MS = 25;
const LAST_RETRY_MS = 1000;

/**
 * Commits `drafts` once the store takes them. Resolves with the committed events, or undefined when
 * `signal` aborted or `stillWanted()` turned false first (nothing was written). A change that does not
 * fit the log (ConflictError, NotFoundError) is thrown at once.
 */
export async function commitWhenPossible(
  core: SupervisorCore,
  threadId: string,
  drafts: readonly EventDraft[],
  signal: AbortSignal,
  stillWanted: () => boolean = () => true,
): Promise<StoredEvent[] | undefined> {
  let delay = FIRST_RETRY_MS;
  let warned = false;
  for (;;) {
    if (signal.aborted || !stillWanted()) return undefined;
    try {
      // With the other requests of this turn, in one transaction (turn-commits.ts).
      return await core.commitThisTurn(threadId, drafts, () => !signal.aborted && stillWanted());
    } catch (error) {
      if (!isStoreFailure(error)) throw error;
      if (!warned) core.warn(error);
      warned = true;
    }
    try {
      await sleep(delay, undefined, { signal, ref: false });
    } catch {
      return undefined; // Aborted while waiting.
    }
    delay = Math.min(delay * 2, LAST_RETRY_MS);
  }
}
