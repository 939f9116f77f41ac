// The approval routes: the inbox (filtered by status and thread), the rule a card offers, and the decision. A decision on an
// approval that is no longer pending is a 409 (the supervisor's ConflictError): two browser tabs, or a
// tab and the terminal, cannot both answer the same request.
import { Hono } from 'hono';

import { ApprovalsQuery, DecisionRequest, type ApprovalListResponse } from './api-schema.js';
import { definedOnly, parseOrThrow, readJsonBody } from './body.js';
import { callerOf, decidedByOf } from './caller.js';
import { checkApproverDecision } from './roles.js';
import type { RouteDeps } from './routes-threads.js';
import { approvalItems } from './views.js';

export function approvalRoutes({ supervisor }: RouteDeps): Hono {
  const app = new Hono();

  app.get('/', (c) => {
    const { status, threadId } = parseOrThrow(ApprovalsQuery, c.req.query());
    const lastSeq = supervisor.lastSeq();
    const body: ApprovalListResponse = {
      approvals: approvalItems(supervisor, {
        ...(status === undefined ? {} : { status }),
        ...(threadId === undefined ? {} : { threadId }),
      }),
      lastSeq,
    };
    return c.json(body);
  });

  // The rule its card offers (Supervisor.suggestRule), or null. Saving one is policy authoring: a
  // decide-only token is offered none.
  app.get('/:id/suggestion', (c) => {
    if (callerOf(c.req.raw).role === 'approver') return c.json({ suggestion: null });
    return c.json({ suggestion: supervisor.suggestRule(c.req.param('id')) });
  });

  app.post('/:id/decision', async (c) => {
    const { via, ...decision } = await readJsonBody(c.req.raw, DecisionRequest);
    checkApproverDecision(callerOf(c.req.raw).role, decision);
    const approval = await supervisor.decide(c.req.param('id'), {
      ...definedOnly(decision),
      behavior: decision.behavior,
      decidedBy: decidedByOf(c.req.raw, via),
    });
    return c.json({ approval });
  });

  return app;
}
