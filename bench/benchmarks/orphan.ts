// 1. Death with an orphan holding stdout. The fake CLI starts a grandchild that inherits stdout, then
// exits (0 after a clean turn, 1 mid-turn); its last line stamps the moment of exit. We time from that
// stamp to the end of the host's iteration (exit 0) or to the error it throws (exit 1). The official SDK
// waits for stdout's EOF, i.e. for the orphan to die; Warden watches the process itself.
import { formatBound } from '../lib/bounded.js';
import { BENCH_CLI, benchCliEnv, wallClock } from '../lib/fake-cli.js';
import { figureOf } from '../lib/figures.js';
import { HOST_LABELS, HOST_NAMES, type HostName } from '../lib/hosts.js';
import { interleave } from '../lib/interleave.js';
import { successes } from '../lib/outcomes.js';
import type { Benchmark, BenchContext, BenchmarkResult, Figure, TargetCheck } from '../lib/model.js';
import { killRun, newRunMarker } from '../lib/processes.js';
import { ORPHAN_BOUND, ORPHAN_GAP } from './findings.js';

interface Sample {
  /** From the CLI's exit to the end of iteration or the thrown error. */
  readonly ms: number;
  /** How the iteration ended, e.g. "ended" or "threw ProcessExitError: …". */
  readonly outcome: string;
}

const TARGET_MS = 100;

async function once(
  context: BenchContext,
  host: HostName,
  exitCode: number,
  orphanMs: number,
  signal: AbortSignal,
): Promise<Sample> {
  const marker = newRunMarker();
  const q = context.hosts[host]({
    prompt: 'go',
    options: {
      pathToClaudeCodeExecutable: BENCH_CLI,
      env: benchCliEnv(marker, {
        BENCH_MODE: 'orphan',
        BENCH_EXIT_CODE: String(exitCode),
        BENCH_ORPHAN_MS: String(orphanMs),
      }),
    },
  });
  const stop = (): void => q.close();
  signal.addEventListener('abort', stop, { once: true });
  let exitAt: number | undefined;
  let outcome = 'ended';
  try {
    try {
      for await (const message of q) {
        if (message.type === 'system' && message.subtype === 'bench_exit') exitAt = Number(message.exit_at);
      }
    } catch (error) {
      outcome = `threw ${describeError(error)}`;
    }
    const endedAt = wallClock();
    if (signal.aborted) throw new Error('stopped at the bound');
    if (exitAt === undefined) throw new Error(`the CLI's last line was not delivered (${outcome})`);
    // A fast end that misreports the exit is not a result: exit 0 must end cleanly, anything else throw.
    if ((exitCode === 0) !== (outcome === 'ended'))
      throw new Error(`the CLI exited ${exitCode} but the iteration ${outcome}`);
    return { ms: endedAt - exitAt, outcome };
  } finally {
    signal.removeEventListener('abort', stop);
    killRun(marker);
  }
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const name = error.constructor.name === 'Error' ? 'Error' : error.constructor.name;
  return `${name}: ${error.message.split('\n')[0]?.slice(0, 80) ?? ''}`;
}

function outcomesNote(label: string, samples: Record<HostName, Sample[]>): string {
  const parts = HOST_NAMES.map((host) => {
    const distinct = [...new Set(samples[host].map((sample) => sample.outcome))];
    return `${HOST_LABELS[host]}: ${distinct.length === 0 ? 'no successful run' : distinct.join(' / ')}`;
  });
  return `${label}: ${parts.join('; ')}.`;
}

function target(figures: readonly Figure[], orphanMs: number): TargetCheck {
  const worst = Math.max(...figures.map((figure) => figure.warden?.median ?? Number.POSITIVE_INFINITY));
  const officials = figures.map((figure) => figure.official?.median.toFixed(0) ?? 'n/a').join(' / ');
  const met = Number.isFinite(worst) ? worst < TARGET_MS : undefined;
  return {
    target: `Warden well under ${TARGET_MS} ms where the official SDK waits for the orphan`,
    met,
    standing:
      `Warden ${figures.map((figure) => figure.warden?.median.toFixed(1) ?? 'n/a').join(' / ')} ms ` +
      `(exit 0 / exit 1); official ${officials} ms, i.e. the orphan's remaining lifetime (${orphanMs} ms here)`,
    ...(met === false ? { gap: ORPHAN_GAP } : {}),
  };
}

const NAME = 'orphan';
const TITLE = 'Death with an orphan holding stdout';

export const orphanBenchmark: Benchmark = {
  name: NAME,
  title: TITLE,
  async run(context): Promise<BenchmarkResult> {
    const runs = context.quick ? 3 : 8;
    const orphanMs = context.quick ? 1000 : 2000;
    const boundMs = 10_000;
    const figures: Figure[] = [];
    const notes: string[] = [];
    for (const exitCode of [0, 1]) {
      const outcomes = await interleave({
        label: `orphan, exit ${exitCode}`,
        runs,
        warmup: 1,
        boundMs,
        run: (host, signal) => once(context, host, exitCode, orphanMs, signal),
        describe: (sample) => `${sample.ms.toFixed(1)} ms, ${sample.outcome}`,
        log: context.log,
      });
      figures.push(
        figureOf(
          {
            id: `exit${exitCode}`,
            label: exitCode === 0 ? 'exit 0: CLI exit → end of iteration' : 'exit 1: CLI exit → error thrown',
            unit: 'ms',
            better: 'lower',
          },
          outcomes,
          (sample) => sample.ms,
        ),
      );
      notes.push(
        outcomesNote(`Exit ${exitCode}`, {
          warden: successes(outcomes.warden),
          official: successes(outcomes.official),
        }),
      );
    }
    return {
      name: NAME,
      title: TITLE,
      method:
        `The fake CLI starts \`sleep\` (inheriting stdout and stderr) and exits; the orphan lives ${orphanMs} ms. ` +
        "Timed from the CLI's own exit stamp (its last stdout line) to the end of iteration or the thrown error. " +
        `Each run is bounded at ${formatBound(boundMs)}; the orphans are killed after every run.`,
      runsPerHost: runs,
      parameters: { orphanMs, boundMs },
      figures,
      targets: [target(figures, orphanMs)],
      notes: [...notes, ORPHAN_BOUND],
    };
  },
};
