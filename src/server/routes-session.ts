// Sessions over HTTP: `POST /login` trades a login ticket for the session cookie (the login page calls
// it); `GET /api/session` says who the caller is (the page marks what is not its to answer);
// `DELETE /api/session` ends the caller's own session (logout); `DELETE /api/sessions` ends every
// browser session (the owner's to do: a named decider ends only its own). The API token is never a cookie: the cookie carries only the session's secret.
import { Hono } from 'hono';
import { z } from 'zod';

import { readJsonBody } from './body.js';
import { callerOf, requireOwner } from './caller.js';
import { ApiError } from './http-error.js';
import type { HeaderReader, RequestGuard } from './request-guard.js';
import type { SessionRegistry } from './sessions.js';

export interface SessionRouteDeps {
  guard: RequestGuard;
  sessions: SessionRegistry;
  token: string;
}

const LoginBody = z.object({ ticket: z.string().max(256) }).strict();

const headerOf =
  (c: { req: { header(name: string): string | undefined } }): HeaderReader =>
  (name) =>
    c.req.header(name);

/** `POST /login`: outside /api (the page calls it before it has a session), so it runs its own checks. */
export function loginRoute(deps: SessionRouteDeps): Hono {
  const app = new Hono();
  app.post('/', async (c) => {
    deps.guard.checkOrigin(headerOf(c), true);
    const { ticket } = await readJsonBody(c.req.raw, LoginBody);
    const redeemed = deps.sessions.redeem(deps.token, ticket, (decider) => deps.guard.isActive(decider));
    c.header('cache-control', 'no-store');
    if (redeemed === undefined)
      throw new ApiError(
        401,
        'UNAUTHORIZED',
        'This login link is not valid: it was used already, it expired, or the server restarted since it was made',
      );
    const maxAge = Math.floor(deps.sessions.lifetimeMs / 1000);
    c.header('set-cookie', sessionCookie(deps.guard.cookieName, redeemed.secret, maxAge));
    return c.body(null, 204);
  });
  return app;
}

/** `/api/session` and `/api/sessions`, behind the /api guard. */
export function sessionRoutes(deps: SessionRouteDeps): Hono {
  const app = new Hono();
  app.get('/session', (c) => {
    const { decider, role } = callerOf(c.req.raw);
    return c.json({ decider, role: role ?? null });
  });
  app.delete('/session', (c) => {
    const session = deps.guard.sessionOf(headerOf(c));
    if (session !== undefined) deps.sessions.revoke(session.key);
    c.header('set-cookie', sessionCookie(deps.guard.cookieName, '', 0));
    return c.body(null, 204);
  });
  app.delete('/sessions', (c) => {
    requireOwner(c.req.raw, 'ends every browser session');
    const revoked = deps.sessions.revokeAll();
    c.header('set-cookie', sessionCookie(deps.guard.cookieName, '', 0));
    return c.json({ revoked });
  });
  return app;
}

function sessionCookie(name: string, value: string, maxAge: number): string {
  return `${name}=${value}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAge}`;
}
