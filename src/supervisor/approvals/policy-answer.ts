// What the thread's policy answers by itself for an approval still pending, once the thread's mode has
// changed (a mode chosen by a person, or with an approved plan). The CLI's reason for asking still
// counts: a write it called sensitive is never settled by a mode, and a question for a person never is;
// nor is a two-person approval allowed by one.
import type { EventDraft } from '../../store/event-types.js';
import type { ApprovalRecord } from '../../store/records.js';
import { evaluatePolicy, type CompiledPolicy } from '../../policy/policy.js';
import { askingPersonQuestions } from '../../policy/person-questions.js';

/** The `approval.decided` the policy makes for `approval`, or undefined when it still asks a person. */
export function policyAnswer(policy: CompiledPolicy, approval: ApprovalRecord): EventDraft | undefined {
  const verdict = askingPersonQuestions(
    approval.toolName,
    evaluatePolicy(policy, approval.toolName, approval.input, {
      decisionReason: approval.decisionReason,
      blockedPath: approval.blockedPath,
    }),
  );
  if (verdict.behavior === 'ask') return undefined;
  // Two people's to allow (two-person.ts): no mode allows it for them; a deny still applies.
  if (verdict.behavior === 'allow' && approval.twoPerson !== null) return undefined;
  return {
    type: 'approval.decided',
    data: {
      approvalId: approval.id,
      behavior: verdict.behavior,
      message: verdict.behavior === 'deny' ? `Denied by the supervisor's policy: ${verdict.reason}` : null,
      interrupt: false,
      updatedPermissions: null,
      by: 'policy',
      decidedBy: { name: 'policy', via: 'policy' },
    },
  };
}
