// Durable decisions per second on each Store backend, side by side on this machine: a decision-sized commit
// (one `approval.decided` event and its audit record) made durable before the next one starts — as one
// person answering one approval at a time sees it. SQLite: commit, then the durability barrier (an fsync of
// the WAL). PostgreSQL: a throwaway cluster with its durable defaults (fsync on, synchronous_commit on),
// where the COMMIT is the barrier; or the server WARDEN_TEST_PG_URL names. Also: the cost of a read of
// the projections (a PostgreSQL read first asks the server whether the log moved).
// Usage: node --import tsx bench/store-backends.ts [--decisions N] [--reads N]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { PostgresStore } from '../src/store/postgres/postgres-store.js';
import { SqliteStore, type EventDraft, type Store } from '../src/store/index.js';
import { startPostgresCluster } from '../src/testing/postgres-cluster.js';

const { values } = parseArgs({
  options: {
    decisions: { type: 'string', default: '1000' },
    reads: { type: 'string', default: '5000' },
  },
});
const DECISIONS = Number(values.decisions);
const READS = Number(values.reads);

const requested = (i: number): EventDraft => ({
  type: 'approval.requested',
  data: {
    approvalId: `a${i}`,
    runId: 'r',
    subagentId: null,
    toolName: 'Bash',
    input: { command: 'cat /etc/os-release' },
    toolUseId: `t${i}`,
    requestId: `q${i}`,
    suggestions: [],
    alwaysAllowRules: [],
    blockedPath: null,
    decisionReason: null,
    generation: 1,
  },
});
const decided = (i: number): EventDraft => ({
  type: 'approval.decided',
  data: {
    approvalId: `a${i}`,
    behavior: 'allow',
    message: null,
    interrupt: false,
    updatedPermissions: null,
    by: 'user',
    decidedBy: { name: 'alice', via: 'web' },
  },
});

function perSecond(count: number, started: bigint): number {
  return Math.round(count / (Number(process.hrtime.bigint() - started) / 1e9));
}

async function measure(store: Store): Promise<{ decisionsPerSecond: number; readsPerSecond: number }> {
  store.commit('t', [
    {
      type: 'thread.created',
      data: { cwd: '/w', mode: 'supervised', model: null, rules: { allow: [], deny: [] } },
    },
    {
      type: 'run.created',
      data: {
        runId: 'r',
        status: 'running',
        trigger: 'human',
        prompt: 'p',
        userMessageId: 'u',
        generation: 1,
      },
    },
  ]);
  for (let i = 0; i < DECISIONS; i += 100)
    store.commit(
      't',
      Array.from({ length: Math.min(100, DECISIONS - i) }, (_, j) => requested(i + j)),
    );
  await store.durable();
  let started = process.hrtime.bigint();
  for (let i = 0; i < DECISIONS; i++) {
    store.commit('t', [decided(i)]);
    await store.durable();
  }
  const decisionsPerSecond = perSecond(DECISIONS, started);
  started = process.hrtime.bigint();
  for (let i = 0; i < READS; i++) store.getApproval(`a${i % DECISIONS}`);
  const readsPerSecond = perSecond(READS, started);
  return { decisionsPerSecond, readsPerSecond };
}

const dir = mkdtempSync(join(tmpdir(), 'warden-bench-'));
const cluster = await startPostgresCluster({ durable: true });
try {
  const sqlite = SqliteStore.open(join(dir, 'warden.db'));
  const sqliteResult = await measure(sqlite).finally(() => sqlite.close());
  const postgres = PostgresStore.open(await cluster.createDatabase());
  const postgresResult = await measure(postgres).finally(() => postgres.close());
  console.log(
    JSON.stringify(
      {
        node: process.version,
        decisions: DECISIONS,
        reads: READS,
        sqlite: sqliteResult,
        postgres: {
          server: cluster.restartable ? 'throwaway cluster, durable settings' : 'WARDEN_TEST_PG_URL',
          ...postgresResult,
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
