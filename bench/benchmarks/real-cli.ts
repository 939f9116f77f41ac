// 5. The real Claude Code CLI, offline against the testkit's mock model: the allow scenario (one Bash call
// the callback allows) and the background-subagent scenario (the subagent asks twice, after the root
// turn's result). Each run is a fresh HOME and a fresh mock; the host runs in a Node process of its own
// (bench/real-cli/host-run.ts) so that its CPU time is its own, not the mock's.
import { fileURLToPath } from 'node:url';
import {
  createScratch,
  offlineClaudeEnv,
  pinnedClaudePath,
  startMockModel,
} from '../../src/testing/index.js';
import type { MockScript } from '../../src/testing/index.js';
import { formatBound } from '../lib/bounded.js';
import { runChild } from '../lib/child-run.js';
import { figureOf } from '../lib/figures.js';
import { HOST_LABELS, HOST_NAMES, type HostName } from '../lib/hosts.js';
import { interleave } from '../lib/interleave.js';
import type { Outcomes } from '../lib/outcomes.js';
import type { Benchmark, BenchmarkResult, Figure, TargetCheck } from '../lib/model.js';
import { killPidsWithEnv } from '../lib/processes.js';
import type { RunConfig, RunReport } from '../real-cli/host-run.js';
import { SCENARIOS, type RealCliScenario } from '../real-cli/scenarios.js';
import { REAL_CLI_SHUTDOWN } from './findings.js';

const NAME = 'real-cli';
const TITLE = 'Real Claude Code CLI (offline, mock model)';
const HOST_RUN = fileURLToPath(new URL('../real-cli/host-run.ts', import.meta.url));

interface Sample {
  readonly wallMs: number;
  readonly firstMessageMs: number;
  readonly afterLastResultMs: number;
  readonly cpuMs: number;
}

async function once(host: HostName, scenario: RealCliScenario, signal: AbortSignal): Promise<Sample> {
  const scratch = createScratch('warden-bench-');
  let fireRootResult = (): void => undefined;
  const rootResult = new Promise<void>((resolve) => (fireRootResult = resolve));
  let script: MockScript = scenario.script(rootResult);
  const mock = await startMockModel({ script });
  try {
    const config: RunConfig = {
      host,
      prompt: scenario.prompt,
      cli: pinnedClaudePath(),
      cwd: scratch.cwd,
      env: offlineClaudeEnv({ mockUrl: mock.url, home: scratch.home, tmpdir: scratch.tmpdir }),
    };
    const messages = await runChild({
      script: HOST_RUN,
      args: [JSON.stringify(config)],
      env: process.env,
      signal,
      onMessage: (message) => {
        if (message.event === 'root-result') fireRootResult();
      },
    });
    const report = messages.find((message) => message.event === 'done') as RunReport | undefined;
    if (report === undefined) throw new Error('the host process reported nothing');
    const problem = report.error ?? scenario.check(report);
    if (problem !== undefined) throw new Error(problem);
    return {
      wallMs: report.wallMs,
      firstMessageMs: report.firstMessageMs ?? Number.NaN,
      afterLastResultMs: report.afterLastResultMs ?? Number.NaN,
      cpuMs: report.cpuMs,
    };
  } finally {
    script = () => null;
    await mock.close();
    // The CLI and anything it started carry this run's private HOME.
    killPidsWithEnv('HOME', scratch.home);
    scratch.cleanup();
  }
}

function target(walls: readonly Figure[]): TargetCheck {
  const ratios = walls.map((figure) => figure.ratio);
  const wardenFailed = walls.some((figure) => figure.failures.warden.length > 0);
  const known = ratios.filter((value): value is number => value !== undefined);
  const met = wardenFailed ? false : known.length < ratios.length ? undefined : known.every((r) => r <= 1);
  return {
    target: 'no slower than the official SDK',
    met,
    standing:
      'wall-time ratio ' +
      walls
        .map((figure) => `${figure.ratio?.toFixed(2) ?? 'n/a'} (${figure.label.split(':')[0]})`)
        .join(', ') +
      (walls.some((figure) => HOST_NAMES.some((host) => figure.failures[host].length > 0))
        ? '; some runs failed, see below'
        : ''),
    ...(met === false ? { gap: [...walls.flatMap(noiseNote), REAL_CLI_SHUTDOWN].join(' ') } : {}),
  };
}

