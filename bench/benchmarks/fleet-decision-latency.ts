// 10. Decision → CLI latency across a fleet, Warden alone (the official SDK has no fleet): two hosts — each a
// Supervisor and its server in a Node process of its own — on one PostgreSQL database; a thread on host A
// whose CLI (bench/fleet/decision-cli.mjs, a process spawned as the real CLI is) raises permission requests
// one after another. Each is allowed in turn on A (same host) or on B (cross host), through the supervisor
// API (supervisor.decide() in the host's process) or over HTTP (POST /api/approvals/:id/decision from this
// process). The figure: from the decide call (or the POST) to the moment the CLI read the answer on its
// stdin — the CLI takes the wall clock, which every process of the machine shares. The same on one SQLite
// host (API and HTTP), for comparison. PostgreSQL: a throwaway cluster with durable settings, a new database
// per run, or the server WARDEN_TEST_PG_URL names.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

import { startPostgresCluster, type PostgresCluster } from '../../src/testing/postgres-cluster.js';
import { formatBound } from '../lib/bounded.js';
import { benchCliEnv, wallClock } from '../lib/fake-cli.js';
import { describeFailures, wardenFigureOf } from '../lib/figures.js';
import type { Benchmark, BenchContext, BenchmarkResult, Figure, TargetCheck } from '../lib/model.js';
import { failures, successes, type Outcome } from '../lib/outcomes.js';
import { killRun, newRunMarker } from '../lib/processes.js';
import { repeat } from '../lib/repeat.js';
import { percentile } from '../lib/stats.js';
import { startDecisionHost, type DecisionHost } from '../fleet/decision-hosts.js';
import { HttpClient } from '../supervisor-server/clients.js';

const NAME = 'fleet-decision-latency';
const TITLE = 'Fleet: decision → CLI latency, same host and cross host';
const WARDEN_ONLY =
  'the official SDK has no supervisor, no server and no fleet, so there is nothing to compare with: these ' +
  'are absolute figures, without a ratio.';

type Topology = 'sqlite' | 'fleet';
type Where = 'a' | 'b';
type Via = 'api' | 'http';

interface Kind {
  readonly where: Where;
  readonly via: Via;
}

/** The order decisions take, request by request, round and round. */
const KINDS: Record<Topology, readonly Kind[]> = {
  sqlite: [
    { where: 'a', via: 'api' },
    { where: 'a', via: 'http' },
  ],
  fleet: [
    { where: 'a', via: 'api' },
    { where: 'b', via: 'api' },
    { where: 'a', via: 'http' },
    { where: 'b', via: 'http' },
  ],
};

/** Requests answered first and left out of the figures (the CLI's and the hosts' first steps). */
const WARM_UP_REQUESTS = 8;

const keyOf = (kind: Kind): string => `${kind.where}-${kind.via}`;

interface Latencies {
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
  readonly count: number;
}

interface Sample {
  /** Per kind (`a-api`, `b-http`, …): decide call → the CLI read the answer (ms). */
  readonly latencies: Record<string, Latencies>;
  /** supervisor.decide() call → its promise resolved, on A and on B (ms, p50). */
  readonly decideResolvedP50: Record<string, number>;
  /** Measured requests over the time from the first measured decide call to the last receipt. */
  readonly decisionsPerSecond: number;
  readonly loadStart: number;
  readonly loadEnd: number;
}

interface Receipt {
  readonly toolUseId: string;
  readonly receivedAt: number;
  readonly behavior: string;
}

function latenciesOf(values: readonly number[]): Latencies {
  return {
    p50: percentile(values, 50),
    p90: percentile(values, 90),
    p99: percentile(values, 99),
    max: values.reduce((max, value) => Math.max(max, value), 0),
    count: values.length,
  };
}

/** Waits until the CLI has appended `count` receipts (polling: it is another process's file). */
async function receiptsOf(file: string, count: number, signal: AbortSignal): Promise<Receipt[]> {
  for (;;) {
    signal.throwIfAborted();
    const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
    if (lines.length >= count) return lines.map((line) => JSON.parse(line) as Receipt);
    await delay(50);
  }
}

