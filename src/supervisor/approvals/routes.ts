// Routes: what happens to an approval nobody answers. A route covers approvals as a decider's scope does
// (scope.ts); after `remindAfterMs` those who may answer are reminded, after `escalateAfterMs` the
// deciders of `to` may answer too and are told. The first route that covers an approval is its route; its
// times are worked out when the approval is made and kept with it, as a deadline's is (deadlines.ts), so
// they hold across restarts. A route is meant to act before the thread's deadline answers for the person:
// a deadline that comes first settles the approval and the route's steps are not taken.
import { ValidationError } from '../../protocol/errors.js';
import type { ApprovalEscalation, ApprovalRouting } from '../../store/records.js';
import { validateWait as wait } from './deadlines.js';
import { risksOf, scopeCovers, validateScope, type ApprovalScope, type ScopeTarget } from './scope.js';

export interface ApprovalRoute {
  /** How audit records and events name it. */
  name: string;
  /** The approvals it covers (default: all). */
  match?: ApprovalScope;
  /** Remind those who may answer after this long unanswered (default: no reminder). */
  remindAfterMs?: number;
  /** Let `to` answer, and tell them, after this long unanswered. */
  escalateAfterMs: number;
  /** Decider names (`ops`, a shared token, is a group). */
  to: string[];
}

const ROUTE_NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;
const MAX_ROUTES = 64;

export function validateRoutes(value: unknown, field = 'routes'): ApprovalRoute[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > MAX_ROUTES)
    throw new TypeError(`options.${field} must be an array of at most ${MAX_ROUTES} routes`);
  const names = new Set<string>();
  return value.map((entry: unknown, index) => {
    const where = `${field}[${index}]`;
    try {
      const route = validateRoute(entry, where);
      if (names.has(route.name)) throw new ValidationError(`${where}.name ${route.name} is taken`, where);
      names.add(route.name);
      return route;
    } catch (error) {
      throw new TypeError(`options.${(error as Error).message}`);
    }
  });
}

function validateRoute(entry: unknown, where: string): ApprovalRoute {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    throw new ValidationError(
      `${where} must be { name, match?, remindAfterMs?, escalateAfterMs, to }`,
      where,
    );
  const { name, match, remindAfterMs, escalateAfterMs, to, ...rest } = entry as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) throw new ValidationError(`${where}.${unknown} is not a route setting`, where);
  if (typeof name !== 'string' || !ROUTE_NAME.test(name))
    throw new ValidationError(`${where}.name must be 1-32 lower-case letters, digits, - or _`, where);
  if (!Array.isArray(to) || to.length === 0 || to.some((n) => typeof n !== 'string' || !ROUTE_NAME.test(n)))
    throw new ValidationError(`${where}.to must name one or more deciders`, where);
  const escalate = wait(escalateAfterMs, `${where}.escalateAfterMs`);
  const remind = remindAfterMs === undefined ? undefined : wait(remindAfterMs, `${where}.remindAfterMs`);
  if (remind !== undefined && remind >= escalate)
    throw new ValidationError(`${where}.remindAfterMs must be shorter than escalateAfterMs`, where);
  return {
    name,
    ...(match === undefined ? {} : { match: validateScope(match, `${where}.match`) }),
    ...(remind === undefined ? {} : { remindAfterMs: remind }),
    escalateAfterMs: escalate,
    to: [...new Set(to as string[])],
  };
}

/** The escalation of a new approval: the first route that covers it, with its times from `now`. */
export function escalationFor(
  routes: readonly ApprovalRoute[],
  target: ScopeTarget,
  now: number = Date.now(),
): ApprovalEscalation | null {
  const route = routes.find((candidate) => scopeCovers(candidate.match ?? {}, target));
  if (route === undefined) return null;
  const at = (ms: number): string => new Date(now + ms).toISOString();
  return {
    route: route.name,
    remindAt: route.remindAfterMs === undefined ? null : at(route.remindAfterMs),
    escalateAt: at(route.escalateAfterMs),
    to: [...route.to],
    remindedAt: null,
    escalatedAt: null,
  };
}

/** A new approval's routing: its risks, and the escalation of its route. */
export function routingFor(
  routes: readonly ApprovalRoute[],
  request: { toolName: string; input: Record<string, unknown>; cwd: string; guarded: boolean },
  now: number = Date.now(),
): ApprovalRouting {
  const { toolName, input, cwd, guarded } = request;
  const risks = risksOf(toolName, input, guarded);
  return { risks, escalation: escalationFor(routes, { toolName, input, cwd, risks }, now) };
}
