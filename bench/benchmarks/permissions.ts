// 2. Permission round trip. The fake CLI sends can_use_tool requests one after another (the next one once
// the previous reply is read) and times each on its side, from writing the request line to reading the
// reply line; the host answers with an allow-everything callback. So the figure is everything a host adds
// between a permission request and its answer: reading, parsing, dispatch, callback, serialising, writing.
// Each run is a host in its own Node process (bench/permissions/round-trips.mjs), measured twice over:
// pinned with the fake CLI to one core (the steady figure, and the one the targets are checked on) and
// placed freely by the scheduler; and in two phases, a new process's first requests (cold) and as many
// again once it is warm (steady).
import { fileURLToPath } from 'node:url';
import { pinToOneCore } from '../lib/affinity.js';
import { formatBound } from '../lib/bounded.js';
import { runChild } from '../lib/child-run.js';
import { figureOf } from '../lib/figures.js';
import type { HostName } from '../lib/hosts.js';
import { interleave } from '../lib/interleave.js';
import type { Benchmark, BenchContext, BenchmarkResult, Figure, TargetCheck } from '../lib/model.js';
import { killRun, newRunMarker, RUN_MARKER_VARIABLE } from '../lib/processes.js';
import {
  PERMISSIONS_COLD_NOTE,
  PERMISSIONS_PARITY_GAP,
  PERMISSIONS_GAP,
  PERMISSIONS_PLACEMENT,
} from './findings.js';

const NAME = 'permissions';
const TITLE = 'Permission round trip';
const ROUND_TRIPS = fileURLToPath(new URL('../permissions/round-trips.mjs', import.meta.url));

/** One phase of a run, as round-trips.mjs prints it (µs). */
interface PhaseSample {
  readonly p50: number;
  readonly p99: number;
  readonly cpuPerRequest: number;
}

interface RoundTripSample {
  readonly cold: PhaseSample;
  readonly steady: PhaseSample;
}

interface Placement {
  readonly id: string;
  readonly label: string;
  readonly wrapper: readonly string[] | undefined;
}

async function once(
  host: HostName,
  requests: number,
  placement: Placement,
  signal: AbortSignal,
): Promise<RoundTripSample> {
  const marker = newRunMarker();
  try {
    const messages = await runChild({
      script: ROUND_TRIPS,
      args: [host, String(requests)],
      ...(placement.wrapper === undefined ? {} : { wrapper: placement.wrapper }),
      env: { ...process.env, [RUN_MARKER_VARIABLE]: marker },
      signal,
    });
    const sample = messages.at(-1) as RoundTripSample | undefined;
    if (sample?.steady?.p50 === undefined) throw new Error('the helper reported no measurement');
    return sample;
  } finally {
    killRun(marker);
  }
}

const us = (value: number | undefined): string => (value === undefined ? 'n/a' : `${value.toFixed(0)} µs`);
const ratioText = (figure: Figure): string => figure.ratio?.toFixed(2) ?? 'n/a';

function halfTarget(p50: Figure): TargetCheck {
  const met = p50.ratio === undefined ? undefined : p50.ratio <= 0.5;
  return {
    target: "p50 at most half the official's",
    met,
    standing: `${p50.label}: ${us(p50.warden?.median)} vs ${us(p50.official?.median)} (ratio ${ratioText(p50)})`,
    ...(met === false ? { gap: PERMISSIONS_GAP } : {}),
  };
}

function parityTarget(p50: Figure, cpu: Figure): TargetCheck {
  const met =
    p50.ratio === undefined || cpu.ratio === undefined ? undefined : p50.ratio <= 1 && cpu.ratio <= 1;
  return {
    target: "p50 and host CPU at most the official's",
    met,
    standing: `${p50.label} ratio ${ratioText(p50)}; ${cpu.label} ratio ${ratioText(cpu)}`,
    ...(met === false ? { gap: PERMISSIONS_PARITY_GAP } : {}),
  };
}

