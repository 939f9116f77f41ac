// 9. Memory of one host with many threads, few at work: parked against kept live, and what parking costs the
// next message, Warden alone (the official SDK has no threads to park). Each case is a host in a Node
// process of its own (bench/fleet/memory-host.ts) with the real CLI and the mock model. *Parked*: 1,000
// threads, 20 at work (a Bash call waiting for its approval), 980 idle and parked — measured as is. *Kept
// live*: 1,000 live CLIs do not fit this machine (about 180 MB each), so 50 threads each with a live CLI
// (20 at work, 30 idle) are measured, and 1,000 kept live is extrapolated from the idle CLIs' mean. Then one
// idle thread's next message, timed 10 times: parked before each (a new CLI resuming its session) and
// live (its CLI waiting).
import { fileURLToPath } from 'node:url';

import { bounded, formatBound } from '../lib/bounded.js';
import { runChild } from '../lib/child-run.js';
import { wardenFigureOf, type FigureSpec } from '../lib/figures.js';
import type { Benchmark, BenchContext, BenchmarkResult, Figure, TargetCheck } from '../lib/model.js';
import { reasonOf, type Outcome } from '../lib/outcomes.js';
import { killRun, newRunMarker, RUN_MARKER_VARIABLE } from '../lib/processes.js';
import { percentile } from '../lib/stats.js';
import type { MemoryHostConfig, MemoryHostResult } from '../fleet/memory-host.js';

const NAME = 'fleet-memory';
const TITLE = 'Fleet: memory of a host with 1,000 threads, parked or kept live';
const HOST = fileURLToPath(new URL('../fleet/memory-host.ts', import.meta.url));
const WARDEN_ONLY =
  'the official SDK runs one CLI per query() and has no threads to park, so there is nothing to compare ' +
  'with: these are absolute figures, without a ratio.';

async function runHost(
  config: MemoryHostConfig,
  boundMs: number,
  log: (line: string) => void,
): Promise<Outcome<MemoryHostResult>> {
  const marker = newRunMarker();
  try {
    const value = await bounded(boundMs, async (signal) => {
      const messages = await runChild({
        script: HOST,
        args: [JSON.stringify(config)],
        nodeFlags: ['--expose-gc', '--no-warnings'],
        env: { ...process.env, [RUN_MARKER_VARIABLE]: marker },
        signal,
        onMessage: (message) => {
          if (message.event === 'progress') log(`[${NAME}, ${config.mode}] ${String(message.text)}`);
        },
      });
      const result = messages.find((message) => message.event === 'result');
      if (result === undefined) throw new Error('the host reported no result');
      return result as unknown as MemoryHostResult;
    });
    return { ok: true, value };
  } catch (error) {
    log(`[${NAME}, ${config.mode}] FAILED: ${reasonOf(error)}`);
    return { ok: false, reason: reasonOf(error) };
  } finally {
    // Detached CLIs carry the marker too: nothing of the run outlives it.
    killRun(marker);
  }
}

const mib = (id: string, label: string): FigureSpec => ({
  id,
  label,
  unit: 'MiB',
  better: 'lower',
  digits: 0,
});
const ms = (id: string, label: string): FigureSpec => ({ id, label, unit: 'ms', better: 'lower', digits: 0 });

