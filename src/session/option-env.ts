// Options the official SDK passes to the CLI as environment variables, set the same way.
import type { Options } from './options.js';

/** Flags read from the environment; scrubbed from an inherited one so only the options decide them. */
const OPTION_FLAGS = [
  'CLAUDE_CODE_QUESTION_EXTENDED',
  'CLAUDE_CODE_QUESTION_OPTIONAL_DESCRIPTIONS',
  'CLAUDE_CODE_AGENT_PROGRESS_SUMMARIES',
];
const CRASH_REPORTING = ['BUN_ENABLE_CRASH_REPORTING', 'BUN_CRASH_REPORT_URL'];

/**
 * process.env as the CLI inherits it when `options.env` is absent (the option flags scrubbed), for a host
 * that adds variables of its own and so has to pass `env`.
 */
export function inheritedEnv(): Record<string, string | undefined> {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (OPTION_FLAGS.includes(key.toUpperCase())) delete env[key];
  return env;
}

export function addOptionVariables(env: Record<string, string | undefined>, options: Options): void {
  if (options.enableFileCheckpointing) env.CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING = 'true';
  const preview = options.toolConfig?.askUserQuestion?.previewFormat;
  if (preview) env.CLAUDE_CODE_QUESTION_PREVIEW_FORMAT = preview;
  if (options.env === undefined) {
    for (const key of Object.keys(env)) if (OPTION_FLAGS.includes(key.toUpperCase())) delete env[key];
  }
  // The CLI is a Bun binary: it reports crashes to Anthropic unless told otherwise (the official SDK's default).
  const crashKeys = Object.keys(env).filter((key) => CRASH_REPORTING.includes(key));
  if (!crashKeys.some((key) => env[key])) {
    for (const key of crashKeys) if (key === 'BUN_ENABLE_CRASH_REPORTING') delete env[key];
    env.BUN_ENABLE_CRASH_REPORTING = '0';
  }
  // DEBUG switches on the CLI's debug output; the official SDK passes it only for its own debug variable.
  if (isTruthy(env.DEBUG_CLAUDE_AGENT_SDK)) env.DEBUG = '1';
  else delete env.DEBUG;
}

function isTruthy(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());
}
