// Durable decisions per second on each Store backend, side by side on this machine: decision-sized commits
// (one `approval.decided` event and its audit record each) made durable. `sequential`: each made durable
// before the next starts — one person answering one approval at a time. `groups of N`: N commits, then one
// durable() — what the supervisor does when N decisions arrive over HTTP at once (each awaits the barrier
// after its commit; those of one tick share it). SQLite: the barrier is an fsync of the WAL. PostgreSQL: a
// throwaway cluster with its durable defaults (fsync on, synchronous_commit on), where the barrier is a
// synchronous commit flushing the WAL past the asynchronous ones; or the server WARDEN_TEST_PG_URL names.
// `3 hosts`: three processes, each a named host of one database, committing their decisions in groups at
// the same moment (the figure: all decisions over the slowest host's time). Also: the cost of a read of
// the projections (a PostgreSQL read first asks the server whether the log moved).
// Usage: node --import tsx bench/store-backends.ts [--decisions N] [--reads N] [--group N] [--hosts N]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { PostgresStore } from '../src/store/postgres/postgres-store.js';
import { SqliteStore, type Store } from '../src/store/index.js';
import { startPostgresCluster } from '../src/testing/postgres-cluster.js';
import { decided, requested, threadDrafts } from './lib/decision-drafts.js';

const { values } = parseArgs({
  options: {
    decisions: { type: 'string', default: '1000' },
    reads: { type: 'string', default: '5000' },
    group: { type: 'string', default: '20' },
    hosts: { type: 'string', default: '3' },
    // Internal: one host of the multi-host run.
    'host-of': { type: 'string' },
  },
});
const DECISIONS = Number(values.decisions);
const READS = Number(values.reads);
const GROUP = Number(values.group);
const HOSTS = Number(values.hosts);

function perSecond(count: number, started: bigint): number {
  return Math.round(count / (Number(process.hrtime.bigint() - started) / 1e9));
}

/** A thread with DECISIONS pending approvals, ready to be decided. */
async function prepare(store: Store, thread = 't'): Promise<void> {
  store.commit(thread, threadDrafts(thread));
  for (let i = 0; i < DECISIONS; i += 100)
    store.commit(
      thread,
      Array.from({ length: Math.min(100, DECISIONS - i) }, (_, j) => requested(i + j, thread)),
    );
  await store.durable();
}

/** Decides the approvals `first`..`first + count - 1`, `group` commits per durable(); the seconds taken. */
async function decide(
  store: Store,
  first: number,
  count: number,
  group: number,
  thread = 't',
): Promise<number> {
  const started = process.hrtime.bigint();
  for (let i = first; i < first + count; i += group) {
    for (let j = i; j < Math.min(i + group, first + count); j++) store.commit(thread, [decided(j, thread)]);
    await store.durable();
  }
  return Number(process.hrtime.bigint() - started) / 1e9;
}

async function measure(store: Store): Promise<{
  sequentialDecisionsPerSecond: number;
  groupedDecisionsPerSecond: number;
  readsPerSecond: number;
}> {
  await prepare(store);
  const half = Math.floor(DECISIONS / 2);
  const sequentialDecisionsPerSecond = Math.round(half / (await decide(store, 0, half, 1)));
  const groupedDecisionsPerSecond = Math.round(
    (DECISIONS - half) / (await decide(store, half, DECISIONS - half, GROUP)),
  );
  const started = process.hrtime.bigint();
  for (let i = 0; i < READS; i++) store.getApproval(`t-a${i % DECISIONS}`);
  const readsPerSecond = perSecond(READS, started);
  return { sequentialDecisionsPerSecond, groupedDecisionsPerSecond, readsPerSecond };
}

/** One host of the multi-host run: prepares its thread, says `ready`, decides on `go`, prints its seconds. */
async function runHost(url: string): Promise<void> {
  const name = `bench-${process.pid}`;
  const store = PostgresStore.open(url, { host: { name } });
  try {
    await prepare(store, name);
    process.stdout.write('ready\n');
    await new Promise((resolve) => process.stdin.once('data', resolve));
    const seconds = await decide(store, 0, DECISIONS, GROUP, name);
    process.stdout.write(`${JSON.stringify({ seconds })}\n`);
  } finally {
    store.close();
  }
}

/** HOSTS processes on one database, deciding at the same moment: all their decisions per second. */
async function measureHosts(url: string): Promise<{ hosts: number; decisionsPerSecond: number }> {
  const children = Array.from({ length: HOSTS }, () =>
    spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        new URL(import.meta.url).pathname,
        '--host-of',
        url,
        '--decisions',
        String(DECISIONS),
        '--group',
        String(GROUP),
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    ),
  );
  const exited = Promise.all(children.map((child) => new Promise((resolve) => child.once('exit', resolve))));
  const lines = children.map((child) => {
    const queue: string[] = [];
    const waiting: ((line: string) => void)[] = [];
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
        const line = buffered.slice(0, at);
        buffered = buffered.slice(at + 1);
        const next = waiting.shift();
        if (next) next(line);
        else queue.push(line);
      }
    });
    return () =>
      new Promise<string>((resolve) => {
        const line = queue.shift();
        if (line !== undefined) resolve(line);
        else waiting.push(resolve);
      });
  });
  await Promise.all(lines.map((next) => next()));
  for (const child of children) child.stdin.write('go\n');
  const results = await Promise.all(
    lines.map(async (next) => JSON.parse(await next()) as { seconds: number }),
  );
  await exited;
  const slowest = Math.max(...results.map((r) => r.seconds));
  return { hosts: HOSTS, decisionsPerSecond: Math.round((HOSTS * DECISIONS) / slowest) };
}

if (values['host-of'] !== undefined) {
  await runHost(values['host-of']);
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), 'warden-bench-'));
const cluster = await startPostgresCluster({ durable: true });
try {
  const sqlite = SqliteStore.open(join(dir, 'warden.db'));
  const sqliteResult = await measure(sqlite).finally(() => sqlite.close());
  const postgres = PostgresStore.open(await cluster.createDatabase());
  const postgresResult = await measure(postgres).finally(() => postgres.close());
  const fleetResult = HOSTS > 0 ? await measureHosts(await cluster.createDatabase()) : undefined;
  console.log(
    JSON.stringify(
      {
        node: process.version,
        decisions: DECISIONS,
        group: GROUP,
        reads: READS,
        sqlite: sqliteResult,
        postgres: {
          server: cluster.restartable ? 'throwaway cluster, durable settings' : 'WARDEN_TEST_PG_URL',
          ...postgresResult,
          fleet: fleetResult,
        },
      },
      null,
      2,
    ),
  );
} finally {
  await cluster.stop();
  rmSync(dir, { recursive: true, force: true });
}
