// Who may answer an approval: the owner always; a named decider that answers approvals (deciders.ts)
// when its scope covers the approval (supervisor/approvals/scope.ts), or once the approval's route has
// escalated it to that decider (supervisor/approvals/routes.ts). Worked out when asked, from the deciders
// as they are now: a scope narrowed or a token revoked holds at once, for the approvals already waiting.
import { risksOf, scopeCovers, type ApprovalRecord } from '../supervisor/index.js';
import { OWNER, type DeciderTokens } from './deciders.js';
import { ApiError } from './http-error.js';

/** The named deciders who may answer (the owner, who always may, is not listed), in the file's order. */
export function answerersOf(deciders: DeciderTokens, approval: ApprovalRecord, cwd: string): string[] {
  const target = {
    toolName: approval.toolName,
    input: approval.input,
    cwd,
    // Approvals recorded before routing existed: their risks, less what only the policy knew then.
    risks: approval.routing?.risks ?? risksOf(approval.toolName, approval.input, false),
  };
  const escalation = approval.routing?.escalation;
  const escalatedTo = new Set(escalation?.escalatedAt == null ? [] : escalation.to);
  return deciders
    .deciding()
    .filter(({ name, scope }) => escalatedTo.has(name) || scopeCovers(scope, target))
    .map(({ name }) => name);
}

/** Throws 403 unless `caller` may answer this approval. */
export function checkMayAnswer(
  deciders: DeciderTokens,
  caller: string,
  approval: ApprovalRecord,
  cwd: string,
): void {
  if (caller === OWNER) return;
  const answerers = answerersOf(deciders, approval, cwd);
  if (answerers.includes(caller)) return;
  const who = answerers.length === 0 ? 'the owner only' : answerers.join(', ');
  throw new ApiError(
    403,
    'FORBIDDEN',
    `Approval ${approval.id} is not in the scope of decider ${caller}: it is answerable by ${who}`,
  );
}
