// Checks what callers pass to the Supervisor, once, at the boundary. Bad input is a ValidationError with
// the offending field; nothing is written before these pass.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';

import { ValidationError } from '../protocol/errors.js';
import type { DecidedBy, ThreadMode, ThreadRules } from '../store/records.js';
import { validateMode, validateRules } from '../policy/policy.js';
import { titleFromName } from './runtime/thread-title.js';
import type { Decision, NewThread } from './types.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function validateId(id: unknown, field: string): string {
  if (typeof id !== 'string' || id === '')
    throw new ValidationError(`${field} must be a non-empty string`, field);
  return id;
}

export function validateNewThread(input: unknown): {
  cwd: string;
  mode: ThreadMode;
  model: string | null;
  rules: ThreadRules;
} {
  if (!isRecord(input)) throw new ValidationError('createThread needs { cwd, mode, model?, rules? }');
  const { cwd, model } = input as Partial<NewThread>;
  if (typeof cwd !== 'string' || cwd === '') throw new ValidationError('cwd must be a directory path', 'cwd');
  const directory = resolve(cwd);
  let isDirectory = false;
  try {
    isDirectory = statSync(directory).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (!isDirectory)
    throw new ValidationError(`cwd ${JSON.stringify(cwd)} is not an existing directory`, 'cwd');
  if (model !== undefined && (typeof model !== 'string' || model === ''))
    throw new ValidationError('model must be a non-empty string', 'model');
  return {
    cwd: directory,
    mode: validateMode(input.mode),
    model: model ?? null,
    rules: validateRules(input.rules),
  };
}

/** A title a person gave: made one safe line (thread-title.ts); a name with no visible words is refused. */
export function validateTitle(title: unknown): string {
  const safe = typeof title === 'string' ? titleFromName(title) : null;
  if (safe === null) throw new ValidationError('the title must be a non-empty string', 'title');
  return safe;
}

export function validateText(text: unknown): string {
  if (typeof text !== 'string' || text.trim() === '')
    throw new ValidationError('the message must be a non-empty string', 'text');
  return text;
}

export function validateDecision(decision: unknown): Required<Pick<Decision, 'behavior'>> & {
  message: string | null;
  interrupt: boolean;
  by: 'user' | 'webhook' | 'timeout';
  decidedBy: DecidedBy;
} {
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
