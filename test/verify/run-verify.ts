// One verify run: a fleet of real `warden serve` hosts on one real PostgreSQL (fleet.ts), the real CLI
// answered by the mock model, simulated people racing each other over HTTP (people.ts), WebSocket clients
// on every host, and faults injected one after another (faults.ts) — all drawn from one seed. At the end
// the fleet settles, the whole log is read from the database, what each CLI received is taken from the
// mock (the tool ran: allow; an error result: deny), and the checker proves the guarantees over it all.
import { setTimeout as sleep } from 'node:timers/promises';

import { scenario, startTestWorld } from '../../src/testing/index.js';
import { startThrowawayCluster } from '../../src/testing/postgres-cluster.js';
import { watchToolResults } from '../e2e/helpers/tool-results.js';
import { between, pick, seeded } from '../reliability/soak/random.js';
import { checkHistory, type Anomaly } from './checker.js';
import { FAULT_KINDS, injectFault, type FaultKind } from './faults.js';
import { startFleet } from './fleet.js';
import { HistoryRecorder, type LogEvent } from './history.js';
import { playRound } from './people.js';
import { observeSockets } from './socket-observers.js';

export interface VerifyOptions {
  readonly seconds: number;
  readonly seed: number;
  readonly hosts?: number;
  /** Rounds played at once. */
  readonly lanes?: number;
  /** The faults to draw from; with `eachOnce` every kind is injected once, in this order. */
  readonly faults?: readonly FaultKind[];
  readonly eachOnce?: boolean;
  /** The pause before each fault, drawn from [min, max] ms; default [2000, 6000]. */
  readonly faultGapMs?: readonly [number, number];
  /** A module every host imports first (`--import`): the proof runs break a host with it. */
  readonly preload?: string;
  /** Every host's link drops the NOTIFY messages of PostgreSQL from the start. */
  readonly dropNotify?: boolean;
  /** The longest pause of a person before deciding (default 1500 ms; 0: everyone at once). */
  readonly raceMs?: number;
  readonly log?: (line: string) => void;
}

export interface VerifyResult {
  readonly seed: number;
  readonly seconds: number;
  readonly rounds: number;
  readonly approvals: number;
  readonly unsettledRounds: number;
  readonly operations: number;
  readonly operationsByKind: Record<string, number>;
  readonly events: number;
  readonly faults: Record<FaultKind, number>;
  readonly notificationsDropped: number;
  /** From a winning decide's answer to its tool result at the mock: median and slowest, in ms. */
  readonly deliveryMs: { readonly median: number; readonly max: number };
  readonly anomalies: readonly Anomaly[];
}

const FINAL_TYPES = new Set(['approval.decided', 'approval.cancelled', 'approval.expired']);

