// What a named decider's role lets it do over the API (deciders.ts). An `approver` answers approvals and
// reads; it cannot start or steer an agent: no new thread, no message, no mode, rule, deadline or policy
// change — each of those runs code as surely as allowing a command does. The list below says what an
// approver may change; everything else that is not a read is refused, so a route added later is closed
// to approvers until it is listed here. An `observer` reads everything and changes nothing but its own
// sign-out: it answers no approval and stops nothing.
import type { DecisionRequest } from './api-schema.js';
import type { DeciderRole } from './deciders.js';
import { ApiError } from './http-error.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Changes an approver may make: answering, stopping what runs, its own sign-out and push devices. */
const APPROVER_CHANGES: readonly { method: string; path: RegExp }[] = [
  { method: 'POST', path: /^\/api\/approvals\/[^/]+\/decision$/ },
  { method: 'POST', path: /^\/api\/approvals\/batch(\/preview)?$/ },
  { method: 'POST', path: /^\/api\/threads\/[^/]+\/(interrupt|stop)$/ },
  { method: 'POST', path: /^\/api\/threads\/[^/]+\/subagents\/[^/]+\/stop$/ },
  { method: 'DELETE', path: /^\/api\/session$/ },
  { method: 'POST', path: /^\/api\/push\/subscriptions$/ },
  { method: 'DELETE', path: /^\/api\/push\/subscriptions\/[^/]+$/ },
];

/** The one request a report-only token (role hook) may make: report a hook event (routes-hook-events.ts). */
export const HOOK_EVENTS_PATH = '/api/hook-events';

/** Throws 403 when a caller of this role may not make this request. `role` undefined: the owner. */
export function checkRole(role: DeciderRole | undefined, method: string, path: string): void {
  if (role === 'hook') {
    // It sits in settings files that other programs read: it may report, and see nothing.
    if (method === 'POST' && path === HOOK_EVENTS_PATH) return;
    throw new ApiError(
      403,
      'FORBIDDEN',
      `A report-only token (role hook) reports hook events; it may not ${method} ${path}`,
    );
  }
  if (role === 'observer') {
    if (READS.has(method) || (method === 'DELETE' && path === '/api/session')) return;
    throw new ApiError(
      403,
      'FORBIDDEN',
      `An observer token (role observer) sees everything and decides nothing; it may not ${method} ${path}`,
    );
  }
  if (role !== 'approver' || READS.has(method)) return;
  if (APPROVER_CHANGES.some((change) => change.method === method && change.path.test(path))) return;
  throw new ApiError(
    403,
    'FORBIDDEN',
    `A decide-only token (role approver) answers approvals and reads; it may not ${method} ${path}`,
  );
}

/** The live event stream is a read of every thread: not for a report-only token. */
export function checkSocketRole(role: DeciderRole | undefined): void {
  if (role === 'hook')
    throw new ApiError(403, 'FORBIDDEN', 'A report-only token (role hook) may not follow the event stream');
}

/**
 * An approver's answer stays an answer: it may not switch the thread's mode (a plan's approval can) nor
 * write a rule into the project's settings file, which outlives the thread.
 */
export function checkApproverDecision(
  role: DeciderRole | undefined,
  decision: Pick<DecisionRequest, 'mode' | 'scope'>,
): void {
  if (role !== 'approver') return;
  if (decision.mode !== undefined && decision.mode !== 'supervised')
    throw new ApiError(403, 'FORBIDDEN', 'A decide-only token (role approver) may not change the mode');
  if (decision.scope === 'project')
    throw new ApiError(
      403,
      'FORBIDDEN',
      "A decide-only token (role approver) may not write a rule into the project's settings file",
    );
}
