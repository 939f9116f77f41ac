// "Always allow", with the scope a person picks. The approval offers its exact rules (always-allow.ts);
// the person may keep them, drop some, or narrow one, and picks how long they hold:
//   session  — this CLI session: sent to the CLI as a `session` rule, and applied by Warden's policy while
//              the thread's CLI session id stays the same (a stop and a later send resume that session);
//   thread   — this thread: a Warden rule in the event log, applied by the policy for every later CLI of
//              the thread, across restarts, until someone removes it. The CLI is not told: it keeps asking,
//              and the policy answers, so removing the rule takes effect at once;
//   project  — the project: the CLI writes it to `.claude/settings.local.json` in the thread's directory
//              (destination `localSettings`), only when a person chose exactly that. Warden cannot take it
//              back; the card says so.
// A granted rule is never wider than one the approval showed (ruleWithin); each rule of the request's own
// tool must bear on it (for a path: on the path as written or on where it leads), and the rules together
// must cover it. The Read rules offered with a Bash command (the file it reads, and where a link leads)
// are for the CLI's own path check: they can only be granted exactly as shown.
import { join } from 'node:path';

import { ValidationError } from '../../protocol/errors.js';
import type { PermissionUpdate } from '../../protocol/control.js';
import type {
  ApprovalRecord,
  DecisionGrant,
  GrantDestination,
  GrantScope,
  ThreadRecord,
  ThreadRules,
} from '../../store/records.js';
import { GRANT_SCOPES } from '../../store/records.js';
import { parseRule } from '../../policy/always-allow.js';
import { compilePolicy, coveredByAllowRules } from '../../policy/policy.js';
import { compileRule, pathEnds, ruleMatches, type CompiledRule } from '../../policy/rules.js';

export interface GrantChoice {
  scope: GrantScope;
  /** The rules to add: the approval's own, or a subset, or narrowed ones. */
  rules: string[];
}

/** Checks the scope and rules a person chose for `approval`; defaults: session scope, the offered rules. */
export function validateGrant(
  approval: ApprovalRecord,
  cwd: string,
  scope: unknown,
  rules: unknown,
): GrantChoice {
  if (scope !== undefined && !(GRANT_SCOPES as readonly unknown[]).includes(scope))
    throw new ValidationError(`scope must be one of ${GRANT_SCOPES.join(', ')}`, 'scope');
  const offered = approval.alwaysAllowRules;
  if (rules === undefined)
    return { scope: (scope as GrantScope | undefined) ?? 'session', rules: [...offered] };
  if (!Array.isArray(rules) || rules.length === 0 || rules.length > offered.length + 4)
    throw new ValidationError(
      'rules must be a non-empty array of the rules shown (or narrower ones)',
      'rules',
    );
  const chosen: string[] = [];
  rules.forEach((rule: unknown, index) => {
    const field = `rules[${index}]`;
    if (typeof rule !== 'string' || rule.length > 4096)
      throw new ValidationError(`${field} must be a rule`, field);
    const within = offered.find((shown) => ruleWithin(rule, shown));
    if (within === undefined)
      throw new ValidationError(
        `${field} ${JSON.stringify(rule)} is wider than the rules shown (${offered.join(', ')}); only those or narrower ones can be granted`,
        field,
      );
    if (!bearsOn(compileRule(rule, field), approval, cwd))
      throw new ValidationError(`${field} ${JSON.stringify(rule)} does not cover this request`, field);
    if (!chosen.includes(rule)) chosen.push(rule);
  });
  const policy = compilePolicy('supervised', { allow: chosen, deny: [] }, cwd);
  if (!coveredByAllowRules(policy, approval.toolName, approval.input))
    throw new ValidationError(
      `the rules chosen (${chosen.join(', ')}) do not cover this request: keep the rules shown`,
      'rules',
    );
  return { scope: (scope as GrantScope | undefined) ?? 'session', rules: chosen };
}

