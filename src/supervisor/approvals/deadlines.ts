// Deadlines with default decisions: "if nobody answers within 30 minutes, deny". A thread may have one
// default deadline (it can only deny) and deadline rules for calls a rule matches, which may allow — a
// person marks such a rule safe by writing `behavior: 'allow'`. The deadline is worked out when the
// approval is made and stored with it, so a later change of the thread's deadlines does not move the
// clock of a card someone is already looking at, and a host that was down when it passed applies it at
// open (deadline-clock.ts).
import { ValidationError } from '../../protocol/errors.js';
import type { ApprovalDeadline, ThreadDeadlines } from '../../store/records.js';
import { compileRule, ruleMatches } from '../../policy/rules.js';

/** Shortest and longest wait a deadline may have: a second (tests, batch jobs) to thirty days. */
export const MIN_DEADLINE_MS = 1000;
export const MAX_DEADLINE_MS = 30 * 24 * 60 * 60 * 1000;
/** Deadline rules per thread: enough for a policy, few enough to match on every request. */
const MAX_DEADLINE_RULES = 64;

export const NO_DEADLINES: ThreadDeadlines = { afterMs: null, rules: [] };

/** Checks deadlines a caller passes: `{ afterMs?, rules?: [{ rule, afterMs, behavior }] }`. */
export function validateDeadlines(value: unknown, field = 'deadlines'): ThreadDeadlines {
  if (value === undefined || value === null) return NO_DEADLINES;
  if (typeof value !== 'object' || Array.isArray(value))
    throw new ValidationError(`${field} must be { afterMs?, rules? }`, field);
  const { afterMs = null, rules = [], ...rest } = value as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined)
    throw new ValidationError(`${field}.${unknown} is not a deadline setting`, field);
  if (!Array.isArray(rules) || rules.length > MAX_DEADLINE_RULES)
    throw new ValidationError(
      `${field}.rules must be an array of at most ${MAX_DEADLINE_RULES}`,
      `${field}.rules`,
    );
  return {
    afterMs: afterMs === null ? null : validateWait(afterMs, `${field}.afterMs`),
    rules: rules.map((entry: unknown, index) => {
      const where = `${field}.rules[${index}]`;
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
        throw new ValidationError(`${where} must be { rule, afterMs, behavior }`, where);
      const { rule, afterMs: wait, behavior } = entry as Record<string, unknown>;
      compileRule(rule, `${where}.rule`);
      if (behavior !== 'allow' && behavior !== 'deny')
        throw new ValidationError(`${where}.behavior must be allow or deny`, `${where}.behavior`);
      return { rule: rule as string, afterMs: validateWait(wait, `${where}.afterMs`), behavior };
    }),
  };
}

/** A wait of a deadline or a route's step, in whole milliseconds within the bounds. */
export function validateWait(value: unknown, field: string): number {
  if (!Number.isInteger(value) || (value as number) < MIN_DEADLINE_MS || (value as number) > MAX_DEADLINE_MS)
    throw new ValidationError(
      `${field} must be a whole number of milliseconds from ${MIN_DEADLINE_MS} to ${MAX_DEADLINE_MS}`,
      field,
    );
  return value as number;
}

/**
 * The deadline of a new approval: the first deadline rule that covers the call (an allowing rule must
 * cover it as an allow rule would — every part of a command), else the thread's default, else none. A
 * `guarded` call (the policy asked because it writes a protected or sensitive file) is never allowed by
 * a deadline: allowing rules are passed over, a denying one or the default may still answer it.
 */
export function deadlineFor(
  deadlines: ThreadDeadlines,
  request: { toolName: string; input: Record<string, unknown>; cwd: string; guarded?: boolean },
  now: number = Date.now(),
): ApprovalDeadline | null {
  for (const entry of deadlines.rules) {
    if (request.guarded === true && entry.behavior === 'allow') continue;
    const rule = compileRule(entry.rule);
    if (ruleMatches(rule, request.toolName, request.input, request.cwd, entry.behavior))
      return { at: new Date(now + entry.afterMs).toISOString(), behavior: entry.behavior, rule: entry.rule };
  }
  if (deadlines.afterMs === null) return null;
  return { at: new Date(now + deadlines.afterMs).toISOString(), behavior: 'deny', rule: null };
}

/** What the model reads when a deadline answered for the person. */
export function deadlineMessage(deadline: ApprovalDeadline): string {
  const because = deadline.rule === null ? "the thread's deadline" : `the deadline of rule ${deadline.rule}`;
  return `No one answered in time: denied by ${because}`;
}
