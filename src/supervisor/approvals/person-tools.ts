// Tools that are a question to the person, not an action: AskUserQuestion (the model asks, the person
// answers) and ExitPlanMode (the model shows its plan, the person approves it or sends it back). No mode
// and no allow rule answers them: an "allow" from the policy would send the CLI an empty answer or end
// plan mode unseen. A deny rule still denies them. And threads that start in plan mode: the CLI stays in
// plan mode, across restarts of its process, until a plan of the thread is approved.
import { ValidationError } from '../../protocol/errors.js';
import type { Store } from '../../store/store.js';
import type { PolicyVerdict } from '../../policy/policy.js';

export const ASK_USER_QUESTION = 'AskUserQuestion';
export const EXIT_PLAN_MODE = 'ExitPlanMode';

const FOR_A_PERSON = new Set([ASK_USER_QUESTION, EXIT_PLAN_MODE]);

/** The policy's verdict, except that a question for a person is never allowed unasked. */
export function verdictForPerson(toolName: string, verdict: PolicyVerdict): PolicyVerdict {
  if (verdict.behavior !== 'allow' || !FOR_A_PERSON.has(toolName)) return verdict;
  return { behavior: 'ask', reason: `${toolName} is a question for a person: no mode or rule answers it` };
}

/** `createThread`'s `plan` option, checked: the field of `thread.created` it becomes. */
export function planStart(plan: unknown): { plan?: true } {
  if (plan === undefined || plan === false) return {};
  if (plan !== true) throw new ValidationError('plan must be a boolean', 'plan');
  return { plan: true };
}

/** Whether the thread's next CLI process starts in plan mode: it was created so, and no plan was approved. */
export function startsInPlanMode(store: Store, threadId: string): boolean {
  const [created] = store.readEvents({ threadId, after: 0, limit: 1 });
  if (created?.type !== 'thread.created' || created.data.plan !== true) return false;
  return !store
    .listApprovals({ threadId })
    .some((approval) => approval.toolName === EXIT_PLAN_MODE && approval.status === 'allowed');
}