async function once(
  topology: Topology,
  perKind: number,
  cluster: PostgresCluster,
  signal: AbortSignal,
): Promise<Sample> {
  const loadStart = loadavg()[0] ?? 0;
  const kinds = KINDS[topology];
  const requests = WARM_UP_REQUESTS + perKind * kinds.length;
  const marker = newRunMarker();
  const dir = mkdtempSync(join(tmpdir(), 'warden-bench-decisions-'));
  const cwd = join(dir, 'work');
  mkdirSync(cwd);
  const receiptsFile = join(dir, 'receipts.jsonl');
  const cliEnv = benchCliEnv(marker, { BENCH_COUNT: String(requests), BENCH_RECEIPTS: receiptsFile });
  const hosts = new Map<Where, DecisionHost>();
  const https: HttpClient[] = [];
  const cleanUp = (): void => {
    killRun(marker);
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };
  signal.addEventListener('abort', cleanUp, { once: true });
  const measure = async (): Promise<Sample> => {
    const store = topology === 'fleet' ? await cluster.createDatabase() : undefined;
    for (const where of topology === 'fleet' ? (['a', 'b'] as const) : (['a'] as const))
      hosts.set(
        where,
        await startDecisionHost(
          {
            dataDir: join(dir, `data-${where}`),
            cliEnv,
            ...(store === undefined ? {} : { store, hostName: where }),
          },
          marker,
          signal,
        ),
      );
    const http = new Map<Where, HttpClient>();
    // When each host's HTTP client last had an answer: a failed POST says how long its connection was idle.
    const lastAnswered = new Map<Where, number>();
    for (const [where, host] of hosts) {
      const client = new HttpClient(host.url, host.token, 1);
      https.push(client);
      http.set(where, client);
    }
    await hosts.get('a')!.command({ cmd: 'start', cwd });
    const called: { toolUseId: string; kind: Kind; calledAt: number; resolvedMs: number }[] = [];
    for (let index = 0; index < requests; index += 1) {
      const kind = kinds[index % kinds.length]!;
      const host = hosts.get(kind.where)!;
      const toolUseId = `toolu_lat_${index}`;
      if (kind.via === 'api') {
        const answer = await host.command({ cmd: 'decide', toolUseId });
        if (answer.event !== 'decided') throw new Error(`expected decided, got ${answer.event}`);
        called.push({
          toolUseId,
          kind,
          calledAt: answer.calledAt,
          resolvedMs: answer.resolvedAt - answer.calledAt,
        });
      } else {
        const answer = await host.command({ cmd: 'await', toolUseId });
        if (answer.event !== 'visible') throw new Error(`expected visible, got ${answer.event}`);
        const calledAt = wallClock();
        const reply = await http
          .get(kind.where)!
          .post(`/api/approvals/${answer.approvalId}/decision`, { behavior: 'allow' })
          .catch((error: unknown) => {
            const idle = calledAt - (lastAnswered.get(kind.where) ?? Number.NaN);
            throw new Error(
              `POST decision ${index} on host ${kind.where} (its connection idle ${idle.toFixed(0)} ms ` +
                `before): ${String(error)}`,
            );
          });
        lastAnswered.set(kind.where, wallClock());
        if (reply.status !== 200)
          throw new Error(`POST decision: ${reply.status} ${JSON.stringify(reply.body)}`);
        called.push({ toolUseId, kind, calledAt, resolvedMs: reply.ms });
      }
    }
    const receipts = new Map(
      (await receiptsOf(receiptsFile, requests, signal)).map((receipt) => [receipt.toolUseId, receipt]),
    );
    const measured = called.slice(WARM_UP_REQUESTS);
    const byKind = new Map<string, number[]>();
    const resolvedByWhere = new Map<string, number[]>();
    let lastReceipt = 0;
    for (const decision of measured) {
      const receipt = receipts.get(decision.toolUseId);
      if (receipt === undefined) throw new Error(`the CLI reported no answer to ${decision.toolUseId}`);
      if (receipt.behavior !== 'allow')
        throw new Error(`the CLI read ${receipt.behavior} for ${decision.toolUseId}, not allow`);
      const key = keyOf(decision.kind);
      byKind.set(key, [...(byKind.get(key) ?? []), receipt.receivedAt - decision.calledAt]);
      if (decision.kind.via === 'api')
        resolvedByWhere.set(decision.kind.where, [
          ...(resolvedByWhere.get(decision.kind.where) ?? []),
          decision.resolvedMs,
        ]);
      lastReceipt = Math.max(lastReceipt, receipt.receivedAt);
    }
    return {
      latencies: Object.fromEntries([...byKind].map(([key, values]) => [key, latenciesOf(values)])),
      decideResolvedP50: Object.fromEntries(
        [...resolvedByWhere].map(([where, values]) => [where, percentile(values, 50)]),
      ),
      decisionsPerSecond: measured.length / ((lastReceipt - measured[0]!.calledAt) / 1000),
      loadStart,
      loadEnd: loadavg()[0] ?? 0,
    };
  };
  const outcome = await measure().then(
    (sample) => ({ sample }),
    (error: unknown) => ({ error }),
  );
  for (const client of https) client.close();
  // B first: it owns no CLI; A then stops the thread's CLI.
  const stopped: PromiseSettledResult<void>[] = [];
  for (const where of ['b', 'a'] as const) {
    const host = hosts.get(where);
    if (host !== undefined) stopped.push(...(await Promise.allSettled([host.stop()])));
  }
  signal.removeEventListener('abort', cleanUp);
  cleanUp();
  const failed = stopped.find((result) => result.status === 'rejected');
  // A failure of the run itself comes first; a host that failed to stop too may say why (its stderr).
  if ('error' in outcome) {
    if (failed === undefined || failed.status !== 'rejected') throw outcome.error;
    throw new Error(`${String(outcome.error)}; then, stopping: ${String(failed.reason)}`);
  }
  if (failed !== undefined && failed.status === 'rejected') throw failed.reason;
  return outcome.sample;
}

