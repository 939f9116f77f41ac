// The query() options of one CLI process of a thread: the permission mode the policy needs, the gate,
// the sandbox and git hardening (cli-confinement.ts), the session to resume, how the process is started
// or joined, and the transcript mirror.
import type { CanUseTool, Options } from '../../session/options.js';
import type { CliLaunch, CliTransport } from '../../transport/cli-transport.js';
import type { SupervisorCore } from '../core.js';
import { confinementOf } from './cli-confinement.js';

export interface CliOptionsSetup {
  readonly cwd: string;
  readonly model: string | null;
  readonly resume: string | null;
  readonly plan?: boolean | undefined;
  readonly canUseTool: CanUseTool;
  /** The process runs already (an earlier host left it detached): this host joins it. */
  readonly attached: boolean;
  /** Starts (detached) or joins the process; undefined: the SDK's own pipe child. */
  readonly cliTransport: ((launch: CliLaunch) => Promise<CliTransport>) | undefined;
}

/** The options, and whether the CLI runs its own sandbox (only then does its init say if that runs). */
export function cliOptions(
  core: SupervisorCore,
  setup: CliOptionsSetup,
): { options: Options; usesCliSandbox: boolean } {
  const { claudePath, sessionStore: mirror } = core.options;
  const confinement = confinementOf(core, setup.cwd);
  const { cliTransport } = setup;
  const options: Options = {
    cwd: setup.cwd,
    // Every call the CLI wants confirmed reaches canUseTool; the policy decides there (policy.ts).
    // Plan mode only while a thread created for planning has no approved plan: the CLI then changes
    // nothing, and asks (ExitPlanMode) before it leaves plan mode for `default`.
    permissionMode: setup.plan === true ? 'plan' : 'default',
    canUseTool: setup.canUseTool,
    onWarning: (warning) => core.warn(warning),
    ...(claudePath === undefined ? {} : { pathToClaudeCodeExecutable: claudePath }),
    ...confinement,
    ...(setup.model === null ? {} : { model: setup.model }),
    // A joined process runs already: with a transcript mirror, nothing is to be loaded for it.
    ...(setup.resume === null || (setup.attached && mirror !== undefined) ? {} : { resume: setup.resume }),
    ...(cliTransport === undefined ? {} : { cliTransport }),
    // Mirrored as each line is written: a host that dies mid-turn leaves its transcript to the next.
    ...(mirror === undefined ? {} : { sessionStore: mirror, sessionStoreFlush: 'eager' as const }),
  };
  return { options, usesCliSandbox: confinement.sandbox !== undefined };
}
