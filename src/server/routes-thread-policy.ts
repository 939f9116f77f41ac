// What a thread allows by itself, over HTTP: rules can be added to it (as an always-allow of the thread's
// scope adds them, from no approval), the rules granted (listed on the thread record as `grants`) removed,
// and the deadlines that answer unanswered approvals replaced.
import { Hono } from 'hono';

import { DeadlinesRequest, GrantRulesRequest, RevokeRuleRequest } from './api-schema.js';
import { readJsonBody } from './body.js';
import type { RouteDeps } from './routes-threads.js';

export function threadPolicyRoutes({ supervisor }: RouteDeps): Hono {
  const app = new Hono();

  app.post('/:id/rules', async (c) => {
    const { rules } = await readJsonBody(c.req.raw, GrantRulesRequest);
    const thread = await supervisor.grantRules(c.req.param('id'), rules);
    return c.json({ thread });
  });

  app.delete('/:id/rules', async (c) => {
    const { rule, scope } = await readJsonBody(c.req.raw, RevokeRuleRequest);
    const thread = await supervisor.revokeRule(c.req.param('id'), rule, scope ?? 'thread');
    return c.json({ thread });
  });

  app.put('/:id/deadlines', async (c) => {
    const { afterMs, rules } = await readJsonBody(c.req.raw, DeadlinesRequest);
    const thread = await supervisor.setDeadlines(c.req.param('id'), {
      ...(afterMs === undefined ? {} : { afterMs }),
      ...(rules === undefined ? {} : { rules }),
    });
    return c.json({ thread });
  });

  return app;
}
