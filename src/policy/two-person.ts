// Two-person rules: which approvals need the allows of two different deciders before the CLI hears
// allow. A host's `requireTwo` lists two built-in kinds and rule patterns:
//
//   protected-writes    an approval the policy asked for because of a protected (or CLI-sensitive) write
//   full-access         any approval of a thread in full-access mode (what its policy still asks for)
//   Bash(git push:*)    any approval of a call the pattern covers, matched as a deny rule is (for Bash:
//                       any simple command of the parse, seen through wrappers), so no spelling escapes it
//
// Questions for a person (AskUserQuestion, ExitPlanMode) are answers, not actions: never two-person.
// Pure: the permission gate asks it when it makes an approval, and the answer is kept on the approval.
import { ValidationError } from '../protocol/errors.js';
import type { PolicyStepId } from './order.js';
import { QUESTIONS_FOR_A_PERSON } from './person-questions.js';
import { compileRule, ruleMatches, type CompiledRule } from './rules.js';
import { analyzeShell } from './shell-commands.js';
import type { CompiledPolicy } from './verdict.js';

export const TWO_PERSON_KINDS = ['protected-writes', 'full-access'] as const;
export type TwoPersonKind = (typeof TWO_PERSON_KINDS)[number];

export interface TwoPersonRules {
  readonly protectedWrites: boolean;
  readonly fullAccess: boolean;
  readonly rules: readonly CompiledRule[];
}

export const NO_TWO_PERSON_RULES: TwoPersonRules = { protectedWrites: false, fullAccess: false, rules: [] };

/** Checks a `requireTwo` list (the kinds above and rule patterns); throws ValidationError naming the entry. */
export function compileTwoPersonRules(entries: unknown, field = 'requireTwo'): TwoPersonRules {
  if (entries === undefined) return NO_TWO_PERSON_RULES;
  if (!Array.isArray(entries))
    throw new ValidationError(`${field} must be an array of ${TWO_PERSON_KINDS.join(', ')} or rules`, field);
  const kinds = new Set<string>();
  const rules: CompiledRule[] = [];
  entries.forEach((entry: unknown, index) => {
    if (typeof entry === 'string' && (TWO_PERSON_KINDS as readonly string[]).includes(entry))
      kinds.add(entry);
    else rules.push(compileRule(entry, `${field}[${index}]`));
  });
  return { protectedWrites: kinds.has('protected-writes'), fullAccess: kinds.has('full-access'), rules };
}

/** What the gate knows of a request it is about to ask a person about. */
export interface TwoPersonRequest {
  readonly policy: CompiledPolicy;
  readonly toolName: string;
  readonly input: Record<string, unknown>;
  /** The policy step that asked (policy.ts's requestVerdict). */
  readonly step: PolicyStepId;
}

/** Why this approval needs two deciders' allows, or null when one allow answers it. */
export function twoPersonReason(rules: TwoPersonRules, request: TwoPersonRequest): string | null {
  const { policy, toolName, input, step } = request;
  if (QUESTIONS_FOR_A_PERSON.has(toolName)) return null;
  if (rules.protectedWrites && step === 'protected-write') return 'protected write';
  if (rules.fullAccess && policy.mode === 'full-access') return 'full-access thread';
  if (rules.rules.length === 0) return null;
  const command = input.command;
  const shell = toolName === 'Bash' && typeof command === 'string' ? analyzeShell(command) : undefined;
  const rule = rules.rules.find((candidate) =>
    ruleMatches(candidate, toolName, input, policy.cwd, 'deny', shell),
  );
  return rule === undefined ? null : `rule ${rule.source}`;
}
