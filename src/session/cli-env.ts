// The CLI's environment. `options.env` replaces process.env (as in the official SDK); Warden then adds
// only what the protocol needs. docs/compatibility.md lists these variables.
import type { Options } from './options.js';
import { addOptionVariables } from './option-env.js';

/** The official SDK release whose wire protocol Warden speaks; the CLI may gate features on it. */
export const PROTOCOL_SDK_VERSION = '0.3.333';

/** Variables that would change how the CLI (a Node program itself) behaves if they leaked from the host. */
const SCRUBBED = ['NODE_OPTIONS'];

function hasKey(env: Record<string, string | undefined>, name: string): boolean {
  const upper = name.toUpperCase();
  return Object.keys(env).some((key) => key.toUpperCase() === upper);
}

export function buildCliEnv(options: Options): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...(options.env ?? process.env) };
  for (const name of SCRUBBED) delete env[name];
  env.CLAUDE_CODE_ENTRYPOINT ??= 'sdk-ts';
  env.CLAUDE_AGENT_SDK_VERSION ??= PROTOCOL_SDK_VERSION;
  // Ask the CLI for session_state_changed frames (consumed here, not yielded). The input lifecycle uses
  // them when present and does not depend on them: a caller that sets the variable keeps its value.
  if (!hasKey(env, 'CLAUDE_CODE_SDK_READS_SESSION_STATE')) env.CLAUDE_CODE_SDK_READS_SESSION_STATE = '1';
  addOptionVariables(env, options);
  return env;
}
