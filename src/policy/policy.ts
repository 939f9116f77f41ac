// The policy decides a permission request before anyone is asked, in this order:
//   1. a deny rule that matches → deny;
//   2. a protected write → ask: the CLI called the file sensitive (cli-verdict.ts), or the target is in
//      Warden's protected-path table (protected-paths.ts). No mode and no allow rule overrides this;
//   3. a Bash command with a part the parse cannot see through, while deny rules for Bash exist → ask
//      (a deny rule cannot be checked against what cannot be seen);
//   4. allow rules → allow (a Bash command needs every simple command covered, see rules.ts);
//   5. the thread's mode.
// Only `ask` becomes an approval. The CLI runs in its `default` permission mode, so every call it wants to
// confirm reaches this function; calls the CLI allows by itself (read-only commands, reads inside the
// cwd) never do, so deny rules cannot block those. A pure function of the request, the rules and the
// mode (it reads the filesystem only to resolve symlinks).
import { ValidationError } from '../protocol/errors.js';
import type { ThreadMode, ThreadRules } from '../store/records.js';
import { THREAD_MODES } from '../store/records.js';
import { EDIT_TOOLS, cliCallsSensitive } from './cli-verdict.js';
import { protectedEntryFor, type ProtectedEntry } from './protected-paths.js';
import { isInside, lexicalAndReal } from './real-paths.js';
import { commandMatches, compileRule, ruleMatches, shellAllowable, type CompiledRule } from './rules.js';
import { analyzeShell, type ShellAnalysis } from './shell-commands.js';

export { EDIT_TOOLS } from './cli-verdict.js';
export { isInside } from './real-paths.js';

/** What the CLI said when it asked (`decision_reason`, `blocked_path` of `can_use_tool`). */
export interface CliContext {
  readonly decisionReason?: string | null | undefined;
  readonly blockedPath?: string | null | undefined;
}

export interface CompiledPolicy {
  readonly mode: ThreadMode;
  readonly cwd: string;
  readonly allow: readonly CompiledRule[];
  readonly deny: readonly CompiledRule[];
}

export type PolicyVerdict =
  | { behavior: 'allow' | 'deny'; source: 'mode' | 'rule'; rule: string | null; reason: string }
  | { behavior: 'ask'; reason: string };

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

export function compilePolicy(mode: ThreadMode, rules: ThreadRules, cwd: string): CompiledPolicy {
  return {
    mode,
    cwd,
    allow: rules.allow.map((rule) => compileRule(rule)),
    deny: rules.deny.map((rule) => compileRule(rule)),
  };
}

export function evaluatePolicy(
  policy: CompiledPolicy,
  toolName: string,
  input: Record<string, unknown>,
  cli: CliContext = {},
): PolicyVerdict {
  const shell = toolName === 'Bash' ? analyzeShell(stringField(input, 'command') ?? '') : undefined;
  const denied = policy.deny.find((rule) => ruleMatches(rule, toolName, input, policy.cwd, 'deny', shell));
  if (denied !== undefined)
    return {
      behavior: 'deny',
      source: 'rule',
      rule: denied.source,
      reason: `denied by rule ${denied.source}`,
    };
  const guarded = protectedReason(policy.cwd, toolName, input, cli, shell);
  if (guarded !== undefined) return { behavior: 'ask', reason: guarded };
  if (shell !== undefined && shell.opaque.length > 0 && policy.deny.some((rule) => rule.tool.test('Bash')))
    return {
      behavior: 'ask',
      reason: `deny rules for Bash cannot be checked: ${shell.opaque[0] ?? ''}`,
    };
  const allowed = allowingRules(policy, toolName, input, shell);
  if (allowed !== undefined)
    return {
      behavior: 'allow',
      source: 'rule',
      rule: allowed,
      reason: `allowed by rule ${allowed}`,
    };
  switch (policy.mode) {
    case 'full-access':
      return { behavior: 'allow', source: 'mode', rule: null, reason: 'full-access allows every tool call' };
    case 'auto-edits': {
      const target = editTarget(toolName, input);
      if (target !== undefined && isInside(policy.cwd, target))
        return {
          behavior: 'allow',
          source: 'mode',
          rule: null,
          reason: `auto-edits allows ${toolName} inside the cwd`,
        };
      return { behavior: 'ask', reason: 'auto-edits asks for everything but edits inside the cwd' };
    }
    case 'supervised':
      return { behavior: 'ask', reason: 'supervised asks for what the CLI asks for' };
  }
}

/** The allow rule(s) covering the call: for Bash, one per simple command, joined; else the first match. */
function allowingRules(
  policy: CompiledPolicy,
  toolName: string,
  input: Record<string, unknown>,
  shell: ShellAnalysis | undefined,
): string | undefined {
  if (shell === undefined)
    return policy.allow.find((rule) => ruleMatches(rule, toolName, input, policy.cwd, 'allow'))?.source;
  const whole = policy.allow.find((rule) => rule.tool.test('Bash') && rule.pattern === undefined);
  if (whole !== undefined) return whole.source;
  if (shellAllowable(shell) !== undefined) return undefined;
  const used = new Set<string>();
  for (const simple of shell.commands) {
    const rule = policy.allow.find((candidate) => commandMatches(candidate, simple, 'allow'));
    if (rule === undefined) return undefined;
    used.add(rule.source);
  }
  return [...used].join(', ');
}

/** Why this call writes somewhere no mode or allow rule may allow; undefined when it does not. */
function protectedReason(
  cwd: string,
  toolName: string,
  input: Record<string, unknown>,
  cli: CliContext,
  shell: ShellAnalysis | undefined,
): string | undefined {
  if (cliCallsSensitive(toolName, cli.decisionReason))
    return `the CLI marks this as sensitive: ${cli.decisionReason ?? ''}`;
  const targets: string[] = [];
  const target = editTarget(toolName, input);
  if (target !== undefined) targets.push(target);
  if (shell !== undefined) targets.push(...shell.writes);
  // The CLI's blocked path for a command is where it found it would write or read outside what it allows
  // by itself (`sed -i … f`, `cp a f`, `cat f`): a read of a protected file this way is asked too.
  const writing = shell !== undefined || target !== undefined;
  if (writing && typeof cli.blockedPath === 'string' && cli.blockedPath !== '') targets.push(cli.blockedPath);
  for (const path of targets) {
    const entry = protectedPath(cwd, path);
    if (entry !== undefined) return `${path} is protected (${entry.path}: ${entry.reason})`;
  }
  return undefined;
}

/** The table entry covering `path` as written, resolved against the cwd, or where it really leads. */
function protectedPath(cwd: string, path: string): ProtectedEntry | undefined {
  const { lexical, real } = lexicalAndReal(cwd, path);
  return protectedEntryFor(path) ?? protectedEntryFor(lexical) ?? protectedEntryFor(real);
}

function editTarget(toolName: string, input: Record<string, unknown>): string | undefined {
  if (!EDIT_TOOLS.has(toolName)) return undefined;
  const path = toolName === 'NotebookEdit' ? input.notebook_path : input.file_path;
  return typeof path === 'string' && path !== '' ? path : undefined;
}

function stringField(input: Record<string, unknown>, key: string): string | undefined {
  const value = input[key];
  return typeof value === 'string' ? value : undefined;
}
