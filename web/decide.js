// @ts-check
// Answering an approval. The inbox hides the approval at once (optimistic), then the server's answer
// settles it: the live `approval.decided` event confirms it; a 409 means someone (another tab, a
// person at the terminal, a mode change) settled it first, which is fine — it leaves the inbox with a
// note; any other failure brings it back so the decision can be retried. The first allow of a
// two-person approval leaves it pending: it comes back, showing who allowed it.

import { ApiError, decide as postDecision } from './api.js';
import { toast } from './toast.js';

/** @import { Decision } from './types.js' */
/** @import { State } from './state.js' */

const DONE = { allow: 'Approved', allow_always: 'Always allowed', deny: 'Denied' };

/**
 * @param {State} state
 * @param {string} approvalId
 * @param {Decision} decision
 * @param {{ onFailed?: (error: Error) => void }} [options] told of a refusal other than "already settled"
 *   (a rule wider than shown), before the card is drawn again
 * @returns {Promise<boolean>} whether the decision was accepted
 */
export async function decideApproval(state, approvalId, decision, { onFailed } = {}) {
  const approval = state.approvals.get(approvalId);
  if (approval === undefined || approval.status !== 'pending' || state.deciding.has(approvalId)) return false;
  state.deciding.add(approvalId);
  state.changed();
  try {
    const answered = await postDecision(approvalId, decision);
    if (answered?.approval?.status === 'pending') {
      // The first allow of a two-person approval: it waits for a second person, so it shows again.
      state.deciding.delete(approvalId);
      state.changed();
      toast(`Allowed, 1 of 2: ${approval.toolName} needs a second person's allow`);
      return true;
    }
    toast(`${DONE[decision.behavior]}: ${approval.toolName}`);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) {
      // Settled elsewhere: it stays hidden, and the live event that settled it will say how. A two-person
      // approval this decider already allowed is still pending: it shows again, for a second person.
      if (typeof approval.twoPerson === 'string') {
        state.deciding.delete(approvalId);
        toast(`Not taken: ${error.message}`, 'warn');
      } else toast(`Already settled elsewhere: ${error.message}`, 'warn');
    } else {
      state.deciding.delete(approvalId);
      if (error instanceof Error) onFailed?.(error);
      toast(
        `Could not send the decision: ${error instanceof Error ? error.message : String(error)}`,
        'error',
      );
    }
    state.changed();
    return false;
  }
}
