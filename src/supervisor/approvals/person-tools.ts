// Tools that are a question to the person, not an action: AskUserQuestion and ExitPlanMode, which no mode
// and no allow rule answers (the rule is the policy's: src/policy/person-questions.ts). And threads that
// start in plan mode: the CLI stays in plan mode, across restarts of its process, until a plan of the
// thread is approved.
import { ValidationError } from '../../protocol/errors.js';
import type { Store } from '../../store/store.js';

export const ASK_USER_QUESTION = 'AskUserQuestion';
export const EXIT_PLAN_MODE = 'ExitPlanMode';

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
