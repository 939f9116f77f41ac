// 3. Stdout throughput. The fake CLI writes `assistant` messages as fast as the pipe takes them (small
// ones in 64 KiB blocks, so that it costs next to nothing itself); the host's consumer only counts them.
// Messages per second run from system/init, written just before the burst, to the `result` after it;
// host CPU is process.cpuUsage() around the whole iteration (spawn and exit included).
import { readFileSync } from 'node:fs';
import { formatBound } from '../lib/bounded.js';
import { BENCH_CLI, benchCliEnv } from '../lib/fake-cli.js';
import { figureOf } from '../lib/figures.js';
import type { HostName } from '../lib/hosts.js';
import { interleave } from '../lib/interleave.js';
import type { Benchmark, BenchContext, BenchmarkResult, Figure, TargetCheck } from '../lib/model.js';
import { killRun, newRunMarker } from '../lib/processes.js';
import { THROUGHPUT_GAP, THROUGHPUT_LOAD_NOTE } from './findings.js';

interface Sample {
  readonly messagesPerSecond: number;
  readonly megabytesPerSecond: number;
  readonly cpuSeconds: number;
  /** How often the host's main thread went to sleep for want of work (mostly: waiting for stdout). */
  readonly waits: number;
}

interface Size {
  readonly id: string;
  readonly label: string;
  readonly count: number;
  readonly bytes: number;
  readonly boundMs: number;
}

const NAME = 'throughput';
const TITLE = 'Stdout throughput';
const MiB = 1024 * 1024;

async function once(context: BenchContext, host: HostName, size: Size, signal: AbortSignal): Promise<Sample> {
  const marker = newRunMarker();
  const waitsBefore = voluntaryContextSwitches();
  const cpuBefore = process.cpuUsage();
  const q = context.hosts[host]({
    prompt: 'go',
    options: {
      pathToClaudeCodeExecutable: BENCH_CLI,
      env: benchCliEnv(marker, {
        BENCH_MODE: 'throughput',
        BENCH_COUNT: String(size.count),
        BENCH_BYTES: String(size.bytes),
      }),
    },
  });
  const stop = (): void => q.close();
  signal.addEventListener('abort', stop, { once: true });
  try {
    let startedAt: number | undefined;
    let endedAt: number | undefined;
    let lineBytes = 0;
    let messages = 0;
    for await (const message of q) {
      if (message.type === 'assistant') messages += 1;
      else if (message.type === 'system' && message.subtype === 'init') startedAt = performance.now();
      else if (message.type === 'result') {
        endedAt = performance.now();
        lineBytes = Number(message.bench_line_bytes);
      }
    }
    const cpu = process.cpuUsage(cpuBefore);
    const waits = voluntaryContextSwitches() - waitsBefore;
    if (messages !== size.count) throw new Error(`delivered ${messages} of ${size.count} messages`);
    if (startedAt === undefined || endedAt === undefined) throw new Error('no system/init or result');
    const seconds = (endedAt - startedAt) / 1000;
    return {
      messagesPerSecond: messages / seconds,
      megabytesPerSecond: (messages * lineBytes) / MiB / seconds,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      waits,
    };
  } finally {
    signal.removeEventListener('abort', stop);
    killRun(marker);
  }
}

/** The main thread's voluntary context switches (Linux): each is a sleep in the event loop. */
function voluntaryContextSwitches(): number {
  const status = readFileSync('/proc/thread-self/status', 'utf8');
  return Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? Number.NaN);
}

function target(rates: readonly Figure[], big: Size): TargetCheck {
  const ratios = rates.map((figure) => figure.ratio);
  const known = ratios.filter((value): value is number => value !== undefined);
  const bigDelivered = rates[1]?.warden !== undefined;
  const met = known.length < ratios.length ? undefined : known.every((value) => value >= 2) && bigDelivered;
  return {
    target: `at least twice the official's throughput, and ${big.bytes / MiB} MiB lines handled`,
    met,
    standing:
      `messages/s ratio ${ratios.map((value) => value?.toFixed(2) ?? 'n/a').join(' (1 KiB) / ')} (${big.bytes / MiB} MiB); ` +
      `${big.bytes / MiB} MiB lines ${bigDelivered ? 'delivered' : 'NOT delivered'} by Warden`,
    ...(met === false ? { gap: THROUGHPUT_GAP } : {}),
  };
}

export const throughputBenchmark: Benchmark = {
  name: NAME,
  title: TITLE,
  async run(context): Promise<BenchmarkResult> {
    const runs = context.quick ? 3 : 7;
    const sizes: Size[] = [
      {
        id: 'small',
        label: '1 KiB messages',
        count: context.quick ? 20_000 : 200_000,
        bytes: 1024,
        boundMs: 120_000,
      },
      { id: 'big', label: '8 MiB messages', count: context.quick ? 5 : 20, bytes: 8 * MiB, boundMs: 120_000 },
    ];
    const figures: Figure[] = [];
    const rates: Figure[] = [];
    for (const size of sizes) {
      const outcomes = await interleave({
        label: `${NAME}, ${size.count.toLocaleString('en-US')} × ${size.label}`,
        runs,
        warmup: 1,
        boundMs: size.boundMs,
        run: (host, signal) => once(context, host, size, signal),
        describe: (s) =>
          `${s.messagesPerSecond.toFixed(0)} msg/s, ${s.megabytesPerSecond.toFixed(0)} MiB/s, ` +
          `CPU ${s.cpuSeconds.toFixed(2)} s, ${s.waits} waits`,
        log: context.log,
      });
      const label = `${size.count.toLocaleString('en-US')} × ${size.label}`;
      const rate = figureOf(
        {
          id: `${size.id}-rate`,
          label: `${label}: rate`,
          unit: 'messages/s',
          better: 'higher',
          digits: size.bytes > MiB ? 1 : 0,
        },
        outcomes,
        (s) => s.messagesPerSecond,
      );
      rates.push(rate);
      figures.push(
        rate,
        figureOf(
          { id: `${size.id}-mbps`, label: `${label}: bytes`, unit: 'MiB/s', better: 'higher', digits: 0 },
          outcomes,
          (s) => s.megabytesPerSecond,
        ),
        figureOf(
          { id: `${size.id}-cpu`, label: `${label}: host CPU`, unit: 's', better: 'lower', digits: 2 },
          outcomes,
          (s) => s.cpuSeconds,
        ),
        figureOf(
          {
            id: `${size.id}-waits`,
            label: `${label}: host waits`,
            unit: 'sleeps',
            better: 'lower',
            digits: 0,
          },
          outcomes,
          (s) => s.waits,
        ),
      );
    }
    return {
      name: NAME,
      title: TITLE,
      method:
        'The fake CLI writes the messages as fast as the pipe takes them; the consumer only counts them. ' +
        'Rate from `system/init` (written just before the burst) to the `result` after it; host CPU is ' +
        '`process.cpuUsage()` of the host process around the whole iteration (spawn and exit included). ' +
        '*Host waits* counts the voluntary context switches of the host’s main thread (each a sleep in the ' +
        `event loop, mostly for stdout data). Each run is bounded at ${formatBound(sizes[0]!.boundMs)}.`,
      runsPerHost: runs,
      parameters: Object.fromEntries(sizes.map((size) => [`${size.id}Messages`, size.count])),
      figures,
      targets: [target(rates, sizes[1]!)],
      notes: [THROUGHPUT_LOAD_NOTE],
    };
  },
};