export async function runVerify(options: VerifyOptions): Promise<VerifyResult> {
  const log = options.log ?? (() => undefined);
  const random = seeded(options.seed);
  const startedAt = Date.now();
  const teardown: (() => unknown)[] = [];
  const { script, log: tools } = watchToolResults(
    scenario()
      .on('verify')
      .callTool('Bash', { command: 'touch verified.txt', description: 'Create a file' })
      .thenAnswer('The file is there.')
      .build(),
  );
  const world = await startTestWorld(
    { after: (fn) => teardown.push(fn) },
    { prefix: 'warden-verify-', script, exitGraceMs: 20_000 },
  );
  const history = new HistoryRecorder();
  const faults = Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])) as Record<FaultKind, number>;
  let rounds = 0;
  let unsettledRounds = 0;
  try {
    const cluster = await startThrowawayCluster();
    world.defer(() => cluster.stop());
    const fleet = await startFleet({
      world,
      cluster,
      hostCount: options.hosts ?? 3,
      ...(options.preload === undefined ? {} : { preload: options.preload }),
    });
    world.defer(() => fleet.stop());
    if (options.dropNotify === true) for (const host of fleet.hosts) host.proxy.dropNotifications(true);
    log(
      `verify: seed ${options.seed}; ${fleet.hosts.length} hosts up (${fleet.hosts.map((h) => h.url).join(', ')})`,
    );
    const sockets = observeSockets(history, fleet.hosts);
    const endAt = startedAt + options.seconds * 1000;
    // One stream of random numbers per actor, drawn from the seed up front, so that the people's choices
    // do not depend on how the faults' timing interleaves with theirs.
    const laneRandoms = Array.from({ length: options.lanes ?? 2 }, () =>
      seeded(Math.floor(random() * 2 ** 32)),
    );
    const faultRandom = seeded(Math.floor(random() * 2 ** 32));
    const lanes = laneRandoms.map(async (laneRandom, i) => {
      while (Date.now() < endAt) {
        const round = await playRound(
          `lane${i}`,
          world.scratch.cwd,
          laneRandom,
          fleet.hosts,
          history,
          options.raceMs,
        );
        rounds++;
        if (!round.settled) unsettledRounds++;
      }
    });
    const kinds = options.faults ?? FAULT_KINDS;
    const faulting = (async () => {
      for (
        let i = 0;
        kinds.length > 0 && (options.eachOnce === true ? i < kinds.length : Date.now() < endAt);
        i++
      ) {
        await sleep(between(faultRandom, ...(options.faultGapMs ?? [2000, 6000])));
        if (options.eachOnce !== true && Date.now() >= endAt) break;
        const kind = options.eachOnce === true ? kinds[i]! : pick(faultRandom, kinds)!;
        await injectFault(kind, fleet, cluster, faultRandom, log);
        faults[kind]++;
      }
    })();
    await Promise.all([faulting, ...lanes]);
    log(`verify: ${rounds} rounds played; letting the fleet settle`);
    const readLog = async (): Promise<LogEvent[]> =>
      (
        await cluster.sql('SELECT seq, type, at, data FROM warden_events ORDER BY seq', [], fleet.database)
      ).map((row) => ({
        seq: Number(row.seq),
        type: String(row.type),
        at: String(row.at),
        data: JSON.parse(String(row.data)) as Record<string, unknown>,
      }));
    // Settled: every approval of the log is final and every decided one's answer reached its CLI.
    let events = await readLog();
    for (const end = Date.now() + 90_000; Date.now() < end; await sleep(500)) {
      events = await readLog();
      const finals = new Set(events.filter((e) => FINAL_TYPES.has(e.type)).map((e) => e.data.approvalId));
      const requested = events.filter((e) => e.type === 'approval.requested');
      const decided = events.filter((e) => e.type === 'approval.decided');
      if (
        requested.every((e) => finals.has(e.data.approvalId)) &&
        decided.every((e) => tools.count(toolUseOf(events, e.data.approvalId)) > 0)
      )
        break;
    }
    sockets.stop();
    const types: Record<string, number> = {};
    for (const e of events) types[e.type] = (types[e.type] ?? 0) + 1;
    log(
      `verify: the log: ${Object.entries(types)
        .map(([type, n]) => `${type} ${n}`)
        .join(', ')}`,
    );
    for (const event of events.filter((e) => e.type === 'approval.requested')) {
      const approvalId = String(event.data.approvalId);
      const toolUseId = String(event.data.toolUseId);
      for (const result of tools.results(toolUseId))
        history.record({
          kind: 'cli-received',
          approvalId,
          toolUseId,
          behavior: result.isError ? 'deny' : 'allow',
          completedAt: result.at,
        });
    }
    const anomalies = checkHistory({ operations: history.operations, log: events });
    const operationsByKind: Record<string, number> = {};
    for (const op of history.operations) operationsByKind[op.kind] = (operationsByKind[op.kind] ?? 0) + 1;
    return {
      seed: options.seed,
      seconds: Math.round((Date.now() - startedAt) / 1000),
      rounds,
      approvals: events.filter((e) => e.type === 'approval.requested').length,
      unsettledRounds,
      operations: history.operations.length,
      operationsByKind,
      events: events.length,
      faults,
      notificationsDropped: fleet.hosts.reduce((sum, host) => sum + host.proxy.dropped(), 0),
      deliveryMs: deliveryTimes(history),
      anomalies,
    };
  } finally {
    for (const step of teardown.reverse()) await step();
  }
}

/** The tool call an approval asked about, from its request in the log. */
function toolUseOf(events: readonly LogEvent[], approvalId: unknown): string {
  const asked = events.find((e) => e.type === 'approval.requested' && e.data.approvalId === approvalId);
  return String(asked?.data.toolUseId);
}

/** How long each decide answered 200 with a final status took to reach its CLI. */
function deliveryTimes(history: HistoryRecorder): { median: number; max: number } {
  const received = new Map<string, number>();
  for (const op of history.operations)
    if (op.kind === 'cli-received') received.set(op.approvalId, op.completedAt);
  const times = history.operations
    .flatMap((op) =>
      op.kind === 'decide' && op.status === 200 && op.answered !== 'pending' && op.approvalId !== undefined
        ? [(received.get(op.approvalId) ?? NaN) - op.completedAt]
        : [],
    )
    .filter((ms) => Number.isFinite(ms))
    .sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)] ?? 0, max: times.at(-1) ?? 0 };
}
