// Batches: one answer for many pending approvals — all of a subagent's, all of a thread's, or all that a
// rule the person types covers. A batch is previewed first and then applied to exactly the approvals the
// preview listed (never to one that arrived after the person looked); each is still decided on its own,
// compare-and-set, so an approval someone else answered meanwhile is reported as already settled.
import { ValidationError } from '../../protocol/errors.js';
import type { ApprovalRecord, ApprovalStatus } from '../../store/records.js';
import type { BatchLeftOut } from './batch-left-out.js';

export type { BatchLeftOut } from './batch-left-out.js';
import { protectedWriteReason, type CompiledPolicy } from '../../policy/policy.js';
import { compileRule, ruleMatches, type CompiledRule } from '../../policy/rules.js';

export interface BatchSelection {
  threadId?: string;
  subagentId?: string;
  /** A rule such as `Bash(npm test:*)`: the approvals it covers (for allow, every part of a command). */
  rule?: string;
}

export interface BatchResult {
  decided: ApprovalRecord[];
  /** The approvals that were no longer pending: answered elsewhere, cancelled or expired. */
  alreadySettled: { id: string; status: ApprovalStatus }[];
  /** Approvals an allow batch does not answer: each is a person's to allow on its own card. */
  leftOut: BatchLeftOut[];
}

/** What a batch would answer, and what an allow leaves out. */
export interface BatchPreview {
  approvals: ApprovalRecord[];
  leftOut: BatchLeftOut[];
}

/**
 * Why an allow batch must leave this approval out, or undefined: a write the policy holds for a person
 * whatever the rules and mode (protected, or sensitive by the CLI's word) is never allowed in bulk, where
 * a preview line cannot show what it writes.
 */
export function leftOutOfAllow(approval: ApprovalRecord, policy: CompiledPolicy): string | undefined {
  // Two deciders allow it one by one, each seeing it: not in bulk (docs/decisions.md#two-person-rules).
  if (approval.twoPerson !== null) return `needs two deciders' allows (${approval.twoPerson})`;
  return protectedWriteReason(policy, approval.toolName, approval.input, {
    decisionReason: approval.decisionReason,
    blockedPath: approval.blockedPath,
  });
}

/** Most approvals one batch may cover: a bound on one request's work. */
export const MAX_BATCH = 500;

export function validateSelection(value: unknown): BatchSelection {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ValidationError('select must be { threadId?, subagentId?, rule? }', 'select');
  const { threadId, subagentId, rule, ...rest } = value as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) throw new ValidationError(`select.${unknown} is not a selector`, 'select');
  const selection: BatchSelection = {};
  for (const [key, field] of [
    ['threadId', threadId],
    ['subagentId', subagentId],
  ] as const) {
    if (field === undefined) continue;
    if (typeof field !== 'string' || field === '')
      throw new ValidationError(`select.${key} must be a non-empty string`, `select.${key}`);
    selection[key] = field;
  }
  if (rule !== undefined) {
    compileRule(rule, 'select.rule');
    selection.rule = rule as string;
  }
  if (Object.keys(selection).length === 0)
    throw new ValidationError('select needs a threadId, a subagentId or a rule', 'select');
  return selection;
}

/** The pending approvals a selection covers, oldest first. `cwdOf` gives an approval's thread directory. */
export function selectApprovals(
  pending: readonly ApprovalRecord[],
  selection: BatchSelection,
  behavior: 'allow' | 'deny',
  cwdOf: (threadId: string) => string,
): ApprovalRecord[] {
  const rule: CompiledRule | undefined =
    selection.rule === undefined ? undefined : compileRule(selection.rule);
  return pending.filter(
    (approval) =>
      approval.status === 'pending' &&
      (selection.threadId === undefined || approval.threadId === selection.threadId) &&
      (selection.subagentId === undefined || approval.subagentId === selection.subagentId) &&
      (rule === undefined ||
        ruleMatches(rule, approval.toolName, approval.input, cwdOf(approval.threadId), behavior)),
  );
}

/** The ids a batch is applied to: a non-empty list without repeats, within MAX_BATCH. */
export function validateBatchIds(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_BATCH)
    throw new ValidationError(`approvalIds must be a list of 1 to ${MAX_BATCH} approval ids`, 'approvalIds');
  const ids = new Set<string>();
  for (const id of value) {
    if (typeof id !== 'string' || id === '')
      throw new ValidationError('approvalIds must hold non-empty strings', 'approvalIds');
    ids.add(id);
  }
  return [...ids];
}
