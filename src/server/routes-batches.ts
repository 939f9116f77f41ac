// Batches over HTTP: a preview lists exactly which pending approvals one answer would cover (a thread's,
// a subagent's, or those a typed rule covers); the answer is then given for those ids only, each decided
// compare-and-set on its own, and the reply says which had been settled elsewhere meanwhile. A named
// decider's preview leaves out what is not offered to it, and its batch is refused (403) if it names one.
import { Hono } from 'hono';

import {
  BatchDecisionRequest,
  BatchPreviewRequest,
  type BatchDecisionResponse,
  type BatchPreviewResponse,
} from './api-schema.js';
import { readJsonBody } from './body.js';
import { answerersOf } from './answerers.js';
import { callerOf, decidedByOf } from './caller.js';
import { OWNER } from './deciders.js';
import { checkAnswerable, type ApprovalRouteDeps } from './routes-approvals.js';

export function batchRoutes({ supervisor, deciders }: ApprovalRouteDeps): Hono {
  const app = new Hono();

  app.post('/preview', async (c) => {
    const { select, behavior } = await readJsonBody(c.req.raw, BatchPreviewRequest);
    const selection = Object.fromEntries(Object.entries(select).filter(([, value]) => value !== undefined));
    const preview = supervisor.previewBatch(selection, behavior ?? 'allow');
    const caller = callerOf(c.req.raw).decider;
    if (caller === OWNER) return c.json(preview satisfies BatchPreviewResponse);
    const body: BatchPreviewResponse = { approvals: [], leftOut: [...preview.leftOut] };
    for (const approval of preview.approvals) {
      const answerers = answerersOf(deciders, approval, supervisor.getThread(approval.threadId).thread.cwd);
      if (answerers.includes(caller)) body.approvals.push(approval);
      else
        body.leftOut.push({
          id: approval.id,
          toolName: approval.toolName,
          reason: `not in the scope of ${caller}: answerable by ${answerers.join(', ') || 'the owner only'}`,
        });
    }
    return c.json(body);
  });

  app.post('/', async (c) => {
    const { approvalIds, behavior, message, interrupt } = await readJsonBody(c.req.raw, BatchDecisionRequest);
    const caller = callerOf(c.req.raw).decider;
    for (const id of approvalIds) checkAnswerable(supervisor, deciders, caller, id);
    const body: BatchDecisionResponse = await supervisor.decideBatch(approvalIds, {
      decidedBy: decidedByOf(c.req.raw),
      behavior,
      ...(message === undefined ? {} : { message }),
      ...(interrupt === undefined ? {} : { interrupt }),
    });
    return c.json(body);
  });

  return app;
}
