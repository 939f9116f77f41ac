// The PostgreSQL store beyond the contract both backends share (store-projections.test.ts): two hosts on
// one database, an unreachable server, a server restarted or a connection cut between two commits, the
// host lock, and a schema from a newer Warden.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, it, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';

import pg from 'pg';

import { StoreError } from '../../src/protocol/errors.js';
import type { EventDraft } from '../../src/store/event-types.js';
import { verifyAuditRows } from '../../src/store/audit-chain.js';
import { auditRows } from '../../src/store/audit-log.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { readPostgresSnapshot } from '../../src/store/postgres/read-only.js';
import type { Store } from '../../src/store/store.js';
import { Supervisor } from '../../src/supervisor/index.js';
import { postgresBinDir, startThrowawayCluster } from '../../src/testing/postgres-cluster.js';
import { assertContiguousLog } from '../helpers/log-assertions.js';
import { freshDatabase, storeBackends, testCluster } from '../helpers/store-backends.js';

const WRITER = fileURLToPath(new URL('../fixtures/postgres-store-writer.ts', import.meta.url));
const enabled = storeBackends().some((backend) => backend.name === 'postgres');

const created: EventDraft = {
  type: 'thread.created',
  data: { cwd: '/w', mode: 'supervised', model: null, rules: { allow: [], deny: [] } },
};
const titled = (title: string): EventDraft => ({ type: 'thread.titled', data: { title, source: 'user' } });
const runCreated: EventDraft = {
  type: 'run.created',
  data: {
    runId: 'r1',
    status: 'running',
    trigger: 'human',
    prompt: 'hi',
    userMessageId: 'u1',
    generation: 1,
  },
};
const requested = (approvalId: string): EventDraft => ({
  type: 'approval.requested',
  data: {
    approvalId,
    runId: 'r1',
    subagentId: null,
    toolName: 'Bash',
    input: { command: 'ls' },
    toolUseId: approvalId,
    requestId: approvalId,
    suggestions: [],
    alwaysAllowRules: [],
    blockedPath: null,
    decisionReason: null,
    generation: 1,
  },
});

function snapshot(store: Store) {
  return {
    threads: store.listThreads(),
    approvals: store.listApprovals(),
    runs: store.listRuns('shared'),
  };
}

function allEvents(store: Store) {
  const events = [];
  for (let page = store.readEvents(); page.length > 0; page = store.readEvents({ after: page.at(-1)!.seq }))
    events.push(...page);
  return events;
}

interface WriterResult {
  host: string;
  committed: number;
  wins: number;
  conflicts: number;
  lastSeq: number;
  snapshot: ReturnType<typeof snapshot>;
}

/** Starts a writer host; resolves with its process once it has opened the store. */
async function startWriter(url: string, host: string, rounds: number, approvals: number) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', WRITER, url, host, String(rounds), String(approvals)],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout });
  const iterator = lines[Symbol.asyncIterator]();
  const first = await iterator.next();
  assert.equal(first.value, 'ready', `${host} opened the store`);
  const next = async () => JSON.parse(String((await iterator.next()).value)) as unknown;
  const result = next() as Promise<Omit<WriterResult, 'lastSeq' | 'snapshot'>>;
  const replica = async () => {
    child.stdin.write('snapshot\n');
    return (await next()) as Pick<WriterResult, 'lastSeq' | 'snapshot'>;
  };
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { go: () => child.stdin.write('go\n'), result, replica, exited };
}

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 1));
    });
  });
}

function open(t: TestContext, url: string): PostgresStore {
  const store = PostgresStore.open(url);
  t.after(() => store.close());
  return store;
}

