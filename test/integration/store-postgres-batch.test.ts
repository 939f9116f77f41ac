// PostgreSQL commits batched within a tick: the first commit of a tick is written on its own, the next
// ones are applied to the replica while this store holds the log head's lock and written together in one
// statement at the end of the tick (or at durable(), or before any other request). The guarantees stay
// those of one commit at a time: compare-and-set inside a batch and across hosts, contiguous seq and
// threadSeq, replicas equal to a fresh fold, one write per commit also when the connection is cut while
// the batch is open. Two stores of one process never wait for each other's batch.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';

import { ConflictError } from '../../src/protocol/errors.js';
import type { EventDraft } from '../../src/store/event-types.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import {
  postgresAvailable,
  postgresBinDir,
  startPostgresCluster,
  type PostgresCluster,
} from '../../src/testing/postgres-cluster.js';
import { assertContiguousLog } from '../helpers/log-assertions.js';

const created: EventDraft = {
  type: 'thread.created',
  data: { cwd: '/w', mode: 'supervised', model: null, rules: { allow: [], deny: [] } },
};
const runCreated: EventDraft = {
  type: 'run.created',
  data: { runId: 'r', status: 'running', trigger: 'human', prompt: 'p', userMessageId: 'u', generation: 1 },
};
const titled = (title: string): EventDraft => ({ type: 'thread.titled', data: { title, source: 'user' } });
const requested = (approvalId: string): EventDraft => ({
  type: 'approval.requested',
  data: {
    approvalId,
    runId: 'r',
    subagentId: null,
    toolName: 'Bash',
    input: { command: 'ls' },
    toolUseId: `tool-${approvalId}`,
    requestId: `req-${approvalId}`,
    suggestions: [],
    alwaysAllowRules: [],
    blockedPath: null,
    decisionReason: null,
    generation: 1,
  },
});
const decided = (approvalId: string): EventDraft => ({
  type: 'approval.decided',
  data: {
    approvalId,
    behavior: 'allow',
    message: null,
    interrupt: false,
    updatedPermissions: null,
    by: 'user',
  },
});

function open(t: TestContext, url: string): PostgresStore {
  const store = PostgresStore.open(url);
  t.after(() => store.close());
  return store;
}

function snapshot(store: PostgresStore): unknown {
  return { threads: store.listThreads(), approvals: store.listApprovals(), runs: store.listRuns('t') };
}

function assertContiguous(store: PostgresStore): void {
  assertContiguousLog(store.readEvents({ limit: 10_000 }));
}

describe('PostgreSQL commits batched within a tick', { skip: !postgresAvailable(), timeout: 180_000 }, () => {
  let cluster: PostgresCluster;
  before(async () => {
    cluster = await startPostgresCluster();
  });
  after(() => cluster?.stop());

  it('commits of one tick are written together; one decision wins inside a batch and across two stores of one process', async (t) => {
    const url = await cluster.createDatabase();
    const database = new URL(url).pathname.slice(1);
    const a = open(t, url);
    const b = open(t, url);
    a.commit('t', [created, runCreated, requested('p0'), requested('p1'), requested('p2')]);
    await a.durable();
    const before = a.lastSeq();

    // One tick: more commits than one batch holds, a decision made twice, and another store deciding
    // while this one holds the head (it must not wait for a lock only this thread could release).
    const titles = 40;
    for (let i = 0; i < titles; i++) a.commit('t', [titled(`title ${i}`)]);
    a.commit('t', [decided('p0')]);
    assert.throws(() => a.commit('t', [decided('p0')]), ConflictError, 'decided inside the batch');
    b.commit('t', [decided('p1')]);
    assert.throws(() => b.commit('t', [decided('p0')]), ConflictError, 'decided by the other store');
    assert.throws(() => a.commit('t', [decided('p1')]), ConflictError, 'decided by the other store');
    a.commit('t', [decided('p2')]);
    await Promise.all([a.durable(), b.durable()]);

    const events = a.readEvents({ after: before, limit: 10_000 });
    assert.equal(events.length, titles + 3, 'every commit once');
    assert.deepEqual(
      events.flatMap((e) => (e.type === 'approval.decided' ? [e.data.approvalId] : [])),
      ['p0', 'p1', 'p2'],
    );
    assertContiguous(a);
    // Far fewer transactions than commits: the commits of a batch share one.
    const [row] = await cluster.sql(
      'SELECT count(DISTINCT xmin::text)::int AS transactions FROM warden_events WHERE seq > $1',
      [before],
      database,
    );
    assert.ok(Number(row?.transactions) <= 6, `${String(row?.transactions)} transactions for 43 commits`);

    const fresh = open(t, url);
    assert.deepEqual(snapshot(a), snapshot(fresh));
    assert.deepEqual(snapshot(b), snapshot(fresh));
    assert.equal(fresh.getThread('t')?.title, `title ${titles - 1}`);
  });

  it('the connection cut while a batch holds the head: the batch is written once on a fresh connection', async (t) => {
    const url = await cluster.createDatabase();
    const database = new URL(url).pathname.slice(1);
    const store = open(t, url);
    store.commit('t', [created]);
    await store.durable();

    store.commit('t', [titled('first')]);
    store.commit('t', [titled('second')]);
    store.commit('t', [titled('third')]);
    // Still in the same tick: the batch's transaction is open. Cut it from outside, synchronously.
    const psql = join(postgresBinDir() ?? '/usr/bin', 'psql');
    const killed = execFileSync(
      psql,
      [
        cluster.url(),
        '-At',
        '-c',
        `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
         WHERE datname = '${database}' AND state LIKE 'idle in transaction%'`,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(killed.trim(), '1', 'the batch held one open transaction');
    await store.durable();

    const titles = store
      .readEvents({ threadId: 't' })
      .flatMap((e) => (e.type === 'thread.titled' ? [e.data.title] : []));
    assert.deepEqual(titles, ['first', 'second', 'third']);
    assertContiguous(store);
    store.commit('t', [titled('after')]);
    await store.durable();
    assert.deepEqual(snapshot(store), snapshot(open(t, url)));
  });
});
