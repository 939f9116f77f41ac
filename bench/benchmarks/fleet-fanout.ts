// 8. Events fanned out to WebSocket clients across a fleet, Warden alone (the official SDK has no server):
// two hosts — each a Supervisor and its server in a Node process of its own — on one PostgreSQL database,
// 50 `ws` clients on each; the scripted CLI of a thread on host A writes assistant messages (one commit
// each). *Burst*: as fast as A's supervisor logs them — events/s delivered to each client and in total.
// *Paced*: a steady stream below the log's capacity — the delay from the commit on A (the event's `at`)
// to its arrival at each client, on A and on B. The same on one SQLite host with 50 clients, for
// comparison. Every client checks that it got every event exactly once, in seq order (a run fails
// otherwise). PostgreSQL: a throwaway cluster with durable settings, a new database per run, or the server
// WARDEN_TEST_PG_URL names.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

import type { StoredEvent } from '../../src/server/index.js';
import { startPostgresCluster, type PostgresCluster } from '../../src/testing/postgres-cluster.js';
import { formatBound } from '../lib/bounded.js';
import { describeFailures, wardenFigureOf } from '../lib/figures.js';
import type { Benchmark, BenchContext, BenchmarkResult, Figure, TargetCheck } from '../lib/model.js';
import { failures, successes, type Outcome } from '../lib/outcomes.js';
import { killRun, newRunMarker } from '../lib/processes.js';
import { repeat } from '../lib/repeat.js';
import { percentile } from '../lib/stats.js';
import { startHost, type RunningHost } from '../fleet/hosts.js';
import { EventClient, HttpClient } from '../supervisor-server/clients.js';
import type { Script } from '../supervisor-server/scripted-cli.js';

const NAME = 'fleet-fanout';
const TITLE = 'Fleet: events fanned out to WebSocket clients';
const WARDEN_ONLY =
  'the official SDK has no event log, no server and no fleet, so there is nothing to compare with: these ' +
  'are absolute figures, without a ratio.';

type Topology = 'sqlite' | 'fleet';

interface Sizes {
  readonly burstEvents: number;
  readonly pacedEvents: number;
  readonly pacedPerSecond: number;
  readonly clientsPerHost: number;
  readonly textBytes: number;
}

/** What the clients of one host saw. */
interface HostSide {
  /** Events / (the slowest client's last arrival − the first append), per client. */
  readonly perClientPerSecond: number;
  readonly lagP50Ms: number;
  readonly lagP99Ms: number;
  readonly lagMaxMs: number;
}

interface Sample {
  readonly appendedPerSecond: number;
  /** Deliveries per second over every client of every host. */
  readonly totalPerSecond: number;
  readonly a: HostSide;
  /** Undefined on one SQLite host. */
  readonly b: HostSide | undefined;
  readonly loadAverage: number;
}

interface Reader {
  readonly client: EventClient;
  next: number;
  lastAt: number;
  readonly lags: number[];
  failure: string | undefined;
}

