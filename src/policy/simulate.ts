// What a proposed policy change would have decided for the requests already recorded: each past request
// (tool, input as recorded, what the CLI said when it asked) is put to the very function the supervisor
// asks live (`requestVerdict`), with the thread's policy as it is now plus the change, and set beside what
// was decided then. Pure: the caller gathers the requests (the supervisor reads them from its log).
import {
  THREAD_MODES,
  type ApprovalDeadline,
  type ThreadDeadlines,
  type ThreadMode,
  type ThreadRules,
} from '../store/records.js';
import { ValidationError } from '../protocol/errors.js';
import { compilePolicy, requestVerdict, validateRules } from './policy.js';
import { withRememberedPaths } from './real-paths.js';
import type { PolicyStepId } from './order.js';
import type { CliContext, CompiledPolicy, PolicyVerdict } from './verdict.js';

/** How a past request ended: the policy's answer, or a person's (or a deadline's) to an ask. */
export type PastOutcome = 'allowed' | 'denied' | 'pending' | 'cancelled' | 'expired';

export interface RecordedRequest {
  /** The log's seq of the request (its `permission.decided` or `approval.requested`). */
  readonly seq: number;
  readonly at: string;
  readonly threadId: string;
  readonly toolName: string;
  readonly input: Record<string, unknown>;
  readonly cli: CliContext;
  /** What the policy said then: an ask became an approval. */
  readonly then: 'allow' | 'deny' | 'ask';
  readonly outcome: PastOutcome;
  /** When it was answered or ended (the policy's answer: at once); null while it waits; absent: unknown. */
  readonly settledAt?: string | null | undefined;
}

/** A proposed change: rules added or removed, a mode. */
export interface PolicyChange {
  readonly allow?: readonly string[] | undefined;
  readonly deny?: readonly string[] | undefined;
  /** Rules taken out, from allow and deny alike. */
  readonly remove?: readonly string[] | undefined;
  readonly mode?: ThreadMode | undefined;
  /**
   * Deadlines that replace the thread's (as `PUT /api/threads/:id/deadlines` would): the simulation says
   * which past asks a deadline would have answered. Validated by the supervisor (deadlines.ts).
   */
  readonly deadlines?: DeadlinesChange | undefined;
}

/** Deadlines as a change names them: what is left out is none (no default, no rules). */
export interface DeadlinesChange {
  readonly afterMs?: number | null | undefined;
  readonly rules?: ThreadDeadlines['rules'] | undefined;
}

/** A thread's policy now, before the change. */
export interface ThreadPolicy {
  readonly mode: ThreadMode;
  readonly rules: ThreadRules;
  readonly cwd: string;
  readonly osEnforced: boolean;
}

export interface SimulatedRequest {
  readonly seq: number;
  readonly at: string;
  readonly threadId: string;
  readonly toolName: string;
  readonly input: Record<string, unknown>;
  readonly then: RecordedRequest['then'];
  readonly outcome: PastOutcome;
  readonly now: PolicyVerdict['behavior'];
  readonly reason: string;
  readonly step: PolicyStepId;
  readonly changed: boolean;
  /** When it was answered or ended (as recorded); null: it still waits. */
  readonly settledAt: string | null;
  /**
   * With deadlines in the change: the deadline that would have answered this ask (still an ask under the
   * change) before anyone did — it was answered after it, or not at all.
   */
  readonly deadline?: ApprovalDeadline;
}

/** What the deadlines of a change would have answered (docs/decisions.md). */
export interface DeadlineSummary {
  /** Past asks a deadline would have answered: this many allowed, this many denied. */
  readonly decided: number;
  readonly allowed: number;
  readonly denied: number;
  /** Of them: answered later by a person the other way; never answered (still waiting, cancelled, expired). */
  readonly overturned: number;
  readonly unanswered: number;
}

export interface SimulationSummary {
  readonly requests: number;
  readonly changed: number;
  /** Past asks the new policy would allow, of which this many a person had denied. */
  readonly asksAllowed: number;
  readonly deniedAsksAllowed: number;
  readonly asksDenied: number;
  /** Past denials (by the policy or a person) it would allow. */
  readonly denialsAllowed: number;
  /** Past allows (by the policy or a person) it would deny or ask. */
  readonly allowsDenied: number;
  readonly allowsAsked: number;
  /** Protected writes whose verdict changes: none can, by the order (step 2 asks whatever the rules). */
  readonly protectedAffected: number;
  /** Present when the change has deadlines. */
  readonly deadlines?: DeadlineSummary;
}

export interface Simulation {
  readonly summary: SimulationSummary;
  readonly requests: readonly SimulatedRequest[];
  /** The summary in one sentence, for a card or a terminal. */
  readonly text: string;
}

/** Checks a change as it came from a client; the thrown ValidationError names the field. */
export function validatePolicyChange(change: unknown): PolicyChange {
  if (change === null || typeof change !== 'object' || Array.isArray(change))
    throw new ValidationError('change must be an object', 'change');
  const { allow, deny, remove, mode } = change as Record<string, unknown>;
  const rules = validateRules({
    ...(allow === undefined ? {} : { allow }),
    ...(deny === undefined ? {} : { deny }),
  });
  if (remove !== undefined && (!Array.isArray(remove) || remove.some((rule) => typeof rule !== 'string')))
    throw new ValidationError('change.remove must be an array of rules', 'change.remove');
  if (mode !== undefined && !(THREAD_MODES as readonly unknown[]).includes(mode))
    throw new ValidationError(`change.mode must be one of ${THREAD_MODES.join(', ')}`, 'change.mode');
  return {
    ...(allow === undefined ? {} : { allow: rules.allow }),
    ...(deny === undefined ? {} : { deny: rules.deny }),
    ...(remove === undefined ? {} : { remove: remove as string[] }),
    ...(mode === undefined ? {} : { mode: mode as ThreadMode }),
  };
}

