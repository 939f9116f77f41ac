// The policy inside an SDK application's own `canUseTool`: what the callback receives (tool name, input,
// the CLI's context) in, the SDK's PermissionResult out — or `ask` with the reason, for the application
// to put to a person its own way. The supervisor does more around the same verdict (owners, approvals,
// durable answers); this is only the decision. See docs/policy.md for an example.
import type { PermissionResult } from '../protocol/permissions.js';
import type { ThreadMode } from '../store/records.js';
import { askingPersonQuestions } from './person-questions.js';
import { compilePolicy, evaluatePolicy, validateMode, validateRules, type CompiledPolicy } from './policy.js';

/** What an application states once: the mode, its rules, and the directory the CLI runs in. */
export interface PolicySettings {
  readonly mode: ThreadMode;
  readonly rules?: { readonly allow?: readonly string[]; readonly deny?: readonly string[] };
  /** The query's `cwd`: relative paths in a request are resolved against it, as the CLI does. */
  readonly cwd: string;
}

/**
 * The fields of `canUseTool`'s third argument the policy reads; pass the whole object. The others
 * (`signal`, `suggestions`, `toolUseID`, …) are the application's.
 */
export interface ToolCallContext {
  readonly decisionReason?: string | undefined;
  readonly blockedPath?: string | undefined;
}

/** Not decided by the policy: put it to a person (the reason says why it was not decided). */
export interface PolicyAsk {
  readonly behavior: 'ask';
  readonly reason: string;
}

/** Checks the settings (a ValidationError names the bad field) and compiles them once, for every call. */
export function policyFor(settings: PolicySettings): CompiledPolicy {
  const rules = validateRules({
    ...(settings.rules?.allow === undefined ? {} : { allow: [...settings.rules.allow] }),
    ...(settings.rules?.deny === undefined ? {} : { deny: [...settings.rules.deny] }),
  });
  return compilePolicy(validateMode(settings.mode), rules, settings.cwd);
}

/**
 * The policy's answer to one `canUseTool` call: an allow (with the input unchanged) or a deny (the
 * reason as its message) ready to return, or `ask`. Questions for a person (AskUserQuestion,
 * ExitPlanMode) are never allowed by a mode or an allow rule.
 */
export function decideToolCall(
  policy: CompiledPolicy,
  toolName: string,
  input: Record<string, unknown>,
  context: ToolCallContext = {},
): PermissionResult | PolicyAsk {
  const verdict = askingPersonQuestions(
    toolName,
    evaluatePolicy(policy, toolName, input, {
      decisionReason: context.decisionReason,
      blockedPath: context.blockedPath,
    }),
  );
  switch (verdict.behavior) {
    case 'allow':
      return { behavior: 'allow', updatedInput: input };
    case 'deny':
      return { behavior: 'deny', message: `Denied by the policy: ${verdict.reason}` };
    case 'ask':
      return { behavior: 'ask', reason: verdict.reason };
  }
}
