// `POST /hooks/approvals/:id/:action?token=…`: the action links of notifications. The token is the
// credential (action-links.ts) — no API token, session or Origin is asked for, since receivers are servers
// and phones — but the Host check stays (no DNS-rebound name reaches it). A good token takes the decision
// once, recorded as `by: 'webhook'`; the same link again, or a link of an approval settled elsewhere, is a
// 409; a token that is unknown, for another approval or action, or past its lifetime is a 401.
import { Hono } from 'hono';

import type { Supervisor } from '../../supervisor/index.js';
import { ApiError } from '../http-error.js';
import type { RequestGuard } from '../request-guard.js';
import { LINK_ACTIONS, type ActionLinks } from './action-links.js';

export function hookRoutes(deps: { supervisor: Supervisor; guard: RequestGuard; links: ActionLinks }): Hono {
  const app = new Hono();
  app.post('/approvals/:id/:action', async (c) => {
    deps.guard.checkHost((name) => c.req.header(name));
    c.header('cache-control', 'no-store');
    const approvalId = c.req.param('id');
    const action = c.req.param('action');
    if (!(LINK_ACTIONS as readonly string[]).includes(action))
      throw new ApiError(404, 'NOT_FOUND', `No action ${JSON.stringify(action)}: allow or deny`);
    const redeemed = deps.links.redeem(approvalId, action, c.req.query('token'));
    if (redeemed === 'spent')
      throw new ApiError(409, 'CONFLICT', 'This approval was already answered (links work once)');
    if (redeemed !== 'ok')
      throw new ApiError(
        401,
        'UNAUTHORIZED',
        redeemed === 'expired'
          ? 'This link has expired'
          : 'This link is not valid for this approval and action',
      );
    const approval = await deps.supervisor.decide(approvalId, {
      behavior: action === 'allow' ? 'allow' : 'deny',
      ...(action === 'deny' ? { message: 'Denied through a notification link' } : {}),
      by: 'webhook',
    });
    return c.json({ approval: { id: approval.id, status: approval.status } });
  });
  return app;
}