async function measure(
  context: BenchContext,
  placement: Placement,
  runs: number,
  requests: number,
  boundMs: number,
): Promise<Figure[]> {
  const outcomes = await interleave({
    label: `${NAME}, ${placement.label}`,
    runs,
    warmup: 1,
    boundMs,
    run: (host, signal) => once(host, requests, placement, signal),
    describe: ({ cold, steady }) =>
      `cold p50 ${cold.p50.toFixed(0)} µs, CPU ${cold.cpuPerRequest.toFixed(1)} µs/request; ` +
      `steady p50 ${steady.p50.toFixed(0)} µs, p99 ${steady.p99.toFixed(0)} µs, ` +
      `CPU ${steady.cpuPerRequest.toFixed(1)} µs/request`,
    log: context.log,
  });
  const spec = (id: string, label: string, digits: number) =>
    ({
      id: `${placement.id}-${id}`,
      label: `${placement.label}: ${label}`,
      unit: 'µs',
      better: 'lower',
      digits,
    }) as const;
  return [
    figureOf(spec('p50', 'round trip p50, steady', 0), outcomes, (sample) => sample.steady.p50),
    figureOf(spec('p99', 'round trip p99, steady', 0), outcomes, (sample) => sample.steady.p99),
    figureOf(
      spec('cpu', 'host CPU per round trip, steady', 1),
      outcomes,
      (sample) => sample.steady.cpuPerRequest,
    ),
    figureOf(spec('cold-p50', 'round trip p50, cold', 0), outcomes, (sample) => sample.cold.p50),
    figureOf(
      spec('cold-cpu', 'host CPU per round trip, cold', 1),
      outcomes,
      (sample) => sample.cold.cpuPerRequest,
    ),
  ];
}

export const permissionsBenchmark: Benchmark = {
  name: NAME,
  title: TITLE,
  async run(context): Promise<BenchmarkResult> {
    const runs = context.quick ? 3 : 8;
    const requests = context.quick ? 1000 : 5000;
    const boundMs = 60_000;
    const pinned = pinToOneCore();
    const placements: Placement[] = [
      ...(pinned === undefined ? [] : [{ id: 'pinned', label: 'one core', wrapper: pinned }]),
      { id: 'free', label: 'free placement', wrapper: undefined },
    ];
    const figures: Figure[] = [];
    for (const placement of placements)
      figures.push(...(await measure(context, placement, runs, requests, boundMs)));
    return {
      name: NAME,
      title: TITLE,
      method:
        `The fake CLI sends ${(2 * requests).toLocaleString('en-US')} \`can_use_tool\` requests in a row, each ` +
        "once the previous reply is read, to an allow-everything `canUseTool`; latency is measured on the CLI's " +
        "side, from writing the request line to reading the reply line; the median over runs of each run's " +
        'p50 and p99 (nearest rank). Each host runs in a Node process of its own, started with plain `node` ' +
        '(Warden as built, the official SDK as published), so *host CPU* is its own, divided by the round ' +
        `trips of the phase. *Cold*: the process's first ${requests.toLocaleString('en-US')} requests; *steady*: ` +
        `the next ${requests.toLocaleString('en-US')}. ` +
        (pinned === undefined
          ? 'taskset is not available here, so only free placement is measured. '
          : `*One core*: the host and the fake CLI pinned together to one core (\`${pinned.join(' ')}\`); ` +
            '*free placement*: wherever the scheduler puts them. ') +
        `Each run is bounded at ${formatBound(boundMs)}.`,
      runsPerHost: runs,
      parameters: { requests, boundMs, pinned: pinned === undefined ? 'no' : pinned.join(' ') },
      figures,
      targets: [halfTarget(figures[0]!), parityTarget(figures[0]!, figures[2]!)],
      notes: [PERMISSIONS_PLACEMENT, PERMISSIONS_COLD_NOTE],
    };
  },
};
