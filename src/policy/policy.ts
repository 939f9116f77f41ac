// The policy decides a permission request before anyone is asked: the steps of POLICY_ORDER (order.ts) in
// turn — deny rule, protected write, a Bash command the parse cannot see through while deny rules for Bash
// exist, allow rule, mode — and the first verdict stands. A pure function of the request, the rules and
// the mode (it reads the filesystem only to resolve symlinks). Rules and modes arrive from callers here:
// they are validated once, then compiled.
import { ValidationError } from '../protocol/errors.js';
import type { ThreadMode, ThreadRules } from '../store/records.js';
import { THREAD_MODES } from '../store/records.js';
import { POLICY_ORDER, type PolicyStepId } from './order.js';
import { compileRule } from './rules.js';
import { analyzeShell } from './shell-commands.js';
import { askingPersonQuestions } from './person-questions.js';
import type { CliContext, CompiledPolicy, PolicyVerdict } from './verdict.js';

export { EDIT_TOOLS } from './cli-verdict.js';
export { isInside } from './real-paths.js';

export type { CliContext, CompiledPolicy, PolicyVerdict } from './verdict.js';

export function validateMode(mode: unknown, field = 'mode'): ThreadMode {
  if (typeof mode !== 'string' || !(THREAD_MODES as readonly string[]).includes(mode))
    throw new ValidationError(
      `${field} must be one of ${THREAD_MODES.join(', ')}; got ${JSON.stringify(mode)}`,
      field,
    );
  return mode as ThreadMode;
}

/** Checks `rules` from the caller and returns them in the stored shape; throws ValidationError. */
export function validateRules(rules: unknown): ThreadRules {
  if (rules === undefined) return { allow: [], deny: [] };
  if (typeof rules !== 'object' || rules === null || Array.isArray(rules))
    throw new ValidationError('rules must be an object { allow?: string[], deny?: string[] }', 'rules');
  const result: ThreadRules = { allow: [], deny: [] };
  for (const key of Object.keys(rules)) {
    if (key !== 'allow' && key !== 'deny')
      throw new ValidationError(`rules.${key} is not allow or deny`, 'rules');
  }
  for (const effect of ['allow', 'deny'] as const) {
    const list = (rules as Record<string, unknown>)[effect];
    if (list === undefined) continue;
    if (!Array.isArray(list))
      throw new ValidationError(`rules.${effect} must be an array`, `rules.${effect}`);
    list.forEach((rule, index) => compileRule(rule, `rules.${effect}[${index}]`));
    result[effect] = [...(list as string[])];
  }
  return result;
}

export function compilePolicy(
  mode: ThreadMode,
  rules: ThreadRules,
  cwd: string,
  osEnforced = false,
): CompiledPolicy {
  return {
    mode,
    cwd,
    osEnforced,
    allow: rules.allow.map((rule) => compileRule(rule)),
    deny: rules.deny.map((rule) => compileRule(rule)),
  };
}

/** Compiled policies kept by what they were compiled from; past this many the memory starts again. */
const COMPILED_KEPT = 256;
const compiled = new Map<string, CompiledPolicy>();

/**
 * compilePolicy, once for each mode, rules, cwd and sandbox state: a thread's requests come far more often
 * than its rules change, and what the policy works out once per compiled policy (the runners its rules
 * allow, each path's manifest: runner-manifests.ts) is kept with the object, so it must be the same one.
 */
export function compiledPolicyFor(
  mode: ThreadMode,
  rules: ThreadRules,
  cwd: string,
  osEnforced = false,
): CompiledPolicy {
  const key = JSON.stringify([mode, cwd, osEnforced, rules.allow, rules.deny]);
  let policy = compiled.get(key);
  if (policy === undefined) {
    policy = compilePolicy(mode, rules, cwd, osEnforced);
    if (compiled.size >= COMPILED_KEPT) compiled.clear();
    compiled.set(key, policy);
  }
  return policy;
}

/** The verdict on one permission request: the first step of POLICY_ORDER (order.ts) that decides. */
export function evaluatePolicy(
  policy: CompiledPolicy,
  toolName: string,
  input: Record<string, unknown>,
  cli: CliContext = {},
): PolicyVerdict {
  return decidingStep(policy, toolName, input, cli).verdict;
}

/** The verdict and the step of POLICY_ORDER that reached it. */
export function decidingStep(
  policy: CompiledPolicy,
  toolName: string,
  input: Record<string, unknown>,
  cli: CliContext = {},
): { step: PolicyStepId; verdict: PolicyVerdict } {
  const shell = toolName === 'Bash' ? analyzeShell(stringField(input, 'command') ?? '') : undefined;
  const request = { policy, toolName, input, cli, shell };
  for (const step of POLICY_ORDER) {
    const verdict = step.decide(request);
    if (verdict !== undefined) return { step: step.id, verdict };
  }
  // The mode step always decides; should a step be added wrongly, the request fails safe.
  return { step: 'mode', verdict: { behavior: 'ask', reason: 'no step of the policy decided' } };
}

/**
 * Why the policy holds this request for a person whatever the rules and the mode say — it writes a
 * protected file, or the CLI called it sensitive — or undefined. The protected-write step alone, so that
 * what may never be allowed in bulk or by a clock (batches, deadlines) is judged as the policy judges it.
 */
export function protectedWriteReason(
  policy: CompiledPolicy,
  toolName: string,
  input: Record<string, unknown>,
  cli: CliContext = {},
): string | undefined {
  const step = POLICY_ORDER.find((candidate) => candidate.id === 'protected-write');
  const shell = toolName === 'Bash' ? analyzeShell(stringField(input, 'command') ?? '') : undefined;
  const verdict = step?.decide({ policy, toolName, input, cli, shell });
  return verdict?.reason;
}

/**
 * Whether the policy's allow rules cover this call on their own — the allow-rule step, whatever an earlier
 * step (a protected write, say) would decide first. For checking the rules a person grants.
 */
export function coveredByAllowRules(
  policy: CompiledPolicy,
  toolName: string,
  input: Record<string, unknown>,
): boolean {
  const shell = toolName === 'Bash' ? analyzeShell(stringField(input, 'command') ?? '') : undefined;
  const step = POLICY_ORDER.find((candidate) => candidate.id === 'allow-rule');
  return step?.decide({ policy, toolName, input, cli: {}, shell })?.behavior === 'allow';
}

function stringField(input: Record<string, unknown>, key: string): string | undefined {
  const value = input[key];
  return typeof value === 'string' ? value : undefined;
}

/** The verdict a request gets live: the deciding step, with questions for a person always asked. */
export function requestVerdict(
  policy: CompiledPolicy,
  toolName: string,
  input: Record<string, unknown>,
  cli: CliContext = {},
): { step: PolicyStepId; verdict: PolicyVerdict } {
  const decided = decidingStep(policy, toolName, input, cli);
  return { step: decided.step, verdict: askingPersonQuestions(toolName, decided.verdict) };
}
