// The approval routes: the inbox (filtered by status and thread), one approval, the rule a card offers,
// and the decision. A decision on an approval that is no longer pending is a 409 (the supervisor's
// ConflictError): two browser tabs, or a tab and the terminal, cannot both answer the same request. A named
// decider answers only the approvals offered to it (answerers.ts): any other is a 403 that says who may
// answer it.
import { Hono } from 'hono';

import type { ApprovalRecord } from '../store/records.js';
import { ApprovalsQuery, DecisionRequest, type ApprovalListResponse } from './api-schema.js';
import { checkMayAnswer } from './answerers.js';
import { definedOnly, parseOrThrow, readJsonBodyOf } from './body.js';
import { callerOf, decidedByCaller } from './caller.js';
import { OWNER, type DeciderTokens } from './deciders.js';
import { replyJson } from './direct-reply.js';
import type { Caller } from './request-guard.js';
import { checkApproverDecision } from './roles.js';
import type { RouteDeps } from './routes-threads.js';
import { approvalItems } from './views.js';

export interface ApprovalRouteDeps extends RouteDeps {
  deciders: DeciderTokens;
}

export function approvalRoutes(deps: ApprovalRouteDeps): Hono {
  const { supervisor, deciders } = deps;
  const app = new Hono();

  app.get('/', (c) => {
    const { status, threadId } = parseOrThrow(ApprovalsQuery, c.req.query());
    const lastSeq = supervisor.lastSeq();
    const body: ApprovalListResponse = {
      approvals: approvalItems(
        supervisor,
        {
          ...(status === undefined ? {} : { status }),
          ...(threadId === undefined ? {} : { threadId }),
        },
        deciders,
      ),
      lastSeq,
    };
    return c.json(body);
  });

  app.get('/:id', (c) => {
    const [approval] = approvalItems(supervisor, { id: c.req.param('id') }, deciders);
    return c.json({ approval });
  });

  // The rule its card offers (Supervisor.suggestRule), or null. Saving one is policy authoring: a
  // decide-only or observer token is offered none.
  app.get('/:id/suggestion', (c) => {
    const { role } = callerOf(c.req.raw);
    if (role === 'approver' || role === 'observer') return c.json({ suggestion: null });
    return c.json({ suggestion: supervisor.suggestRule(c.req.param('id')) });
  });

  // Served by node:http itself ahead of Hono when it is plainly this route (decision-fast-path.ts); the
  // same function answers both ways.
  app.post('/:id/decision', async (c) => {
    const body = await readJsonBodyOf(c, DecisionRequest);
    return replyJson(c, await answerApproval(deps, callerOf(c.req.raw), c.req.param('id'), body));
  });

  return app;
}

/** A decision on one approval, by a caller the /api guard has checked: the reply's body. */
export async function answerApproval(
  { supervisor, deciders }: ApprovalRouteDeps,
  caller: Caller,
  approvalId: string,
  { via, ...decision }: DecisionRequest,
): Promise<{ approval: ApprovalRecord }> {
  checkApproverDecision(caller.role, decision);
  checkAnswerable(supervisor, deciders, caller.decider, approvalId);
  const approval = await supervisor.decide(approvalId, {
    ...definedOnly(decision),
    behavior: decision.behavior,
    decidedBy: decidedByCaller(caller, via),
  });
  return { approval };
}

/**
 * A 403 unless `caller` may answer the approval (a 404 when there is none, from the supervisor). The owner
 * may answer any: nothing is read for it (the thread's view lists all its approvals, a cost that grew with
 * every decision on the hot route).
 */
export function checkAnswerable(
  supervisor: RouteDeps['supervisor'],
  deciders: DeciderTokens,
  caller: string,
  approvalId: string,
): void {
  if (caller === OWNER) return;
  const approval = supervisor.getApproval(approvalId);
  checkMayAnswer(deciders, caller, approval, supervisor.getThread(approval.threadId).thread.cwd);
}