function describe(sample: Sample): string {
  const kinds = Object.entries(sample.latencies).map(
    ([key, l]) =>
      `${key} p50 ${l.p50.toFixed(1)} p90 ${l.p90.toFixed(1)} p99 ${l.p99.toFixed(1)} max ${l.max.toFixed(1)} ms (${l.count})`,
  );
  const resolved = Object.entries(sample.decideResolvedP50).map(
    ([where, ms]) => `decide() resolved on ${where} p50 ${ms.toFixed(1)} ms`,
  );
  return (
    `${kinds.join('; ')}; ${resolved.join('; ')}; ${sample.decisionsPerSecond.toFixed(0)} decisions/s one at a ` +
    `time; load average ${sample.loadStart.toFixed(2)}–${sample.loadEnd.toFixed(2)}`
  );
}

function loadRange(outcomes: readonly Outcome<Sample>[]): string {
  const loads = successes(outcomes).flatMap((sample) => [sample.loadStart, sample.loadEnd]);
  if (loads.length === 0) return 'n/a';
  return `${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`;
}

const KIND_LABELS: Record<string, string> = {
  'a-api': 'decided on the CLI’s host, supervisor API',
  'a-http': 'decided on the CLI’s host, HTTP',
  'b-api': 'decided on the other host, supervisor API',
  'b-http': 'decided on the other host, HTTP',
};

function figuresOf(topology: Topology, label: string, outcomes: readonly Outcome<Sample>[]): Figure[] {
  const figures: Figure[] = [];
  for (const kind of KINDS[topology]) {
    const key = keyOf(kind);
    for (const p of ['p50', 'p90', 'p99', 'max'] as const)
      figures.push(
        wardenFigureOf(
          {
            id: `${topology}-${key}-${p}`,
            label: `${label}, ${KIND_LABELS[key]}: decide → the CLI read it, ${p}`,
            unit: 'ms',
            better: 'lower',
            digits: 1,
          },
          outcomes,
          (s) => s.latencies[key]?.[p] ?? Number.NaN,
        ),
      );
  }
  figures.push(
    wardenFigureOf(
      {
        id: `${topology}-decisions-per-second`,
        label: `${label}: decisions one at a time (decide → CLI → its next request)`,
        unit: 'decisions/s',
        better: 'higher',
        digits: 0,
      },
      outcomes,
      (s) => s.decisionsPerSecond,
    ),
  );
  return figures;
}

