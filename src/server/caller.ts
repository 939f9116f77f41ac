// Who made the request being handled: the /api guard records the caller it checked, the routes read it
// (a decision records its decider; token management is the owner's). Kept per Request object, so it lives
// exactly as long as the request does.
import type { DecidedBy } from '../store/records.js';
import { ApiError } from './http-error.js';
import { OWNER } from './deciders.js';
import type { Caller } from './request-guard.js';

const callers = new WeakMap<Request, Caller>();

export function rememberCaller(request: Request, caller: Caller): void {
  callers.set(request, caller);
}

export function callerOf(request: Request): Caller {
  const caller = callers.get(request);
  // Every /api route runs behind the guard; reaching here without it is a wiring bug, refused safely.
  if (caller === undefined) throw new ApiError(401, 'UNAUTHORIZED', 'Missing credentials');
  return caller;
}

/**
 * A decision's `decidedBy`: the caller's name, through the web UI (a session) or the API (a token) — or
 * the terminal, when a token's client says it is `warden run`. The name is never the client's to choose.
 */
export function decidedByOf(request: Request, claimed?: 'terminal'): DecidedBy {
  return decidedByCaller(callerOf(request), claimed);
}

/** The same, for a caller the guard has checked (the decision route served by node:http itself). */
export function decidedByCaller(caller: Caller, claimed?: 'terminal'): DecidedBy {
  return { name: caller.decider, via: caller.via === 'session' ? 'web' : (claimed ?? 'api') };
}

/**
 * Throws 403 unless the owner (server token, or the owner's browser session) is calling; `what` is the
 * action refused, as the message says it ("manages decider tokens").
 */
export function requireOwner(request: Request, what: string): void {
  if (callerOf(request).decider !== OWNER)
    throw new ApiError(403, 'FORBIDDEN', `Only the owner (the server token) ${what}`);
}
