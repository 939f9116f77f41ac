// The policy decides a permission request before anyone is asked: deny rules, then allow rules, then the
// thread's mode. Only `ask` becomes an approval. The CLI runs in its `default` permission mode, so every
// call it wants to confirm reaches this function; calls the CLI allows by itself (read-only commands,
// reads inside the cwd) never do, so deny rules cannot block those.
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';

import { ValidationError } from '../protocol/errors.js';
import type { ThreadMode, ThreadRules } from '../store/records.js';
import { THREAD_MODES } from '../store/records.js';
import { compileRule, ruleMatches, type CompiledRule } from './rules.js';

/** The tools `auto-edits` allows inside the thread's cwd. */
export const EDIT_TOOLS: ReadonlySet<string> = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);

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
): PolicyVerdict {
  const denied = policy.deny.find((rule) => ruleMatches(rule, toolName, input, policy.cwd, 'deny'));
  if (denied !== undefined)
    return {
      behavior: 'deny',
      source: 'rule',
      rule: denied.source,
      reason: `denied by rule ${denied.source}`,
    };
  const allowed = policy.allow.find((rule) => ruleMatches(rule, toolName, input, policy.cwd, 'allow'));
  if (allowed !== undefined)
    return {
      behavior: 'allow',
      source: 'rule',
      rule: allowed.source,
      reason: `allowed by rule ${allowed.source}`,
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

function editTarget(toolName: string, input: Record<string, unknown>): string | undefined {
  if (!EDIT_TOOLS.has(toolName)) return undefined;
  const path = toolName === 'NotebookEdit' ? input.notebook_path : input.file_path;
  return typeof path === 'string' && path !== '' ? path : undefined;
}

/**
 * Is `target` (absolute, or relative to `cwd`) inside `cwd`? Lexically first (no `..` escapes), then with
 * symlinks resolved on the part of the path that exists, so a link in the cwd cannot point outside it.
 */
export function isInside(cwd: string, target: string): boolean {
  const root = resolve(cwd);
  const path = resolve(root, target);
  if (!within(root, path)) return false;
  return within(realOrSelf(root), realOfNearestExisting(path));
}

function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function realOfNearestExisting(path: string): string {
  let current = path;
  const rest: string[] = [];
  for (;;) {
    try {
      return resolve(realpathSync(current), ...rest.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return path;
      rest.push(current.slice(parent.length + (parent.endsWith('/') ? 0 : 1)));
      current = parent;
    }
  }
}