export const fleetDecisionLatencyBenchmark: Benchmark = {
  name: NAME,
  title: TITLE,
  async run(context: BenchContext): Promise<BenchmarkResult> {
    const runs = context.quick ? 1 : 2;
    const perKind = context.quick ? 50 : 200;
    const boundMs = 300_000;
    const cluster = await startPostgresCluster({ durable: true });
    const results: Record<string, Outcome<Sample>[]> = {};
    try {
      for (const topology of ['sqlite', 'fleet'] as const)
        results[topology] = await repeat({
          label: `${NAME}, ${topology}`,
          runs,
          warmup: 0,
          boundMs,
          run: (signal) => once(topology, perKind, cluster, signal),
          describe,
          log: context.log,
        });
    } finally {
      await cluster.stop();
    }
    const figures: Figure[] = [
      ...figuresOf('sqlite', 'SQLite, 1 host', results.sqlite!),
      ...figuresOf('fleet', 'PostgreSQL, 2 hosts', results.fleet!),
    ];
    const all = Object.values(results).flat();
    const failed = failures(all);
    const target: TargetCheck = {
      target: 'every decision, on either host, reaches the CLI as the allow it was',
      met: all.length === 0 ? undefined : failed.length === 0,
      standing: failed.length === 0 ? 'no run failed' : `${failed.length} of ${all.length} runs failed`,
      ...(failed.length > 0 ? { gap: `failed runs: ${describeFailures(failed)}` } : {}),
    };
    return {
      name: NAME,
      title: TITLE,
      method:
        `Host processes, each a Supervisor behind \`createServer()\` (bench/fleet/decision-host.ts) whose CLI is ` +
        `bench/fleet/decision-cli.mjs, a process spawned (detached) as the real CLI is; *SQLite*: one host; ` +
        `*PostgreSQL*: hosts A and B of one fleet on one database of a throwaway PostgreSQL 15 cluster ` +
        `(durable settings) on this machine. A supervised thread on A; its CLI raises ` +
        `${WARM_UP_REQUESTS} + ${perKind} × ${KINDS.fleet.length} (SQLite: × ${KINDS.sqlite.length}) Bash ` +
        `permission requests one after another, each once the previous answer arrived, and they are allowed ` +
        `in turn on A and on B, with \`supervisor.decide()\` in the host's process and with \`POST ` +
        `/api/approvals/:id/decision\` from the benchmark's process (keep-alive). Latency: from the wall clock ` +
        `just before the call (or the POST) to the wall clock the CLI took when it read the answer from its ` +
        `stdin (every process shares the machine's clock); the first ${WARM_UP_REQUESTS} requests are left ` +
        `out; p50/p90/p99/max over ${perKind} decisions of each kind per run. Decisions/s: the measured ` +
        `decisions over the time from the first call to the last receipt, one at a time. Each run is bounded ` +
        `at ${formatBound(boundMs)}; ${runs} run(s), fresh hosts, data directories and database each.`,
      runsPerHost: runs,
      parameters: { decisionsPerKind: perKind, warmUpRequests: WARM_UP_REQUESTS },
      figures,
      targets: [target],
      notes: [
        `1-minute load average at the start and end of the runs (the machine is shared): SQLite ` +
          `${loadRange(results.sqlite!)}, PostgreSQL ${loadRange(results.fleet!)}.`,
        'A decision is sent to the CLI only once it is durable: on its own host after the barrier that ' +
          'follows its commit (a synchronous commit flushing the WAL; on SQLite an fsync); from the other ' +
          'host once that host’s barrier is done, its NOTIFY has reached A and A has folded the decision in ' +
          'and passed its own barrier (docs/fleet.md).',
      ],
      wardenOnly: WARDEN_ONLY,
    };
  },
};
