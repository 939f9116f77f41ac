// Throws TypeError at once for options that cannot work, as the official SDK does for its own checks; the
// checks of the newer options are in validate-further-options.ts.
import type { Options } from './options.js';
import { validateFurtherOptions } from './validate-further-options.js';

const FUNCTION_OPTIONS = [
  'canUseTool',
  'stderr',
  'onWarning',
  'cliTransport',
  'onElicitation',
  'onUserDialog',
  'spawnClaudeCodeProcess',
] as const;
const STRING_ARRAY_OPTIONS = [
  'additionalDirectories',
  'allowedTools',
  'disallowedTools',
  'executableArgs',
  'betas',
  'supportedDialogKinds',
] as const;
const POSITIVE_NUMBER_OPTIONS = [
  'maxBudgetUsd',
  'maxFrameBytes',
  'maxInputWaitMs',
  'maxBufferedMessages',
  'loadTimeoutMs',
] as const;

/** Throws TypeError at once for options that cannot work, as the official SDK does for its own checks. */
export function validateOptions(options: Options): void {
  if (typeof options !== 'object' || options === null) throw new TypeError('options must be an object');
  for (const key of FUNCTION_OPTIONS) {
    if (options[key] !== undefined && typeof options[key] !== 'function')
      throw new TypeError(`options.${key} must be a function`);
  }
  for (const key of STRING_ARRAY_OPTIONS) {
    const value = options[key];
    if (value !== undefined && (!Array.isArray(value) || value.some((v) => typeof v !== 'string')))
      throw new TypeError(`options.${key} must be an array of strings`);
  }
  for (const key of POSITIVE_NUMBER_OPTIONS) {
    const value = options[key];
    if (value !== undefined && (typeof value !== 'number' || !(value > 0)))
      throw new TypeError(`options.${key} must be a positive number`);
  }
  if (options.canUseTool !== undefined && options.permissionPromptToolName !== undefined)
    throw new TypeError('canUseTool and permissionPromptToolName cannot be used together');
  if (options.fallbackModel !== undefined && options.fallbackModel === options.model)
    throw new TypeError('fallbackModel cannot be the same as model');
  if (options.maxTurns !== undefined && (!Number.isInteger(options.maxTurns) || options.maxTurns < 0))
    throw new TypeError('options.maxTurns must be a non-negative integer');
  if (
    options.sessionId !== undefined &&
    (options.resume !== undefined || options.continue) &&
    !options.forkSession
  )
    throw new TypeError(
      'options.sessionId can be combined with resume or continue only when forkSession is set',
    );
  if (options.env !== undefined && (typeof options.env !== 'object' || options.env === null))
    throw new TypeError('options.env must be an object');
  if (options.abortController !== undefined && !(options.abortController instanceof AbortController))
    throw new TypeError('options.abortController must be an AbortController');
  validateFurtherOptions(options);
}
