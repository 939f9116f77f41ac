// The checks in front of every /api route, in their order: Host and Origin (a state change must come from
// a page of this server), then the credentials, then what the caller's role may do. The Hono middleware
// (app.ts) and the decision route served by node:http itself (decision-fast-path.ts) both call this.
import { checkRole } from './roles.js';
import type { Caller, HeaderReader, RequestGuard } from './request-guard.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The caller of an /api request, or the ApiError (401, 403) that refuses it. */
export function apiCaller(guard: RequestGuard, header: HeaderReader, method: string, path: string): Caller {
  guard.checkOrigin(header, !SAFE_METHODS.has(method));
  const caller = guard.checkToken(header);
  checkRole(caller.role, method, path);
  return caller;
}
