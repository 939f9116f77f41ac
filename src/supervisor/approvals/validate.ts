// What the approvals wing takes in, checked once at its boundary: a decision from a caller and a
// permission request from a query. A decision is checked here for what it says by itself; what only its
// approval can tell (an edit, answers, a plan's mode, a grant's scope and rules) is checked once against
// that approval (decision-input.ts, grants.ts). Bad input is a ValidationError with the offending field.
import { ValidationError } from '../../protocol/errors.js';
import type { DecidedBy, DecisionBehavior } from '../../store/records.js';
import type { Decision } from '../types.js';
import { isRecord } from '../validate.js';

/** A decision that passed validateDecision(): what it says, with the defaults filled in. */
export interface CheckedDecision {
  readonly behavior: DecisionBehavior;
  readonly message: string | null;
  readonly interrupt: boolean;
  readonly by: 'user' | 'webhook' | 'timeout';
  readonly decidedBy: DecidedBy;
  /** The decision as given, for what is checked against the approval it answers. */
  readonly given: Decision;
}

/** Checks what the decision says by itself; callers in plain JavaScript may pass anything. */
export function validateDecision(decision: Decision): CheckedDecision {
  if (!isRecord(decision)) throw new ValidationError('a decision is { behavior, message?, interrupt? }');
  const { behavior, message, interrupt, by, decidedBy } = decision;
  if (behavior !== 'allow' && behavior !== 'allow_always' && behavior !== 'deny')
    throw new ValidationError(
      `behavior must be allow, allow_always or deny; got ${JSON.stringify(behavior)}`,
      'behavior',
    );
  if (message !== undefined && typeof message !== 'string')
    throw new ValidationError('message must be a string', 'message');
  if (interrupt !== undefined && typeof interrupt !== 'boolean')
    throw new ValidationError('interrupt must be a boolean', 'interrupt');
  if (interrupt === true && behavior !== 'deny')
    throw new ValidationError('interrupt goes with a deny only', 'interrupt');
  if (by !== undefined && by !== 'user' && by !== 'webhook' && by !== 'timeout')
    throw new ValidationError('by must be user, webhook or timeout', 'by');
  return {
    behavior,
    message: message ?? null,
    interrupt: interrupt ?? false,
    by: by ?? 'user',
    decidedBy:
      decidedBy === undefined
        ? by === 'webhook'
          ? { name: 'webhook link', via: 'webhook' }
          : { name: 'owner', via: 'api' }
        : validateDecidedBy(decidedBy),
    given: decision,
  };
}

const DECISION_VIAS: readonly string[] = ['web', 'terminal', 'api', 'webhook', 'policy', 'timeout', 'host'];

/** `{ name, via }`: a name of 1-64 characters without control characters, and a known channel. */
function validateDecidedBy(value: unknown): DecidedBy {
  if (!isRecord(value)) throw new ValidationError('decidedBy must be { name, via }', 'decidedBy');
  const { name, via } = value;
  // eslint-disable-next-line no-control-regex
  if (typeof name !== 'string' || name.length < 1 || name.length > 64 || /[\u0000-\u001f\u007f]/.test(name))
    throw new ValidationError('decidedBy.name must be 1-64 characters, no control characters', 'decidedBy');
  if (typeof via !== 'string' || !DECISION_VIAS.includes(via))
    throw new ValidationError(`decidedBy.via must be one of ${DECISION_VIAS.join(', ')}`, 'decidedBy');
  return { name, via: via as DecidedBy['via'] };
}

/**
 * What is wrong with a permission request handed to the supervisor, or undefined when it can be decided:
 * it needs a tool name, an input object and the tool call's id to become an approval anyone can read and
 * to answer the right call. Warden's query() already refuses such requests; this guards any other query.
 */
export function permissionRequestProblem(
  toolName: unknown,
  input: unknown,
  toolUseID: unknown,
): string | undefined {
  if (typeof toolName !== 'string' || toolName === '') return 'tool_name is not a non-empty string';
  if (!isRecord(input)) return 'input is not an object';
  if (typeof toolUseID !== 'string' || toolUseID === '') return 'tool_use_id is not a non-empty string';
  return undefined;
}
