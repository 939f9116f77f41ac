// What an allow sends the CLI besides "yes": an input a person edited, the answers to the model's
// questions (AskUserQuestion), or the end of plan mode (ExitPlanMode). Checked here, once, against the
// approval being decided: an edit stays an input of the same tool, within a size bound, and the thread's
// policy judges it again (a person cannot approve, by editing, a call the policy denies). A rule is never
// made from an edited input, so none of this goes with allow_always.
import { isDeepStrictEqual } from 'node:util';

import type { PermissionUpdate } from '../../protocol/control.js';
import { ValidationError } from '../../protocol/errors.js';
import type { ApprovalRecord, ThreadMode } from '../../store/records.js';
import { ASK_USER_QUESTION, EXIT_PLAN_MODE } from './person-tools.js';
import { evaluatePolicy, validateMode, type CompiledPolicy } from '../../policy/policy.js';
import type { Decision } from '../types.js';

/** An edited input larger than this (as JSON) is refused. */
export const MAX_EDITED_INPUT_BYTES = 256 * 1024;
/** One answer to a question, at most. */
export const MAX_ANSWER_LENGTH = 4000;

/** Fields each known tool needs, as strings; an edit may change them but not drop them. */
const STRING_FIELDS: Readonly<Record<string, readonly string[]>> = {
  Bash: ['command'],
  Write: ['file_path', 'content'],
  Edit: ['file_path', 'old_string', 'new_string'],
  MultiEdit: ['file_path'],
  NotebookEdit: ['notebook_path', 'new_source'],
};

export interface DecisionInput {
  /** The input to send instead of the one asked with; null: as asked. */
  updatedInput: Record<string, unknown> | null;
  /** Permission updates to send with the allow, beside any always-allow rules. */
  permissionUpdates: PermissionUpdate[];
  /** The thread's mode from now on (a plan approved with a mode chosen), or null. */
  mode: ThreadMode | null;
}

const AS_ASKED: DecisionInput = { updatedInput: null, permissionUpdates: [], mode: null };

/**
 * Checks the decision's `updatedInput`, `answers` and `mode` against the approval; throws ValidationError
 * (with the field) when they do not fit it, or when the policy denies the edited input.
 */
export function decisionInput(
  approval: ApprovalRecord,
  decision: Decision,
  policy: () => CompiledPolicy,
): DecisionInput {
  const { behavior, updatedInput, answers, mode } = decision;
  const given = [
    updatedInput === undefined ? null : 'updatedInput',
    answers === undefined ? null : 'answers',
    mode === undefined ? null : 'mode',
  ].filter((field) => field !== null);
  if (behavior !== 'allow') {
    const field = given[0];
    if (field !== undefined)
      throw new ValidationError(
        behavior === 'allow_always' && field !== 'mode'
          ? `${field} goes with a plain allow: no rule is ever made from an edited or answered input`
          : `${field} goes with a plain allow only`,
        field,
      );
    return AS_ASKED;
  }
  // An allow with no answers would tell the model the person answered nothing.
  if (approval.toolName === ASK_USER_QUESTION && answers === undefined)
    throw new ValidationError(`answer an ${ASK_USER_QUESTION} approval with answers`, 'answers');
  if (updatedInput !== undefined && answers !== undefined)
    throw new ValidationError('give either answers or an updatedInput, not both', 'answers');
  const edited =
    answers !== undefined
      ? answeredInput(approval, answers)
      : updatedInput !== undefined
        ? editedInput(approval, updatedInput, policy())
        : null;
  const planEnds = approval.toolName === EXIT_PLAN_MODE;
  if (mode !== undefined && !planEnds)
    throw new ValidationError(`mode goes with an ${EXIT_PLAN_MODE} approval only`, 'mode');
  return {
    updatedInput: edited === null || isDeepStrictEqual(edited, approval.input) ? null : edited,
    // The CLI leaves plan mode for `default` (verified: it would by itself; said explicitly so that a
    // later CLI cannot pick a laxer mode): every later call still comes to Warden's policy.
    permissionUpdates: planEnds ? [{ type: 'setMode', mode: 'default', destination: 'session' }] : [],
    mode: mode === undefined ? null : validateMode(mode),
  };
}

function editedInput(
  approval: ApprovalRecord,
  value: unknown,
  policy: CompiledPolicy,
): Record<string, unknown> {
  if (!isRecord(value)) throw new ValidationError('updatedInput must be an object', 'updatedInput');
  const size = Buffer.byteLength(JSON.stringify(value));
  if (size > MAX_EDITED_INPUT_BYTES)
    throw new ValidationError(
      `updatedInput is ${size} bytes as JSON; at most ${MAX_EDITED_INPUT_BYTES} are accepted`,
      'updatedInput',
    );
  const { toolName, input } = approval;
  if (toolName === ASK_USER_QUESTION)
    throw new ValidationError(`answer an ${ASK_USER_QUESTION} approval with answers`, 'updatedInput');
  for (const field of STRING_FIELDS[toolName] ?? [])
    if (typeof value[field] !== 'string')
      throw new ValidationError(`updatedInput.${field} must be a string for ${toolName}`, 'updatedInput');
  // The same tool's input: what the original had keeps its kind of value (a string stays a string).
  for (const [key, original] of Object.entries(input))
    if (Object.hasOwn(value, key) && kindOf(value[key]) !== kindOf(original))
      throw new ValidationError(
        `updatedInput.${key} must stay ${kindOf(original)} for ${toolName}`,
        'updatedInput',
      );
  const verdict = evaluatePolicy(policy, toolName, value, {
    decisionReason: approval.decisionReason,
    blockedPath: approval.blockedPath,
  });
  if (verdict.behavior === 'deny')
    throw new ValidationError(
      `The edited input is denied by the thread's policy (${verdict.reason}); it was not sent`,
      'updatedInput',
    );
  return value;
}

/** The official SDK's convention: the questions as asked plus `answers`, by question text. */
function answeredInput(approval: ApprovalRecord, answers: unknown): Record<string, unknown> {
  if (approval.toolName !== ASK_USER_QUESTION)
    throw new ValidationError(`answers go with an ${ASK_USER_QUESTION} approval only`, 'answers');
  if (!isRecord(answers)) throw new ValidationError('answers must be an object', 'answers');
  const questions = questionTexts(approval.input);
  for (const [question, answer] of Object.entries(answers)) {
    if (!questions.includes(question))
      throw new ValidationError(`answers names a question not asked: ${JSON.stringify(question)}`, 'answers');
    if (typeof answer !== 'string' || answer.trim() === '' || answer.length > MAX_ANSWER_LENGTH)
      throw new ValidationError(
        `the answer to ${JSON.stringify(question)} must be a non-empty string of at most ${MAX_ANSWER_LENGTH} characters`,
        'answers',
      );
  }
  const missing = questions.find((question) => !Object.hasOwn(answers, question));
  if (missing !== undefined) throw new ValidationError(`no answer to ${JSON.stringify(missing)}`, 'answers');
  return { ...approval.input, answers: { ...answers } };
}

/** The text of each question an AskUserQuestion input asks. */
export function questionTexts(input: Record<string, unknown>): string[] {
  const { questions } = input;
  if (!Array.isArray(questions)) return [];
  return questions.flatMap((q) => (isRecord(q) && typeof q.question === 'string' ? [q.question] : []));
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
