// 4. Memory per idle session. Each host's sessions run in a fresh Node process of their own, so that the
// two hosts' heaps never mix: load the host, open one throwaway session, take a baseline (after full
// GCs), open N sessions against an idle fake CLI, wait for each one's system/init, measure again.
import { chmodSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { formatBound } from '../lib/bounded.js';
import { runChild } from '../lib/child-run.js';
import { figureOf } from '../lib/figures.js';
import type { HostName } from '../lib/hosts.js';
import { interleave } from '../lib/interleave.js';
import type { Benchmark, BenchmarkResult, Figure, TargetCheck } from '../lib/model.js';
import { killRun, newRunMarker, RUN_MARKER_VARIABLE } from '../lib/processes.js';
import type { MemorySample } from '../memory/sessions.js';
import { MEMORY_GAP, MEMORY_NOTE } from './findings.js';

const NAME = 'memory';
const TITLE = 'Memory per idle session';
const SESSIONS_SCRIPT = fileURLToPath(new URL('../memory/sessions.ts', import.meta.url));
const IDLE_CLI = fileURLToPath(new URL('../fake-cli/idle-cli.sh', import.meta.url));

async function once(host: HostName, sessions: number, signal: AbortSignal): Promise<MemorySample> {
  const marker = newRunMarker();
  try {
    const messages = await runChild({
      script: SESSIONS_SCRIPT,
      args: [host, String(sessions), IDLE_CLI],
      nodeFlags: ['--expose-gc', '--no-warnings'],
      env: { ...process.env, [RUN_MARKER_VARIABLE]: marker },
      signal,
    });
    const sample = messages.at(-1) as MemorySample | undefined;
    if (sample?.sessions !== sessions) throw new Error('the helper reported no measurement');
    return sample;
  } finally {
    killRun(marker);
  }
}

function target(rss: Figure, heap: Figure): TargetCheck {
  const met =
    rss.ratio === undefined || heap.ratio === undefined ? undefined : rss.ratio <= 0.5 && heap.ratio <= 0.5;
  const kib = (figure: Figure, host: 'warden' | 'official'): string =>
    figure[host]?.median.toFixed(0) ?? 'n/a';
  return {
    target: "at most half the official's memory per session",
    met,
    standing:
      `RSS ${kib(rss, 'warden')} vs ${kib(rss, 'official')} KiB/session (ratio ${rss.ratio?.toFixed(2) ?? 'n/a'}), ` +
      `heap ${kib(heap, 'warden')} vs ${kib(heap, 'official')} KiB/session (ratio ${heap.ratio?.toFixed(2) ?? 'n/a'})`,
    ...(met === false ? { gap: MEMORY_GAP } : {}),
  };
}

export const memoryBenchmark: Benchmark = {
  name: NAME,
  title: TITLE,
  async run(context): Promise<BenchmarkResult> {
    // Both hosts spawn it directly, so it must be executable whatever the checkout did to its mode.
    chmodSync(IDLE_CLI, 0o755);
    const runs = context.quick ? 1 : 5;
    const sessions = context.quick ? 20 : 100;
    const boundMs = 120_000;
    const outcomes = await interleave({
      label: `${NAME}, ${sessions} sessions`,
      runs,
      warmup: 0,
      boundMs,
      run: (host, signal) => once(host, sessions, signal),
      describe: (s) =>
        `RSS ${s.rssPerSessionKiB.toFixed(0)} KiB/session, heap ${s.heapPerSessionKiB.toFixed(0)} KiB/session`,
      log: context.log,
    });
    const rss = figureOf(
      { id: 'rss', label: 'RSS per session', unit: 'KiB', better: 'lower', digits: 0 },
      outcomes,
      (s) => s.rssPerSessionKiB,
    );
    const heap = figureOf(
      { id: 'heap', label: 'V8 heap per session', unit: 'KiB', better: 'lower', digits: 0 },
      outcomes,
      (s) => s.heapPerSessionKiB,
    );
    return {
      name: NAME,
      title: TITLE,
      method:
        `${sessions} concurrent sessions per host, each idle after \`system/init\` (streaming input held open), ` +
        'in a fresh Node process per host and run; growth of RSS and of the V8 heap (after full GCs) over a ' +
        'baseline taken with the host loaded and one session already open, divided by the number of ' +
        `sessions. The fake CLI is a small shell script (bench/fake-cli/idle-cli.sh). Bounded at ${formatBound(boundMs)} per run.`,
      runsPerHost: runs,
      parameters: { sessions, boundMs },
      figures: [rss, heap],
      targets: [target(rss, heap)],
      notes: [MEMORY_NOTE],
    };
  },
};