/** Does a chosen rule bear on the request: cover it, or one end of its path, or go with it as offered? */
function bearsOn(rule: CompiledRule, approval: ApprovalRecord, cwd: string): boolean {
  const { toolName, input } = approval;
  if (!rule.tool.test(toolName)) return approval.alwaysAllowRules.includes(rule.source);
  if (ruleMatches(rule, toolName, input, cwd, 'allow')) return true;
  const ends = pathEnds(rule, toolName, input, cwd);
  return ends !== undefined && (ends.lexical || ends.real);
}

/**
 * Is `candidate` no wider than `shown`? The same rule; or, for a Bash prefix rule `Bash(git push:*)`, the
 * exact command or a longer prefix that starts with the same words (`Bash(git push origin:*)`).
 */
export function ruleWithin(candidate: string, shown: string): boolean {
  if (candidate === shown) return true;
  const prefix = /^Bash\((.+):\*\)$/s.exec(shown)?.[1];
  if (prefix === undefined) return false;
  const narrower = /^Bash\((.+?)(:\*)?\)$/s.exec(candidate);
  if (narrower === null) return false;
  const words = narrower[1] ?? '';
  // Only plain words: a glob or quote in the narrower rule could make it match differently.
  if (/[*?[\]'"\\]/u.test(words)) return false;
  return words === prefix || words.startsWith(`${prefix} `);
}

/** Where a scope's rules are kept: the CLI's session, Warden's log for the thread, the project's file. */
const DESTINATIONS = {
  session: 'session',
  thread: 'warden',
  project: 'localSettings',
} as const satisfies Record<GrantScope, GrantDestination>;

/** What the CLI is told with the allow: session rules for this session, project rules for its file. */
export function grantUpdates(choice: GrantChoice): PermissionUpdate[] | null {
  const destination = DESTINATIONS[choice.scope];
  if (destination === 'warden') return null;
  return [{ type: 'addRules', rules: choice.rules.map(parseRule), behavior: 'allow', destination }];
}

/**
 * The grant as the decision records it (and the audit trail after it): the rules, the scope, where they
 * are kept and, for the project, the file the CLI writes them to — so a reviewer tells a rule that lapses
 * with the CLI session from one written to the project's settings.
 */
export function decisionGrant(choice: GrantChoice, cwd: string, sessionId: string | null): DecisionGrant {
  const destination = DESTINATIONS[choice.scope];
  return {
    scope: choice.scope,
    rules: [...choice.rules],
    destination,
    settingsFile: settingsFileOf(destination, cwd),
    sessionId: choice.scope === 'session' ? sessionId : null,
  };
}

/** The settings file the CLI writes a destination's rules to, relative to the thread's folder. */
function settingsFileOf(destination: GrantDestination, cwd: string): string | null {
  if (destination === 'localSettings') return join(cwd, '.claude', 'settings.local.json');
  if (destination === 'projectSettings') return join(cwd, '.claude', 'settings.json');
  // The user's file depends on the CLI's environment (CLAUDE_CONFIG_DIR); Warden never writes there.
  return null;
}

/**
 * The thread's rules as its policy applies them: those it was created with, plus the rules granted for
 * the thread and for the CLI session it is in now. Project rules are the CLI's own (it asks no more).
 */
export function effectiveRules(thread: Pick<ThreadRecord, 'rules' | 'grants' | 'sessionId'>): ThreadRules {
  const granted = thread.grants
    .filter(
      (grant) =>
        grant.scope === 'thread' ||
        (grant.scope === 'session' && grant.sessionId === thread.sessionId && grant.sessionId !== null),
    )
    .map((grant) => grant.rule);
  if (granted.length === 0) return thread.rules;
  return {
    allow: [...thread.rules.allow, ...granted.filter((rule) => !thread.rules.allow.includes(rule))],
    deny: thread.rules.deny,
  };
}
