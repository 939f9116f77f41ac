// Checks what callers pass to the Supervisor, once, at the boundary. Bad input is a ValidationError with
// the offending field (bad options of open() a TypeError); nothing is written before these pass. What a
// decision says is checked in approvals/validate.ts.
import { compileTwoPersonRules, type TwoPersonRules } from '../policy/two-person.js';
import { statSync } from 'node:fs';
import { SUGGEST_AFTER } from '../policy/suggest.js';
import { resolve } from 'node:path';

import { ValidationError } from '../protocol/errors.js';
import type { AgentKind, ThreadMode, ThreadRules } from '../store/records.js';
import { validateMode, validateRules } from '../policy/policy.js';
import { validateDetachedIdleMs } from './durable/detached-idle.js';
import { validateIdleParkMs } from './durable/idle-park.js';
import { SANDBOX_MODES } from './runtime/sandbox-state.js';
import { titleFromName } from './runtime/thread-title.js';
import type { NewThread, SupervisorOptions } from './types.js';

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The options of Supervisor.open() besides the store's: a bad one is a TypeError, at once. Returns the
 * idle period after which a thread's CLI is parked, and the one after which a detached CLI let go of idle
 * ends (Infinity: never).
 */
export function validateOpenOptions(options: SupervisorOptions): {
  idleParkMs: number;
  detachedIdleMs: number;
  suggestRulesAfter: number;
  twoPerson: TwoPersonRules;
} {
  const { dataDir, claudePath, env, onWarning, query, detached = true } = options;
  if (typeof detached !== 'boolean') throw new TypeError('options.detached must be a boolean');
  if (typeof dataDir !== 'string' || dataDir === '') throw new TypeError('options.dataDir must be a path');
  if (claudePath !== undefined && typeof claudePath !== 'string')
    throw new TypeError('options.claudePath must be a string');
  if (env !== undefined && (typeof env !== 'object' || env === null))
    throw new TypeError('options.env must be an object');
  if (onWarning !== undefined && typeof onWarning !== 'function')
    throw new TypeError('options.onWarning must be a function');
  if (query !== undefined && typeof query !== 'function')
    throw new TypeError('options.query must be a function');
  validateCodexOptions(options.codex);
  const { sandbox } = options;
  if (sandbox !== undefined && !(SANDBOX_MODES as readonly unknown[]).includes(sandbox))
    throw new TypeError(`options.sandbox must be one of ${SANDBOX_MODES.join(', ')}`);
  return {
    idleParkMs: validateIdleParkMs(options.idleParkMs),
    detachedIdleMs: validateDetachedIdleMs(options.detachedIdleMs),
    suggestRulesAfter: validateSuggestRulesAfter(options.suggestRulesAfter),
    twoPerson: validateRequireTwo(options.requireTwo),
  };
}

function validateCodexOptions(codex: SupervisorOptions['codex']): void {
  if (codex === undefined) return;
  if (!isRecord(codex)) throw new TypeError('options.codex must be an object');
  if (codex.codexPath !== undefined && typeof codex.codexPath !== 'string')
    throw new TypeError('options.codex.codexPath must be a string');
  if (codex.env !== undefined && !isRecord(codex.env))
    throw new TypeError('options.codex.env must be an object');
  if (
    codex.config !== undefined &&
    !(Array.isArray(codex.config) && codex.config.every((c) => typeof c === 'string'))
  )
    throw new TypeError('options.codex.config must be an array of strings');
}

function validateSuggestRulesAfter(value: unknown): number {
  if (value === undefined) return SUGGEST_AFTER;
  if (!Number.isSafeInteger(value) || (value as number) < 0)
    throw new TypeError('options.suggestRulesAfter must be a whole number, 0 or more');
  return value as number;
}

/** `options.requireTwo`: the two-person rules (policy/two-person.ts); a bad entry is a TypeError naming it. */
function validateRequireTwo(requireTwo: unknown): TwoPersonRules {
  try {
    return compileTwoPersonRules(requireTwo, 'options.requireTwo');
  } catch (error) {
    throw new TypeError(error instanceof Error ? error.message : String(error));
  }
}

export function validateId(id: unknown, field: string): string {
  if (typeof id !== 'string' || id === '')
    throw new ValidationError(`${field} must be a non-empty string`, field);
  return id;
}

export function validateNewThread(input: unknown): {
  agent: AgentKind;
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
  const { agent = 'claude' } = input as Partial<NewThread>;
  if (agent !== 'claude' && agent !== 'codex')
    throw new ValidationError('agent must be claude or codex', 'agent');
  if (agent === 'codex' && input.plan === true)
    throw new ValidationError('a Codex thread has no plan mode', 'plan');
  return {
    agent,
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
