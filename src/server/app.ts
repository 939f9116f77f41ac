// The HTTP application: the guard in front of /api (Host, Origin on state changes, token or session), the
// routes, the login page, and the static UI. Every error leaves as `{ error: { code, message } }`
// (http-error.ts), and every response says `nosniff`.
import { API_REPLY_HEADERS } from './direct-reply.js';
import { Hono } from 'hono';

import type { Supervisor } from '../supervisor/index.js';
import type { InfoResponse } from './api-schema.js';
import { rememberCaller } from './caller.js';
import { HOOK_EVENTS_PATH } from './roles.js';
import { apiCaller } from './api-guard.js';
import type { DeciderTokens } from './deciders.js';
import { ApiError, errorReply } from './http-error.js';
import { LOGIN_PAGE, LOGIN_SCRIPT } from './login-page.js';
import type { ActionLinks } from './notify/action-links.js';
import { hookRoutes } from './notify/routes-hooks.js';
import { hookEventRoutes } from './routes-hook-events.js';
import { pushRoutes, type PushRouteDeps } from './routes-push.js';
import type { RequestGuard } from './request-guard.js';
import { approvalRoutes } from './routes-approvals.js';
import { batchRoutes } from './routes-batches.js';
import { auditRoutes } from './routes-audit.js';
import { policyRoutes } from './routes-policy.js';
import { loginRoute, sessionRoutes } from './routes-session.js';
import { threadPolicyRoutes } from './routes-thread-policy.js';
import { threadRoutes } from './routes-threads.js';
import { tokenRoutes } from './routes-tokens.js';
import type { SessionRegistry } from './sessions.js';
import { PLACEHOLDER_PAGE, pageHeaders, readStaticFile } from './static-files.js';

export interface AppDeps {
  supervisor: Supervisor;
  guard: RequestGuard;
  sessions: SessionRegistry;
  /** The API token: the key login tickets are checked with. */
  token: string;
  /** Named deciders' tokens; the audit and token routes. */
  deciders: DeciderTokens;
  /** A login link that opens a session of `decider`. */
  loginLinkFor: (decider: string) => string;
  /** The notification action links; without them `/hooks` does not exist. */
  links?: ActionLinks;
  /** Web Push; without it `/api/push` does not exist. */
  push?: PushRouteDeps;
  webRoot: string;
  info: InfoResponse;
  /** Whether close() is under way (the connections it ends are not hooks giving up); false when absent. */
  isClosing?: () => boolean;
  onError: (error: unknown) => void;
}

export function createApp(deps: AppDeps): Hono {
  const { guard } = deps;
  const app = new Hono();
  const headerOf =
    (c: { req: { header(name: string): string | undefined } }) =>
    (name: string): string | undefined =>
      c.req.header(name);

  // Errors included: no response may be sniffed into something its type does not say.
  app.use('*', async (c, next) => {
    await next();
    c.header('x-content-type-options', 'nosniff');
  });
  app.onError((error, c) => {
    const reply = errorReply(error);
    if (reply.unexpected) deps.onError(error);
    return c.json(reply.body, reply.status, { ...reply.headers, ...API_REPLY_HEADERS });
  });

  app.use('/api/*', async (c, next) => {
    rememberCaller(c.req.raw, apiCaller(guard, headerOf(c), c.req.method, c.req.path));
    await next();
    c.header('cache-control', 'no-store');
  });
  // The sandbox's state can change after start (a CLI reports its sandbox off): read at each request.
  app.get('/api/info', (c) => c.json({ ...deps.info, sandbox: deps.supervisor.sandbox }));
  app.route('/api/threads', threadRoutes(deps));
  app.route('/api/threads', threadPolicyRoutes(deps));
  app.route('/api/approvals/batch', batchRoutes(deps));
  app.route('/api/approvals', approvalRoutes(deps));
  app.route('/api', sessionRoutes(deps));
  app.route('/api/tokens', tokenRoutes(deps));
  app.route('/api/audit', auditRoutes(deps));
  app.route('/api/policy', policyRoutes(deps));
  app.route(HOOK_EVENTS_PATH, hookEventRoutes(deps));
  // The fleet's hosts and their leases (empty for a store of one host).
  app.get('/api/hosts', (c) => c.json({ hosts: deps.supervisor.listHosts() }));
  if (deps.push !== undefined) app.route('/api/push', pushRoutes(deps.push));
  app.all('/api/*', (c) => {
    throw new ApiError(404, 'NOT_FOUND', `No route ${c.req.method} ${c.req.path}`);
  });

  // Notification action links: the link's token is the credential (notify/routes-hooks.ts).
  if (deps.links !== undefined)
    app.route('/hooks', hookRoutes({ supervisor: deps.supervisor, guard, links: deps.links }));

  // The login page (served here, not from the web root, so it works without the UI installed): its
  // script trades the ticket in the link's fragment for the session cookie (login-page.ts).
  app.route('/login', loginRoute(deps));
  app.get('/login', (c) => {
    guard.checkHost(headerOf(c));
    return c.html(LOGIN_PAGE, 200, {
      ...pageHeaders(safeHost(c.req.header('host'))),
      'cache-control': 'no-store',
    });
  });
  app.get('/login.js', (c) =>
    c.body(LOGIN_SCRIPT, 200, {
      ...pageHeaders(safeHost(c.req.header('host'))),
      'content-type': 'text/javascript; charset=utf-8',
    }),
  );

  app.get('*', async (c) => {
    const headers = pageHeaders(safeHost(c.req.header('host')));
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

/** The Host header goes into the CSP: only a plain host[:port] may. */
function safeHost(host: string | undefined): string {
  return host !== undefined && /^[\w.:[\]-]+$/.test(host) ? host : 'localhost';
}
