// A proposed policy change replayed over the permission requests in the log (policy/simulate.ts decides;
// this gathers): every `permission.decided` (the policy answered) and `approval.requested` (it asked, and
// how the approval ended) of the threads in scope, within the period, with what the CLI said when it
// asked. Each thread's policy is the one it has now (mode, rules and grants), plus the change.
import { ValidationError } from '../../protocol/errors.js';
import {
  simulatePolicy,
  validatePolicyChange,
  type PastOutcome,
  type PolicyChange,
  type RecordedRequest,
  type Simulation,
  type ThreadPolicy,
} from '../../policy/simulate.js';
import { isInside } from '../../policy/real-paths.js';
import type { Store } from '../../store/store.js';
import type { StoredEvent } from '../../store/event-types.js';
import type { ThreadRecord } from '../../store/records.js';
import { answeredByDeadlines } from './deadline-simulation.js';
import { validateDeadlines } from './deadlines.js';
import { effectiveRules } from './grants.js';

/** Which threads a simulation covers: one, those whose cwd is a folder or under it, or every thread. */
export type SimulationScope = { readonly threadId: string } | { readonly cwd: string } | 'all';

export interface SimulationRequest {
  readonly scope: SimulationScope;
  readonly change: PolicyChange;
  /** ISO times: only requests at or after `since`, before `until`. */
  readonly since?: string | undefined;
  readonly until?: string | undefined;
}

const PAGE = 5000;

function isoTime(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value)))
    throw new ValidationError(`${field} must be an ISO time`, field);
  return new Date(value).toISOString();
}

/** Checks a simulation request as it came from a client; the ValidationError names the field. */
export function validateSimulationRequest(raw: unknown): SimulationRequest {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new ValidationError('the request must be an object', 'request');
  const { scope, change, since, until } = raw as Record<string, unknown>;
  let checked: SimulationScope;
  if (scope === undefined || scope === 'all') checked = 'all';
  else if (
    typeof scope === 'object' &&
    scope !== null &&
    typeof (scope as { threadId?: unknown }).threadId === 'string'
  )
    checked = { threadId: (scope as { threadId: string }).threadId };
  else if (
    typeof scope === 'object' &&
    scope !== null &&
    typeof (scope as { cwd?: unknown }).cwd === 'string'
  )
    checked = { cwd: (scope as { cwd: string }).cwd };
  else throw new ValidationError("scope must be 'all', { threadId } or { cwd }", 'scope');
  const deadlines = (change as { deadlines?: unknown } | undefined)?.deadlines;
  return {
    scope: checked,
    change: {
      ...validatePolicyChange(change ?? {}),
      ...(deadlines === undefined ? {} : { deadlines: validateDeadlines(deadlines, 'change.deadlines') }),
    },
    since: isoTime(since, 'since'),
    until: isoTime(until, 'until'),
  };
}

function inScope(scope: SimulationScope, thread: ThreadRecord): boolean {
  if (scope === 'all') return true;
  if ('threadId' in scope) return thread.id === scope.threadId;
  return isInside(scope.cwd, thread.cwd);
}

/** What the simulation reads of the log: the requests, and how each approval ended. */
const READ_TYPES = [
  'permission.decided',
  'approval.requested',
  'approval.decided',
  'approval.cancelled',
  'approval.expired',
] as const;

/** A request as it is read, its outcome filled in once the approval's end is read further on. */
type Reading = { -readonly [K in keyof RecordedRequest]: RecordedRequest[K] };

/**
 * The permission requests of the log, oldest first, as the simulation reads them: one pass over the
 * events of the kinds it needs (the rest is not even parsed), an approval's outcome from the event that
 * ended it.
 */
