// What the policy works on and what it answers: the compiled policy, what the CLI said when it asked, and
// the verdict. Types of their own so that the steps (order.ts) and the function that runs them
// (policy.ts) both use them without importing each other.
import type { ThreadMode } from '../store/records.js';
import type { CompiledRule } from './rules.js';

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
  /**
   * The operating system keeps the protected paths unwritable for the CLI's Bash commands (its sandbox
   * runs, docs/security.md); false or absent: only this policy stands between a command and them.
   */
  readonly osEnforced?: boolean;
}

export type PolicyVerdict =
  | { behavior: 'allow' | 'deny'; source: 'mode' | 'rule'; rule: string | null; reason: string }
  | { behavior: 'ask'; reason: string };
