// Batches over HTTP: a preview lists exactly which pending approvals one answer would cover (a thread's,
// a subagent's, or those a typed rule covers); the answer is then given for those ids only, each decided
// compare-and-set on its own, and the reply says which had been settled elsewhere meanwhile.
import { Hono } from 'hono';

import {
  BatchDecisionRequest,
  BatchPreviewRequest,
  type BatchDecisionResponse,
  type BatchPreviewResponse,
} from './api-schema.js';
import { readJsonBody } from './body.js';
import { decidedByOf } from './caller.js';
import type { RouteDeps } from './routes-threads.js';

export function batchRoutes({ supervisor }: RouteDeps): Hono {
  const app = new Hono();

  app.post('/preview', async (c) => {
    const { select, behavior } = await readJsonBody(c.req.raw, BatchPreviewRequest);
    const selection = Object.fromEntries(Object.entries(select).filter(([, value]) => value !== undefined));
    const body: BatchPreviewResponse = supervisor.previewBatch(selection, behavior ?? 'allow');
    return c.json(body);
  });

  app.post('/', async (c) => {
    const { approvalIds, behavior, message, interrupt } = await readJsonBody(c.req.raw, BatchDecisionRequest);
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