export const fleetMemoryBenchmark: Benchmark = {
  name: NAME,
  title: TITLE,
  async run(context: BenchContext): Promise<BenchmarkResult> {
    const threads = context.quick ? 200 : 1000;
    const atWork = context.quick ? 5 : 20;
    const liveThreads = context.quick ? 10 : 50;
    const probes = context.quick ? 3 : 10;
    const idleParkMs = 1000;
    const boundMs = 20 * 60_000;
    const common = { atWork, probes, idleParkMs, startConcurrency: 4 };
    const parked = await runHost({ mode: 'parked', threads, ...common }, boundMs, context.log);
    const live = await runHost({ mode: 'live', threads: liveThreads, ...common }, boundMs, context.log);
    const parkedRuns = parked.ok ? [parked] : [];
    const liveRuns = live.ok ? [live] : [];
    const idleCount = threads - atWork;
    const liveIdle = liveThreads - atWork;
    const perIdle = (r: MemoryHostResult, pick: 'rssMiB' | 'pssMiB' | 'ussMiB'): number =>
      r.idleClis.count === 0 ? Number.NaN : r.idleClis[pick] / liveIdle;
    // 1,000 kept live: the CLIs at work as measured on the parked host, plus every idle thread's CLI at the
    // mean of the idle live CLIs measured.
    const extrapolated = (pick: 'rssMiB' | 'pssMiB' | 'ussMiB'): Outcome<number>[] =>
      parked.ok && live.ok
        ? [{ ok: true, value: parked.value.atWorkClis[pick] + idleCount * perIdle(live.value, pick) }]
        : [];
    const p = (values: readonly number[], q: number): number =>
      values.length === 0 ? Number.NaN : percentile(values, q);
    const P = `${threads.toLocaleString('en-US')} threads, ${atWork} at work, ${idleCount} parked`;
    const L = `${liveThreads} threads, ${atWork} at work, ${liveIdle} idle kept live`;
    const X = `${threads.toLocaleString('en-US')} threads, ${atWork} at work, ${idleCount} idle kept live (extrapolated)`;
    const figures: Figure[] = [
      wardenFigureOf(mib('parked-host-rss', `${P}: host RSS`), parkedRuns, (r) => r.hostRssMiB),
      wardenFigureOf(mib('parked-host-heap', `${P}: host heap used`), parkedRuns, (r) => r.hostHeapUsedMiB),
      wardenFigureOf(
        {
          id: 'parked-cli-count',
          label: `${P}: CLI processes`,
          unit: 'processes',
          better: 'lower',
          digits: 0,
        },
        parkedRuns,
        (r) => r.cliCount,
      ),
      wardenFigureOf(mib('parked-cli-rss', `${P}: CLIs' RSS, summed`), parkedRuns, (r) => r.clis.rssMiB),
      wardenFigureOf(mib('parked-cli-pss', `${P}: CLIs' PSS, summed`), parkedRuns, (r) => r.clis.pssMiB),
      wardenFigureOf(mib('live-host-rss', `${L}: host RSS`), liveRuns, (r) => r.hostRssMiB),
      wardenFigureOf(mib('live-host-heap', `${L}: host heap used`), liveRuns, (r) => r.hostHeapUsedMiB),
      wardenFigureOf(
        { id: 'live-cli-count', label: `${L}: CLI processes`, unit: 'processes', better: 'lower', digits: 0 },
        liveRuns,
        (r) => r.cliCount,
      ),
      wardenFigureOf(mib('live-cli-rss', `${L}: CLIs' RSS, summed`), liveRuns, (r) => r.clis.rssMiB),
      wardenFigureOf(mib('live-cli-pss', `${L}: CLIs' PSS, summed`), liveRuns, (r) => r.clis.pssMiB),
      wardenFigureOf(mib('live-idle-cli-rss', `${L}: RSS per idle live CLI`), liveRuns, (r) =>
        perIdle(r, 'rssMiB'),
      ),
      wardenFigureOf(mib('live-idle-cli-pss', `${L}: PSS per idle live CLI`), liveRuns, (r) =>
        perIdle(r, 'pssMiB'),
      ),
      wardenFigureOf(mib('live-idle-cli-uss', `${L}: unique memory (USS) per idle live CLI`), liveRuns, (r) =>
        perIdle(r, 'ussMiB'),
      ),
      wardenFigureOf(
        mib('extrapolated-cli-rss', `${X}: CLIs' RSS, summed`),
        extrapolated('rssMiB'),
        (v) => v,
      ),
      wardenFigureOf(
        mib('extrapolated-cli-pss', `${X}: CLIs' PSS, summed`),
        extrapolated('pssMiB'),
        (v) => v,
      ),
      wardenFigureOf(
        mib('extrapolated-cli-uss', `${X}: CLIs' USS, summed`),
        extrapolated('ussMiB'),
        (v) => v,
      ),
    ];
    for (const [key, label, runs] of [
      [
        'parked',
        `a parked thread's next message (a new CLI resuming its session), ${probes} sends`,
        parkedRuns,
      ],
      ['live', `a live idle thread's next message, ${probes} sends`, liveRuns],
    ] as const)
      for (const [what, pick] of [
        ['send → first model request', (r: MemoryHostResult) => r.toModelMs],
        ['send → run completed', (r: MemoryHostResult) => r.toCompletedMs],
      ] as const)
        for (const q of [50, 99] as const)
          figures.push(
            wardenFigureOf(
              ms(
                `${key}-${what.includes('model') ? 'model' : 'completed'}-p${q}`,
                `${label}: ${what}, p${q}`,
              ),
              runs,
              (r) => p(pick(r), q),
            ),
          );
    const met = parked.ok ? parked.value.cliCount === atWork && parked.value.parked === idleCount : undefined;
    const target: TargetCheck = {
      target: `a host with ${threads.toLocaleString('en-US')} threads holds CLIs only for the ${atWork} at work`,
      met,
      standing: parked.ok
        ? `${parked.value.cliCount} CLI processes for ${parked.value.atWork} threads at work; ` +
          `${parked.value.parked} of ${idleCount} idle threads parked`
        : `the parked run failed: ${parked.reason}`,
      ...(met === false ? { gap: 'a CLI outlived its park, or an idle thread was not parked' } : {}),
    };
    const load = (outcome: Outcome<MemoryHostResult>): string =>
      outcome.ok
        ? `${outcome.value.loadAverageAtMeasure.toFixed(1)} at the memory measurement, ` +
          `${outcome.value.loadAverageAtProbes.toFixed(1)} when the sends began; the run took ${outcome.value.seconds.toFixed(0)} s`
        : `failed: ${outcome.reason}`;
    return {
      name: NAME,
      title: TITLE,
      method:
        `One host (a Supervisor on SQLite, detached CLIs) in a Node process of its own, the real CLI ` +
        `answered by the mock model (in the same process). *Parked*: ${P} (idle period ${idleParkMs} ms); a ` +
        `thread at work has a turn running — a \`Bash\` call waiting for its approval, which is never parked. ` +
        `${idleCount - 1} of the idle threads had their one exchange through an in-process scripted CLI ` +
        `(starting that many real CLIs only to park them would take this machine for many minutes) and are ` +
        `parked as any thread is; one, the probe, talks to the real CLI. *Kept live*: ${L} (never parked), ` +
        `every CLI real. *Extrapolated*: the ${atWork} CLIs at work as measured parked, plus ${idleCount} × ` +
        `the mean of the idle live CLIs — ${idleCount} live CLIs are not measured (they would not fit this ` +
        `machine's memory). Host: \`process.memoryUsage()\` after two full GCs (RSS includes Node, tsx and the ` +
        `mock model). CLIs: every process of each thread's CLI tree; RSS counts the pages the CLIs share ` +
        `(the executable) in each, PSS divides them, USS leaves them out. Next message: the probe's \`send()\` → the mock's first ` +
        `main request carrying the message, and → \`run.ended\` (completed); parked: waits until the probe is ` +
        `parked and its CLI gone before each send. p99 of ${probes} sends is the slowest. Each host is bounded ` +
        `at ${formatBound(boundMs)}; one run each.`,
      runsPerHost: 1,
      parameters: { threads, atWork, liveThreads, probes, idleParkMs },
      figures,
      targets: [target],
      notes: [
        `1-minute load average (the machine is shared) — parked: ${load(parked)}; kept live: ${load(live)}.`,
        `Extrapolating: RSS counts the pages the CLIs share (the executable's) once per CLI, so its sum ` +
          `overstates; PSS divides shared pages among the CLIs running, so each of ${liveThreads} CLIs holds ` +
          `a larger share than each of ${threads.toLocaleString('en-US')} would; USS (pages only that ` +
          `process maps) is what each further CLI adds, so the USS sum (plus the shared pages, once) is the ` +
          `closest estimate.`,
        'Host RSS before the Supervisor opened (Node, tsx, the mock model): ' +
          [parked, live]
            .map((o) => (o.ok ? `${o.value.mode} ${o.value.baselineRssMiB.toFixed(0)} MiB` : 'n/a'))
            .join(', ') +
          '.',
      ],
      wardenOnly: WARDEN_ONLY,
    };
  },
};
