// How this host starts the Codex app-server of its Codex threads, from SupervisorOptions: the given
// binary, environment and `-c` overrides; else the CLIs' environment (`env`, else the host's own), so
// CODEX_HOME and the provider's key come from where the Claude CLI's settings do.
import type { SupervisorOptions } from '../types.js';
import type { CodexLaunch } from './codex-thread.js';

const QUESTIONS_IN_EVERY_MODE = 'features.default_mode_request_user_input=true';

export function codexLaunch(
  cliEnv: Record<string, string | undefined> | undefined,
  codex: SupervisorOptions['codex'],
): CodexLaunch {
  return {
    env: codex?.env ?? cliEnv ?? { ...process.env },
    // The model may ask the person questions in every mode (a question card, codex-questions.ts), not only
    // in Codex's plan mode; the caller's overrides come after, so they can turn it off.
    config: [QUESTIONS_IN_EVERY_MODE, ...(codex?.config ?? [])],
    ...(codex?.codexPath === undefined ? {} : { codexPath: codex.codexPath }),
  };
}
