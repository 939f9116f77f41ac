// Policy questions over HTTP that change nothing: `POST /api/policy/simulate` replays a proposed change
// over the recorded requests (Supervisor.simulatePolicy) and answers the summary with the requests it
// would decide otherwise (or its deadlines would have answered), at most `limit` of them (default 200),
// newest last.
import { Hono } from 'hono';

import { decidedOtherwise } from '../policy/simulate.js';
import { SimulateRequest } from './api-schema.js';
import { readJsonBody } from './body.js';
import type { RouteDeps } from './routes-threads.js';

const LISTED_BY_DEFAULT = 200;

export function policyRoutes({ supervisor }: RouteDeps): Hono {
  const app = new Hono();

  app.post('/simulate', async (c) => {
    const { scope, change, since, until, limit } = await readJsonBody(c.req.raw, SimulateRequest);
    const simulation = supervisor.simulatePolicy({ scope: scope ?? 'all', change, since, until });
    const changed = simulation.requests.filter(decidedOtherwise);
    const listed = changed.slice(0, limit ?? LISTED_BY_DEFAULT);
    return c.json({
      summary: simulation.summary,
      text: simulation.text,
      requests: listed,
      more: changed.length - listed.length,
    });
  });

  return app;
}
