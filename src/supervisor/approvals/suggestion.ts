// The rule a pending approval's card offers (policy/suggest.ts decides; this gathers): the thread's
// recorded requests and how each ended, read from the log once, and, for the rule found, what it would
// have done in the thread so far — the same simulation `POST /api/policy/simulate` answers.
import { simulatePolicy, type SimulationSummary } from '../../policy/simulate.js';
import { suggestRule } from '../../policy/suggest.js';
import type { Store } from '../../store/store.js';
import { recordedRequests, threadPolicy } from './simulation.js';

export interface ApprovalSuggestion {
  /** The rule, to be added to the thread's allow rules (`POST /api/threads/:id/rules`). */
  readonly rule: string;
  /** How many past approvals of the thread it covers. */
  readonly approvals: number;
  /** What it would have done in the thread so far. */
  readonly simulation: { readonly summary: SimulationSummary; readonly text: string };
}

/** The suggestion for a pending approval, or null (none, or no longer pending). */
export function suggestionFor(
  store: Store,
  approvalId: string,
  osEnforced: boolean,
  after: number,
): ApprovalSuggestion | null {
  const approval = store.getApproval(approvalId);
  if (approval?.status !== 'pending' || after < 1) return null;
  const thread = store.getThread(approval.threadId);
  if (thread === undefined) return null;
  const policy = threadPolicy(thread, osEnforced);
  const history = recordedRequests(store, (threadId) => threadId === thread.id, {}, thread.id);
  const found = suggestRule(
    {
      toolName: approval.toolName,
      input: approval.input,
      cli: { decisionReason: approval.decisionReason, blockedPath: approval.blockedPath },
    },
    history,
    { cwd: thread.cwd, osEnforced: policy.osEnforced, after },
  );
  if (found === undefined) return null;
  const { summary, text } = simulatePolicy(history, () => policy, { allow: [found.rule] });
  return { ...found, simulation: { summary, text } };
}
