// Decider tokens over HTTP, for the owner only (the server token or the owner's browser session):
// `GET /api/tokens` lists them (never the tokens), `POST /api/tokens {name, role?, scope?}` makes one and answers the
// token — once — with a login link for that decider, `DELETE /api/tokens/:name` revokes it: its sessions
// end and its WebSockets close (4001) before the answer is sent.
import { Hono } from 'hono';
import { z } from 'zod';

import { readJsonBody } from './body.js';
import { requireOwner } from './caller.js';
import type { DeciderTokens } from './deciders.js';

const CreateBody = z.strictObject({
  name: z.string().max(64),
  role: z.string().max(32).optional(),
  /** The approvals it answers (supervisor/approvals/scope.ts), checked by the deciders file. */
  scope: z.unknown().optional(),
});

export interface TokenRouteDeps {
  deciders: DeciderTokens;
  /** A login link that opens a session of `decider`. */
  loginLinkFor: (decider: string) => string;
}

export function tokenRoutes({ deciders, loginLinkFor }: TokenRouteDeps): Hono {
  const app = new Hono();

  app.use('*', async (c, next) => {
    requireOwner(c.req.raw, 'manages decider tokens');
    await next();
  });

  app.get('/', (c) => c.json({ deciders: deciders.list() }));

  app.post('/', async (c) => {
    const { name, role, scope } = await readJsonBody(c.req.raw, CreateBody);
    const { token, decider } = deciders.create(name, {
      ...(role === undefined ? {} : { role }),
      ...(scope === undefined ? {} : { scope }),
    });
    return c.json({ decider, token, loginLink: loginLinkFor(decider.name) }, 201);
  });

  app.delete('/:name', (c) => c.json({ decider: deciders.revoke(c.req.param('name')) }));

  return app;
}