export function recordedRequests(
  store: Store,
  wanted: (threadId: string) => boolean,
  period: { since?: string | undefined; until?: string | undefined } = {},
  threadId?: string,
): RecordedRequest[] {
  const requests: Reading[] = [];
  const asks = new Map<string, Reading>();
  for (let after = 0; ;) {
    const page = store.readEvents({
      after,
      limit: PAGE,
      types: READ_TYPES,
      ...(threadId === undefined ? {} : { threadId }),
    });
    for (const event of page) {
      if (!wanted(event.threadId)) continue;
      if (
        event.type === 'approval.decided' ||
        event.type === 'approval.cancelled' ||
        event.type === 'approval.expired'
      ) {
        const ask = asks.get(event.data.approvalId);
        if (ask === undefined) continue;
        ask.outcome = settledAs(event);
        ask.settledAt = event.at;
        continue;
      }
      if (period.since !== undefined && event.at < period.since) continue;
      if (period.until !== undefined && event.at >= period.until) continue;
      // Each field named (no spread of a shared part): the objects keep one shape, and building 100,000
      // of them costs half as much.
      const { seq, at, threadId } = event;
      if (event.type === 'permission.decided') {
        const { data } = event;
        requests.push({
          seq,
          at,
          threadId,
          toolName: data.toolName,
          input: data.input,
          cli: { decisionReason: data.decisionReason ?? null, blockedPath: data.blockedPath ?? null },
          then: data.behavior,
          outcome: data.behavior === 'allow' ? 'allowed' : 'denied',
          settledAt: event.at,
        });
      } else if (event.type === 'approval.requested') {
        const { data } = event;
        const ask: Reading = {
          seq,
          at,
          threadId,
          toolName: data.toolName,
          input: data.input,
          cli: { decisionReason: data.decisionReason, blockedPath: data.blockedPath },
          then: 'ask',
          outcome: 'pending',
          settledAt: null,
        };
        requests.push(ask);
        asks.set(data.approvalId, ask);
      }
    }
    const last = page.at(-1);
    if (last === undefined || page.length < PAGE) return requests;
    after = last.seq;
  }
}

/** How the event that ended an approval left it (the projector's statuses, from the log). */
function settledAs(
  event: Extract<StoredEvent, { type: 'approval.decided' | 'approval.cancelled' | 'approval.expired' }>,
): PastOutcome {
  switch (event.type) {
    case 'approval.decided':
      return event.data.behavior === 'deny' ? 'denied' : 'allowed';
    case 'approval.cancelled':
      return 'cancelled';
    case 'approval.expired':
      return 'expired';
  }
}

/** A thread's policy now, as a simulation starts from; `osEnforced` as the host's sandbox holds now. */
export function threadPolicy(thread: ThreadRecord, osEnforced: boolean): ThreadPolicy {
  // A session Warden did not start runs in no sandbox of Warden's, whatever this host's CLIs run in.
  const confined = osEnforced && thread.kind !== 'external';
  return { mode: thread.mode, rules: effectiveRules(thread), cwd: thread.cwd, osEnforced: confined };
}

/**
 * Replays `request.change` over the log of the threads in scope; `osEnforced` as the host's sandbox holds
 * now; `now` is when (for the deadlines of the change: an ask still waiting counts once one is past).
 */
export function simulateOverLog(
  store: Store,
  request: SimulationRequest,
  osEnforced: boolean,
  now: number = Date.now(),
): Simulation {
  const threads = new Map(
    store
      .listThreads()
      .filter((thread) => inScope(request.scope, thread))
      .map((thread) => [thread.id, thread] as const),
  );
  const policyOf = (threadId: string): ThreadPolicy | undefined => {
    const thread = threads.get(threadId);
    return thread === undefined ? undefined : threadPolicy(thread, osEnforced);
  };
  const { scope } = request;
  const only = typeof scope === 'object' && 'threadId' in scope ? scope.threadId : undefined;
  const requests = recordedRequests(store, (threadId) => threads.has(threadId), request, only);
  const simulation = simulatePolicy(requests, policyOf, request.change);
  const { deadlines } = request.change;
  if (deadlines === undefined) return simulation;
  const checked = validateDeadlines(deadlines, 'change.deadlines');
  return answeredByDeadlines(simulation, checked, (threadId) => threads.get(threadId)?.cwd, now);
}