function openReaders(host: RunningHost, count: number, events: number): Reader[] {
  const readers: Reader[] = [];
  for (let index = 0; index < count; index += 1) {
    const reader: Reader = {
      client: new EventClient(host.url, host.token, 0, (event: StoredEvent) => {
        if (event.type !== 'message.assistant') return;
        const block = event.data.blocks[0];
        const position = block?.type === 'text' ? Number(/^#(\d+) /.exec(block.text)?.[1]) : Number.NaN;
        if (position !== reader.next) reader.failure ??= `expected message #${reader.next}, got #${position}`;
        reader.next += 1;
        // `at` is the commit's Date on host A (ms resolution); all hosts share this machine's clock.
        const now = Date.now();
        reader.lags.push(now - Date.parse(event.at));
        if (position === events - 1) reader.lastAt = now;
      }),
      next: 0,
      lastAt: Number.NaN,
      lags: [],
      failure: undefined,
    };
    readers.push(reader);
  }
  return readers;
}

function sideOf(readers: readonly Reader[], events: number, firstAppendAt: number): HostSide {
  const wrong = readers.filter((reader) => reader.failure !== undefined || reader.next !== events);
  if (wrong.length > 0)
    throw new Error(
      `${wrong.length} of ${readers.length} clients did not get every message once, in order: ` +
        (wrong[0]!.failure ?? `${wrong[0]!.next} of ${events}`),
    );
  const lags = readers.flatMap((reader) => reader.lags);
  const lastDelivered = Math.max(...readers.map((reader) => reader.lastAt));
  return {
    perClientPerSecond: events / ((lastDelivered - firstAppendAt) / 1000),
    lagP50Ms: percentile(lags, 50),
    lagP99Ms: percentile(lags, 99),
    // Not Math.max(...lags): a burst has more values than the call stack has room for arguments.
    lagMaxMs: lags.reduce((max, lag) => Math.max(max, lag), 0),
  };
}

async function once(
  topology: Topology,
  script: Script & { kind: 'events' },
  sizes: Sizes,
  cluster: PostgresCluster | undefined,
  signal: AbortSignal,
): Promise<Sample> {
  const loadAverage = loadavg()[0] ?? 0;
  const marker = newRunMarker();
  const dir = mkdtempSync(join(tmpdir(), 'warden-bench-fleet-'));
  const cwd = join(dir, 'work');
  mkdirSync(cwd);
  const hosts: RunningHost[] = [];
  const readers: Reader[][] = [];
  const cleanUp = (): void => {
    killRun(marker);
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };
  signal.addEventListener('abort', cleanUp, { once: true });
  const measure = async (): Promise<Sample> => {
    const store = topology === 'fleet' ? await cluster!.createDatabase() : undefined;
    for (const name of topology === 'fleet' ? ['a', 'b'] : ['a']) {
      hosts.push(
        await startHost(
          {
            dataDir: join(dir, `data-${name}`),
            script,
            ...(store === undefined ? {} : { store, hostName: name }),
          },
          marker,
          signal,
        ),
      );
      readers.push(openReaders(hosts.at(-1)!, sizes.clientsPerHost, script.count));
    }
    await Promise.all(readers.flat().map((reader) => reader.client.opened));
    const a = hosts[0]!;
    const http = new HttpClient(a.url, a.token, 1);
    try {
      const created = await http.post('/api/threads', { cwd, mode: 'supervised', prompt: 'go' });
      if (created.status !== 201)
        throw new Error(`POST /api/threads: ${created.status} ${JSON.stringify(created.body)}`);
    } finally {
      http.close();
    }
    const message = await a.turn;
    if (message.problems.length > 0) throw new Error(`host A reported ${message.problems.join('; ')}`);
    if (message.report.kind !== 'events')
      throw new Error(`expected an events turn, got ${message.report.kind}`);
    const turn = message.report;
    await Promise.all(readers.flat().map((reader) => reader.client.received(message.lastSeq)));
    const sides = readers.map((group) => sideOf(group, script.count, turn.firstAppendAt));
    const clients = readers.flat().length;
    const slowest = Math.min(...sides.map((side) => side.perClientPerSecond));
    return {
      appendedPerSecond: script.count / ((turn.lastAppendAt - turn.firstAppendAt) / 1000),
      totalPerSecond: slowest * clients,
      a: sides[0]!,
      b: sides[1],
      loadAverage,
    };
  };
  const outcome = await measure().then(
    (sample) => ({ sample }),
    (error: unknown) => ({ error }),
  );
  await Promise.all(readers.flat().map((reader) => reader.client.close()));
  const stopped = await Promise.allSettled(hosts.map((host) => host.stop()));
  signal.removeEventListener('abort', cleanUp);
  cleanUp();
  // A failure of the run itself takes precedence over one of the shutdown.
  if ('error' in outcome) throw outcome.error;
  const failed = stopped.find((result) => result.status === 'rejected');
  if (failed !== undefined && failed.status === 'rejected') throw failed.reason;
  return outcome.sample;
}

function describe(sample: Sample): string {
  const side = (name: string, s: HostSide): string =>
    `${name} ${s.perClientPerSecond.toFixed(0)}/s per client, lag p50 ${s.lagP50Ms} p99 ${s.lagP99Ms} ms`;
  return (
    `appended ${sample.appendedPerSecond.toFixed(0)}/s; ${side('A', sample.a)}` +
    (sample.b === undefined ? '' : `; ${side('B', sample.b)}`) +
    `; ${sample.totalPerSecond.toFixed(0)} deliveries/s in total; load average ${sample.loadAverage.toFixed(2)}`
  );
}

function loadRange(outcomes: readonly Outcome<Sample>[]): string {
  const loads = successes(outcomes).map((sample) => sample.loadAverage);
  if (loads.length === 0) return 'n/a';
  return `${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`;
}

function figuresOf(
  prefix: string,
  label: string,
  outcomes: readonly Outcome<Sample>[],
  paced: boolean,
  fleet: boolean,
): Figure[] {
  const figures: Figure[] = [];
  const hostSides: [string, string, (s: Sample) => HostSide | undefined][] = fleet
    ? [
        ['a', 'host A', (s) => s.a],
        ['b', 'host B', (s) => s.b],
      ]
    : [['a', 'the host', (s) => s.a]];
  if (!paced) {
    figures.push(
      wardenFigureOf(
        {
          id: `${prefix}-appended`,
          label: `${label}: appended to the log`,
          unit: 'events/s',
          better: 'higher',
          digits: 0,
        },
        outcomes,
        (s) => s.appendedPerSecond,
      ),
    );
    for (const [key, name, pick] of hostSides)
      figures.push(
        wardenFigureOf(
          {
            id: `${prefix}-${key}-rate`,
            label: `${label}: delivered to each client on ${name}`,
            unit: 'events/s',
            better: 'higher',
            digits: 0,
          },
          outcomes,
          (s) => pick(s)?.perClientPerSecond ?? Number.NaN,
        ),
      );
    figures.push(
      wardenFigureOf(
        {
          id: `${prefix}-total`,
          label: `${label}: deliveries to all clients`,
          unit: 'events/s',
          better: 'higher',
          digits: 0,
        },
        outcomes,
        (s) => s.totalPerSecond,
      ),
    );
  }
  for (const [key, name, pick] of hostSides)
    for (const p of [50, 99] as const)
      figures.push(
        wardenFigureOf(
          {
            id: `${prefix}-${key}-lag-p${p}`,
            label: `${label}: commit on A → arrival at a client on ${name}, p${p}`,
            unit: 'ms',
            better: 'lower',
            digits: 0,
          },
          outcomes,
          (s) => (p === 50 ? pick(s)?.lagP50Ms : pick(s)?.lagP99Ms) ?? Number.NaN,
        ),
      );
  return figures;
}

export const fleetFanoutBenchmark: Benchmark = {
  name: NAME,
  title: TITLE,
  async run(context: BenchContext): Promise<BenchmarkResult> {
    const runs = context.quick ? 1 : 3;
    const sizes: Sizes = {
      burstEvents: context.quick ? 500 : 3000,
      pacedEvents: context.quick ? 200 : 1000,
      pacedPerSecond: 100,
      clientsPerHost: 50,
      textBytes: 200,
    };
    const burst: Script & { kind: 'events' } = {
      kind: 'events',
      count: sizes.burstEvents,
      textBytes: sizes.textBytes,
    };
    const paced: Script & { kind: 'events' } = {
      kind: 'events',
      count: sizes.pacedEvents,
      textBytes: sizes.textBytes,
      perSecond: sizes.pacedPerSecond,
    };
    const boundMs = 180_000;
    const cluster = await startPostgresCluster({ durable: true });
    const results: Record<string, Outcome<Sample>[]> = {};
    try {
      for (const topology of ['sqlite', 'fleet'] as const)
        for (const [phase, script] of [
          ['burst', burst],
          ['paced', paced],
        ] as const)
          results[`${topology}-${phase}`] = await repeat({
            label: `${NAME}, ${topology}, ${phase}`,
            runs,
            warmup: context.quick ? 0 : 1,
            boundMs,
            run: (signal) => once(topology, script, sizes, cluster, signal),
            describe,
            log: context.log,
          });
    } finally {
      await cluster.stop();
    }
    const b = `${sizes.burstEvents.toLocaleString('en-US')} events`;
    const p = `${sizes.pacedEvents.toLocaleString('en-US')} events at ${sizes.pacedPerSecond}/s`;
    const c = sizes.clientsPerHost;
    const figures: Figure[] = [
      ...figuresOf(
        'sqlite-burst',
        `SQLite, 1 host × ${c} clients, burst of ${b}`,
        results['sqlite-burst']!,
        false,
        false,
      ),
      ...figuresOf(
        'fleet-burst',
        `PostgreSQL, 2 hosts × ${c} clients, burst of ${b}`,
        results['fleet-burst']!,
        false,
        true,
      ),
      ...figuresOf(
        'sqlite-paced',
        `SQLite, 1 host × ${c} clients, ${p}`,
        results['sqlite-paced']!,
        true,
        false,
      ),
      ...figuresOf(
        'fleet-paced',
        `PostgreSQL, 2 hosts × ${c} clients, ${p}`,
        results['fleet-paced']!,
        true,
        true,
      ),
    ];
    const all = Object.values(results).flat();
    const failed = failures(all);
    const target: TargetCheck = {
      target: 'every client on every host gets every event exactly once, in order',
      met: all.length === 0 ? undefined : failed.length === 0,
      standing: failed.length === 0 ? 'no run failed' : `${failed.length} of ${all.length} runs failed`,
      ...(failed.length > 0 ? { gap: `failed runs: ${describeFailures(failed)}` } : {}),
    };
    return {
      name: NAME,
      title: TITLE,
      method:
        `Host processes, each a Supervisor behind \`createServer()\` (bench/supervisor-server/host.ts) with the ` +
        `scripted CLI; *SQLite*: one host; *PostgreSQL*: hosts A and B of one fleet on one database of a ` +
        `throwaway PostgreSQL 15 cluster (durable settings) on this machine. ${c} \`ws\` clients per host on ` +
        `\`/ws?since=0\`, all in the benchmark process. A thread created on A (\`POST /api/threads\`) writes ` +
        `assistant messages of ${sizes.textBytes} bytes, one commit each: a *burst* of ${b} as fast as A's ` +
        `supervisor logs them, and a *paced* stream of ${p}. Per-client rate: events over the time from the ` +
        `first append to the slowest client of that host having the last one; total: that rate × every ` +
        `client. Delay: arrival at the client minus the event's \`at\` (the commit on A, ms resolution), ` +
        `p50/p99 over every event at every client of the host. Every client checks every event arrives ` +
        `once, in seq order. Each run is bounded at ${formatBound(boundMs)}; ${runs} runs after ` +
        `${context.quick ? 'no' : 'a'} warm-up, fresh hosts, data directories and database each.`,
      runsPerHost: runs,
      parameters: { ...sizes },
      figures,
      targets: [target],
      notes: [
        `1-minute load average at the start of the runs (the machine is shared): SQLite burst ` +
          `${loadRange(results['sqlite-burst']!)}, PostgreSQL burst ${loadRange(results['fleet-burst']!)}, ` +
          `SQLite paced ${loadRange(results['sqlite-paced']!)}, PostgreSQL paced ${loadRange(results['fleet-paced']!)}.`,
        'In a burst the delay is mostly queueing: the clients and the hosts share 2 cores, and the ' +
          `${c * 2} clients of the fleet run in one process. The paced stream shows the path itself. On A ` +
          '(and on the SQLite host) an event is shown only after the durability barrier that follows its ' +
          'commit (on PostgreSQL a synchronous commit flushing the WAL; on SQLite an fsync), so A’s delay is ' +
          'mostly that flush on this shared disk. B shows another host’s events once it has folded them in ' +
          '(the NOTIFY after A’s commit, then one query), without waiting for the flush (docs/fleet.md), ' +
          'which is why B’s clients can see an event before A’s.',
      ],
      wardenOnly: WARDEN_ONLY,
    };
  },
};
