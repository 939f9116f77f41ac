// Ready-made scripts for the scenarios every agent host should survive, so a test (ours or a user's)
// states only what it checks.
import type { MockScript } from './mock-model-types.js';
import { scenario, type Awaitable } from './scenario.js';

/** The prompt that starts backgroundSubagentScenario(). */
export const BACKGROUND_AGENT_PROMPT = '[[bg]] start a background agent';
/** The subagent's first call: reading a file outside the cwd, which the CLI always asks about. */
export const BACKGROUND_AGENT_READ = { file_path: '/etc/hostname' } as const;
/** The subagent's second call, which the CLI also asks about. */
export const BACKGROUND_AGENT_BASH = {
  command: 'cat /etc/os-release',
  description: 'Show the OS release',
} as const;

export interface BackgroundSubagentOptions {
  /** The subagent makes its first call only after this (e.g. "the host delivered the root result"). */
  readonly askAfter?: Awaitable;
  /** A pause before the second call, so the two requests come apart in time. */
  readonly secondAskDelayMs?: number;
}

/**
 * The root turn launches a background subagent and ends ("Launched a background agent."); the subagent
 * then calls Read and Bash, both of which need permission, and reports ("Host inspected."); the CLI then
 * starts a root turn of its own to tell the model ("The background agent reported back.").
 */
export function backgroundSubagentScenario(options: BackgroundSubagentOptions = {}): MockScript {
  const builder = scenario()
    .on('bg')
    .launchBackgroundAgent({ prompt: '[[sub]] inspect the host', description: 'Inspect host' })
    .thenAnswer('Launched a background agent.')
    .onTaskNotification()
    .thenAnswer('The background agent reported back.')
    .subagent('sub');
  if (options.askAfter !== undefined) builder.after(options.askAfter);
  const delay = options.secondAskDelayMs === undefined ? {} : { delayMs: options.secondAskDelayMs };
  return builder
    .callTool('Read', BACKGROUND_AGENT_READ)
    .callTool('Bash', BACKGROUND_AGENT_BASH, delay)
    .thenReport('Host inspected.')
    .build();
}
