// The two real-CLI scenarios, scripted for the mock model as the e2e tests script them
// (test/e2e/sdk-permissions.test.ts, test/e2e/sdk-background-subagent.test.ts), with the check that a
// run did what the scenario is about: a run that did not is a failure, not a fast run.
import { backgroundSubagentScenario, scenario, type MockScript } from '../../src/testing/index.js';
import type { RunReport } from './host-run.js';

export interface RealCliScenario {
  readonly id: string;
  readonly label: string;
  readonly description: string;
  readonly prompt: string;
  /** `rootResult` resolves when the host has delivered the first result. */
  readonly script: (rootResult: Promise<void>) => MockScript;
  /** A reason the run does not count, or undefined. */
  readonly check: (report: RunReport) => string | undefined;
}

const COMMAND = 'touch made-by-bash.txt && echo created';

const allow: RealCliScenario = {
  id: 'allow',
  label: 'allow',
  description:
    '*allow*: the model calls Bash once, `canUseTool` allows it, the model answers with the tool’s output.',
  prompt: '[[perm]] create a file',
  script: () =>
    scenario()
      .on('perm')
      .callTool('Bash', { command: COMMAND, description: 'Create a file' })
      .thenAnswer((ctx) => `tool said: ${ctx.toolResults[0]?.text ?? '(nothing)'}`)
      .build(),
  check: (report) => {
    if (report.asks.length !== 1) return `canUseTool was called ${report.asks.length} times, expected once`;
    const last = report.results.at(-1);
    return last?.result === 'tool said: created' ? undefined : `unexpected result ${JSON.stringify(last)}`;
  },
};

const background: RealCliScenario = {
  id: 'background',
  label: 'background subagent',
  description:
    '*background subagent*: the root turn launches a background subagent and ends; only after the host ' +
    'delivered that result does the subagent call Read, then Bash a second later, each needing permission; ' +
    'the CLI then starts a turn of its own to report.',
  prompt: '[[bg]] start a background agent',
  script: (rootResult) => backgroundSubagentScenario({ askAfter: rootResult, secondAskDelayMs: 1000 }),
  check: (report) => {
    const asked = report.asks.map((ask) => ask.toolName).join(', ');
    if (asked !== 'Read, Bash' || report.asks.some((ask) => ask.agentID === undefined))
      return `the subagent's permission requests reached canUseTool as [${asked}], expected [Read, Bash] from the subagent`;
    if (report.results.length !== 2)
      return `${report.results.length} results, expected 2 (root turn and report)`;
    return undefined;
  },
};

export const SCENARIOS: readonly RealCliScenario[] = [allow, background];
