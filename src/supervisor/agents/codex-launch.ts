// How this host starts the Codex app-server of its Codex threads, from SupervisorOptions: the given
// binary, environment and `-c` overrides; else the CLIs' environment (`env`, else the host's own), so
// CODEX_HOME and the provider's key come from where the Claude CLI's settings do.
import type { SupervisorOptions } from '../types.js';
import type { CodexLaunch } from './codex-thread.js';

export function codexLaunch(
  cliEnv: Record<string, string | undefined> | undefined,
  codex: SupervisorOptions['codex'],
): CodexLaunch {
  return {
    env: codex?.env ?? cliEnv ?? { ...process.env },
    config: codex?.config ?? [],
    ...(codex?.codexPath === undefined ? {} : { codexPath: codex.codexPath }),
  };
}