describe('PostgreSQL store', { skip: enabled ? false : 'no PostgreSQL server (WARDEN_TEST_STORES)' }, () => {
  it('two hosts commit at once: seq and threadSeq stay contiguous, a decision goes to one host, every replica is the fold of the log', async (t) => {
    const url = await freshDatabase(t);
    const setup = open(t, url);
    const approvals = 20;
    setup.commit('a', [created]);
    setup.commit('b', [created]);
    setup.commit('shared', [
      created,
      runCreated,
      ...Array.from({ length: approvals }, (_, i) => requested(`p${i}`)),
    ]);
    const before = setup.lastSeq();
    const rounds = 60;
    const writers = await Promise.all([
      startWriter(url, 'a', rounds, approvals),
      startWriter(url, 'b', rounds, approvals),
    ]);
    for (const writer of writers) writer.go();
    const done = await Promise.all(writers.map((writer) => writer.result));
    const replicas = await Promise.all(writers.map((writer) => writer.replica()));
    const results = done.map((result, i) => ({ ...result, ...replicas[i]! }));
    assert.deepEqual(await Promise.all(writers.map((writer) => writer.exited)), [0, 0]);

    const events = allEvents(setup);
    const committed = results.reduce((sum, r) => sum + r.committed, 0);
    assert.equal(events.length, before + committed, 'every committed event is in the log, once');
    assertContiguousLog(events);

    // Each approval: exactly one host won its compare-and-set, the other got a ConflictError.
    assert.equal(results[0]!.wins + results[1]!.wins, approvals);
    assert.equal(results[0]!.conflicts + results[1]!.conflicts, approvals);
    assert.ok(setup.listApprovals().every((approval) => approval.status === 'allowed'));
    assert.equal(events.filter((e) => e.type === 'approval.decided').length, approvals);

    // Every host's replica (and this one, caught up) equals a fresh fold of the log.
    const fresh = open(t, url);
    for (const result of results) {
      assert.equal(result.lastSeq, events.length);
      assert.deepEqual(result.snapshot, snapshot(fresh), `${result.host}'s replica`);
    }
    assert.deepEqual(snapshot(setup), snapshot(fresh));
    fresh.rebuildProjections();
    assert.deepEqual(snapshot(setup), snapshot(fresh));
    const audit = verifyAuditRows(auditRows(fresh));
    assert.deepEqual(
      [audit.ok, audit.records],
      [true, approvals + 1],
      'one audit record per decision, chained',
    );
  });

  it('an unreachable server is a StoreError naming host:port (not the password), within seconds', async (t) => {
    const port = await closedPort();
    const started = Date.now();
    assert.throws(
      () => PostgresStore.open(`postgres://warden:hunter2@127.0.0.1:${port}/warden`),
      (error: unknown) =>
        error instanceof StoreError &&
        error.code === 'STORE_FAILED' &&
        error.message.includes(`127.0.0.1:${port}`) &&
        !error.message.includes('hunter2'),
    );
    assert.ok(Date.now() - started < 10_000, `failed after ${Date.now() - started} ms`);
    const dataDir = mkdtempSync(join(tmpdir(), 'warden-pg-unreachable-'));
    t.after(() => rmSync(dataDir, { recursive: true, force: true }));
    await assert.rejects(
      Supervisor.open({ dataDir, store: `postgres://warden:hunter2@127.0.0.1:${port}/warden` }),
      (error: unknown) => error instanceof StoreError && !error.message.includes('hunter2'),
    );
  });

  it('the connection cut or the server restarted between two commits: the next commit reconnects, nothing is lost or repeated', async (t) => {
    // A server of its own when one can be started: restarting the one other test files share would
    // break their tests.
    const cluster = postgresBinDir() === undefined ? await testCluster() : await startThrowawayCluster();
    if (cluster.restartable) t.after(() => cluster.stop());
    const url = await cluster.createDatabase();
    const store = open(t, url);
    store.commit('a', [created, titled('one')]);
    const database = new URL(url).pathname.slice(1);
    const [cut] = await cluster.sql(
      'SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [database],
    );
    assert.equal(cut?.n, 1, 'the store had one connection, now cut');
    assert.equal(store.commit('a', [titled('two')])[0]?.seq, 3);
    if (cluster.restartable) {
      await cluster.restart();
      assert.equal(store.getThread('a')?.title, 'two', 'a read after the restart reconnects too');
      assert.equal(store.commit('a', [titled('three')])[0]?.seq, 4);
    }
    const events = allEvents(open(t, url));
    assert.deepEqual(
      events.map((e) => [e.seq, e.threadSeq, e.type]),
      [
        [1, 1, 'thread.created'],
        [2, 2, 'thread.titled'],
        [3, 3, 'thread.titled'],
        ...(cluster.restartable ? [[4, 4, 'thread.titled']] : []),
      ],
    );
  });

  it('no wait is unbounded: a server that never answers, a log head another host holds too long', async (t) => {
    // Accepts the connection and says nothing.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    t.after(() => {
      for (const socket of sockets) socket.destroy();
      silent.close();
    });
    const port = (silent.address() as AddressInfo).port;
    let started = Date.now();
    assert.throws(
      () => PostgresStore.open(`postgres://warden@127.0.0.1:${port}/warden`, { connectTimeoutMs: 1000 }),
      (error: unknown) => error instanceof StoreError && error.message.includes(`127.0.0.1:${port}`),
    );
    assert.ok(Date.now() - started < 8000, `gave up after ${Date.now() - started} ms`);

    const url = await freshDatabase(t);
    const store = PostgresStore.open(url, { statementTimeoutMs: 1000 });
    t.after(() => store.close());
    store.commit('a', [created]);
    // Another host's transaction holds the log head and does not finish.
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    t.after(() => other.end());
    await other.query('BEGIN');
    await other.query('SELECT seq FROM warden_log_head WHERE id = 1 FOR UPDATE');
    started = Date.now();
    assert.throws(
      () => store.commit('a', [titled('waits')]),
      (error: unknown) => error instanceof StoreError && error.code === 'STORE_FAILED',
    );
    assert.ok(Date.now() - started < 8000, `gave up after ${Date.now() - started} ms`);
    await other.query('ROLLBACK');
    assert.equal(store.commit('a', [titled('goes')])[0]?.seq, 2, 'the failed commit wrote nothing');
  });

  it('a host holds the store alone; a schema from a newer Warden is refused', async (t) => {
    const url = await freshDatabase(t);
    const first = PostgresStore.open(url, { exclusive: true });
    t.after(() => first.close());
    assert.throws(
      () => PostgresStore.open(url, { exclusive: true }),
      (error: unknown) => error instanceof StoreError && /in use by another host/.test(error.message),
    );
    first.close();
    const second = PostgresStore.open(url, { exclusive: true });
    second.close();
    const cluster = await testCluster();
    await cluster.sql(
      "INSERT INTO warden_schema_version (version, description) VALUES (999, 'from the future')",
      [],
      new URL(url).pathname.slice(1),
    );
    const database = new URL(url).pathname.slice(1);
    const tables = (): Promise<unknown> =>
      cluster.sql("SELECT relname FROM pg_class WHERE relname LIKE 'warden%' ORDER BY 1", [], database);
    const before = await tables();
    for (const open of [() => PostgresStore.open(url), () => readPostgresSnapshot(url)])
      assert.throws(
        open,
        (error: unknown) =>
          error instanceof StoreError &&
          error.code === 'STORE_TOO_NEW' &&
          error.message.includes(`/${database}`) &&
          /schema version 999; this Warden knows versions up to \d/.test(error.message),
      );
    assert.deepEqual(await tables(), before, 'nothing was created');
  });
});
