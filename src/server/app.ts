// The HTTP application: the guard in front of /api (Host, Origin on state changes, token), the routes, the
// login link, and the static UI. Every error leaves as `{ error: { code, message } }` (http-error.ts).
import { Hono } from 'hono';

import type { Supervisor } from '../supervisor/index.js';
import type { InfoResponse } from './api-schema.js';
import { ApiError, errorReply } from './http-error.js';
import type { RequestGuard } from './request-guard.js';
import { approvalRoutes } from './routes-approvals.js';
import { threadRoutes } from './routes-threads.js';
import { PLACEHOLDER_PAGE, pageHeaders, readStaticFile } from './static-files.js';

export interface AppDeps {
  supervisor: Supervisor;
  guard: RequestGuard;
  webRoot: string;
  info: InfoResponse;
  onError: (error: unknown) => void;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The login cookie lives as long as a browser session would reasonably stay signed in. */
const COOKIE_MAX_AGE_S = 30 * 24 * 3600;

export function createApp(deps: AppDeps): Hono {
  const { guard } = deps;
  const app = new Hono();
  const headerOf =
    (c: { req: { header(name: string): string | undefined } }) =>
    (name: string): string | undefined =>
      c.req.header(name);

  app.onError((error, c) => {
    const reply = errorReply(error);
    if (reply.unexpected) deps.onError(error);
    return c.json(reply.body, reply.status, { 'cache-control': 'no-store' });
  });

  app.use('/api/*', async (c, next) => {
    guard.checkOrigin(headerOf(c), !SAFE_METHODS.has(c.req.method));
    guard.checkToken(headerOf(c));
    await next();
    c.header('cache-control', 'no-store');
  });
  app.get('/api/info', (c) => c.json(deps.info));
  app.route('/api/threads', threadRoutes(deps));
  app.route('/api/approvals', approvalRoutes(deps));
  app.all('/api/*', (c) => {
    throw new ApiError(404, 'NOT_FOUND', `No route ${c.req.method} ${c.req.path}`);
  });

  // The login link: trade the token in the URL for an HttpOnly cookie, then leave the URL behind.
  app.get('/login', (c) => {
    guard.checkHost(headerOf(c));
    const token = c.req.query('token');
    if (!guard.tokenMatches(token))
      throw new ApiError(401, 'UNAUTHORIZED', 'The login link is missing the token or has a wrong one');
    c.header(
      'set-cookie',
      `${guard.cookieName}=${token}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${COOKIE_MAX_AGE_S}`,
    );
    c.header('cache-control', 'no-store');
    c.header('referrer-policy', 'no-referrer');
    return c.redirect('/', 302);
  });

  app.get('*', async (c) => {
    // The Host header goes into the CSP: only a plain host[:port] may.
    const host = c.req.header('host') ?? '';
    const headers = pageHeaders(/^[\w.:[\]-]+$/.test(host) ? host : 'localhost');
    const file = await readStaticFile(deps.webRoot, c.req.path);
    if (file !== undefined)
      return c.body(new Uint8Array(file.body), 200, { ...headers, 'content-type': file.type });
    if (c.req.path === '/' || c.req.path === '/index.html') return c.html(PLACEHOLDER_PAGE, 200, headers);
    throw new ApiError(404, 'NOT_FOUND', `No file ${c.req.path}`);
  });
  app.notFound((c) => {
    const reply = errorReply(new ApiError(404, 'NOT_FOUND', `No route ${c.req.method} ${c.req.path}`));
    return c.json(reply.body, reply.status);
  });

  return app;
}