/** How a slower median compares with the run-to-run spread of the same figure. */
function noiseNote(figure: Figure): string[] {
  const { warden, official, ratio } = figure;
  if (warden === undefined || official === undefined || ratio === undefined || ratio <= 1) return [];
  const difference = warden.median - official.median;
  const spread = Math.min(warden.max - warden.min, official.max - official.min);
  const within = difference < spread ? 'within' : 'beyond';
  return [
    `${figure.label}: Warden’s median is ${difference.toFixed(0)} ms (${((ratio - 1) * 100).toFixed(1)}%) above ` +
      `the official SDK’s, while each host’s runs spread over at least ${spread.toFixed(0)} ms — ${within} ` +
      'the noise of this shared machine.',
  ];
}

function failureNotes(outcomes: Outcomes<Sample>, scenario: RealCliScenario): string[] {
  return HOST_NAMES.flatMap((host) => {
    const failed = outcomes[host].filter((outcome) => !outcome.ok).length;
    return failed === 0
      ? []
      : [`${scenario.label}: ${HOST_LABELS[host]} failed ${failed} of ${outcomes[host].length} runs.`];
  });
}

export const realCliBenchmark: Benchmark = {
  name: NAME,
  title: TITLE,
  async run(context): Promise<BenchmarkResult> {
    const runs = context.quick ? 2 : 5;
    const boundMs = 60_000;
    const figures: Figure[] = [];
    const walls: Figure[] = [];
    const notes: string[] = [];
    for (const scenario of SCENARIOS) {
      const outcomes = await interleave({
        label: `${NAME}, ${scenario.label}`,
        runs,
        warmup: context.quick ? 0 : 1,
        boundMs,
        run: (host, signal) => once(host, scenario, signal),
        describe: (s) =>
          `wall ${s.wallMs.toFixed(0)} ms (first message ${s.firstMessageMs.toFixed(0)} ms, ` +
          `last result → end ${s.afterLastResultMs.toFixed(0)} ms), host CPU ${s.cpuMs.toFixed(0)} ms`,
        log: context.log,
      });
      const wall = figureOf(
        {
          id: `${scenario.id}-wall`,
          label: `${scenario.label}: wall time`,
          unit: 'ms',
          better: 'lower',
          digits: 0,
        },
        outcomes,
        (s) => s.wallMs,
      );
      walls.push(wall);
      figures.push(
        wall,
        figureOf(
          {
            id: `${scenario.id}-first`,
            label: `${scenario.label}: query() → first message`,
            unit: 'ms',
            better: 'lower',
            digits: 0,
          },
          outcomes,
          (s) => s.firstMessageMs,
        ),
        figureOf(
          {
            id: `${scenario.id}-end`,
            label: `${scenario.label}: last result → end of iteration`,
            unit: 'ms',
            better: 'lower',
            digits: 0,
          },
          outcomes,
          (s) => s.afterLastResultMs,
        ),
        figureOf(
          {
            id: `${scenario.id}-cpu`,
            label: `${scenario.label}: host CPU`,
            unit: 'ms',
            better: 'lower',
            digits: 0,
          },
          outcomes,
          (s) => s.cpuMs,
        ),
      );
      notes.push(...failureNotes(outcomes, scenario));
    }
    const check = target(walls);
    return {
      name: NAME,
      title: TITLE,
      method:
        'The pinned Claude Code CLI, offline against the testkit’s mock Messages API, one fresh HOME per run. ' +
        SCENARIOS.map((scenario) => scenario.description).join(' ') +
        ' Wall time from query() to the end of iteration; host CPU is process.cpuUsage() of the host’s own ' +
        `Node process over the same span. Bounded at ${formatBound(boundMs)} per run.`,
      runsPerHost: runs,
      parameters: { boundMs },
      figures,
      targets: [check],
      // When the target is missed, the gap text already carries this.
      notes: check.met === false ? notes : [...notes, REAL_CLI_SHUTDOWN],
    };
  },
};