/** A thread's policy with the change applied. */
export function changedPolicy(current: ThreadPolicy, change: PolicyChange): CompiledPolicy {
  const removed = new Set(change.remove ?? []);
  const merge = (now: readonly string[], added: readonly string[] = []) => [
    ...new Set([...now.filter((rule) => !removed.has(rule)), ...added]),
  ];
  return compilePolicy(
    change.mode ?? current.mode,
    { allow: merge(current.rules.allow, change.allow), deny: merge(current.rules.deny, change.deny) },
    current.cwd,
    current.osEnforced,
  );
}

const PAST_BEHAVIOR: Readonly<Record<PastOutcome, 'allow' | 'deny' | null>> = {
  allowed: 'allow',
  denied: 'deny',
  pending: null,
  cancelled: null,
  expired: 'deny',
};

/**
 * Each request of a thread `policyOf` knows, under that thread's policy with the change. A thread it
 * does not know (out of the scope asked about) is left out.
 */
export function simulatePolicy(
  requests: Iterable<RecordedRequest>,
  policyOf: (threadId: string) => ThreadPolicy | undefined,
  change: PolicyChange,
): Simulation {
  // The filesystem as it is now, read once per path: the same answer the live policy would get now.
  return withRememberedPaths(() => simulateEach(requests, policyOf, change));
}

function simulateEach(
  requests: Iterable<RecordedRequest>,
  policyOf: (threadId: string) => ThreadPolicy | undefined,
  change: PolicyChange,
): Simulation {
  const compiled = new Map<string, CompiledPolicy | null>();
  const policyFor = (threadId: string): CompiledPolicy | null => {
    let policy = compiled.get(threadId);
    if (policy === undefined) {
      const current = policyOf(threadId);
      policy = current === undefined ? null : changedPolicy(current, change);
      compiled.set(threadId, policy);
    }
    return policy;
  };
  const rows: SimulatedRequest[] = [];
  const counts = {
    changed: 0,
    asksAllowed: 0,
    deniedAsksAllowed: 0,
    asksDenied: 0,
    denialsAllowed: 0,
    allowsDenied: 0,
    allowsAsked: 0,
    protectedAffected: 0,
  };
  for (const request of requests) {
    const policy = policyFor(request.threadId);
    if (policy === null) continue;
    const { step, verdict } = requestVerdict(policy, request.toolName, request.input, request.cli);
    const now = verdict.behavior;
    const changed = now !== request.then;
    const past = request.then === 'ask' ? PAST_BEHAVIOR[request.outcome] : request.then;
    if (changed) {
      counts.changed++;
      if (step === 'protected-write') counts.protectedAffected++;
      if (request.then === 'ask' && now === 'allow') counts.asksAllowed++;
      if (request.then === 'ask' && now === 'allow' && past === 'deny') counts.deniedAsksAllowed++;
      if (request.then === 'ask' && now === 'deny') counts.asksDenied++;
    }
    if (past === 'deny' && now === 'allow') counts.denialsAllowed++;
    if (past === 'allow' && now === 'deny') counts.allowsDenied++;
    if (request.then === 'allow' && now === 'ask') counts.allowsAsked++;
    rows.push({
      seq: request.seq,
      at: request.at,
      threadId: request.threadId,
      toolName: request.toolName,
      input: request.input,
      then: request.then,
      outcome: request.outcome,
      now,
      reason: verdict.reason,
      step,
      changed,
      settledAt: request.settledAt ?? (request.then === 'ask' ? null : request.at),
    });
  }
  const summary: SimulationSummary = { requests: rows.length, ...counts };
  return { summary, requests: rows, text: describeSimulation(summary) };
}

/** A request the change decides otherwise, or whose ask one of its deadlines would have answered. */
export function decidedOtherwise(request: SimulatedRequest): boolean {
  return request.changed || request.deadline !== undefined;
}

/** "214 asks would have been allowed, 3 past denials would have been allowed, …" */
export function describeSimulation(summary: SimulationSummary): string {
  const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  const parts = [
    `${n(summary.asksAllowed, 'ask', 'asks')} would have been allowed${summary.deniedAsksAllowed > 0 ? ` (${summary.deniedAsksAllowed} of them denied by a person then)` : ''}`,
    `${n(summary.asksDenied, 'ask', 'asks')} would have been denied`,
    `${n(summary.denialsAllowed, 'past denial', 'past denials')} would have been allowed`,
    `${n(summary.allowsDenied, 'past allow', 'past allows')} would have been denied`,
    `${n(summary.allowsAsked, 'policy allow', 'policy allows')} would have been asked`,
    `${n(summary.protectedAffected, 'protected write', 'protected writes')} affected`,
  ];
  const text = `Of ${n(summary.requests, 'recorded request', 'recorded requests')}, ${summary.changed} would be decided otherwise: ${parts.join(', ')}.`;
  const { deadlines } = summary;
  if (deadlines === undefined) return text;
  const why = [
    ...(deadlines.overturned > 0 ? [`${deadlines.overturned} answered the other way later`] : []),
    ...(deadlines.unanswered > 0 ? [`${deadlines.unanswered} never answered`] : []),
  ];
  return (
    `${text} With the deadlines, ${n(deadlines.decided, 'ask', 'asks')} would have been answered by a deadline ` +
    `(${deadlines.allowed} allowed, ${deadlines.denied} denied)${why.length > 0 ? `: ${why.join(', ')}` : ''}.`
  );
}
