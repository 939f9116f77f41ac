// Upgrade replay: every log of the corpus (test/fixtures/upgrade-corpus, one per schema version so far,
// SQLite and PostgreSQL, each written by the Warden of its commit) opened by this Warden. The log must
// come through unchanged, and what the opened store projects must be what the log says: the projections
// equal a fresh fold of its events, the pending approvals and their deadlines equal those the events
// leave pending, and the audit trail verifies against the log (`warden audit verify`) with every record
// the old Warden wrote kept as it was. One PostgreSQL server serves every PostgreSQL log.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';

import Database from 'better-sqlite3';
import pg from 'pg';

import { StoreError } from '../../src/protocol/errors.js';

import { verifyAuditRows } from '../../src/store/audit-chain.js';
import { auditRows, logFactsOf } from '../../src/store/audit-log.js';
import { AUDITED_EVENT_TYPES, type AuditRow } from '../../src/store/audit-record.js';
import type { StoredEvent } from '../../src/store/event-types.js';
import { LATEST_SCHEMA_VERSION } from '../../src/store/migrations.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { Replica } from '../../src/store/postgres/replica.js';
import { LATEST_PG_SCHEMA_VERSION } from '../../src/store/postgres/schema.js';
import { readStoreSnapshot } from '../../src/store/read-only.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { postgresAvailable } from '../../src/testing/postgres-cluster.js';
import { CORPUS, type CorpusLog } from '../fixtures/upgrade-corpus/corpus.js';
import { freshDatabase } from '../helpers/store-backends.js';

const CORPUS_DIR = new URL('../fixtures/upgrade-corpus/', import.meta.url);

/** What the old Warden left in the store, read before this one opens it. */
interface Written {
  events: StoredEvent[];
  audit: AuditRow[];
}

const SETTLED = new Set(['approval.decided', 'approval.cancelled', 'approval.expired']);

/** The approvals the events leave pending, with the deadline each was requested with (a fold of its own). */
function pendingOf(events: readonly StoredEvent[]): Map<string, unknown> {
  const pending = new Map<string, unknown>();
  for (const event of events) {
    const data = event.data as { approvalId?: string; deadline?: unknown };
    if (event.type === 'approval.requested') pending.set(data.approvalId!, data.deadline ?? null);
    else if (SETTLED.has(event.type)) pending.delete(data.approvalId!);
  }
  return pending;
}

function allEvents(store: Pick<Store, 'readEvents' | 'lastSeq'>): StoredEvent[] {
  const events: StoredEvent[] = [];
  while ((events.at(-1)?.seq ?? 0) < store.lastSeq())
    events.push(...store.readEvents({ after: events.at(-1)?.seq ?? 0, limit: 500 }));
  return events;
}

function checkOpened(store: Store, written: Written, log: CorpusLog): void {
  // The log itself comes through the upgrade as it was written.
  const events = allEvents(store);
  assert.deepEqual(events, written.events, 'the event log is unchanged');
  assert.ok(events.length > 20, `a real scenario (${events.length} events)`);

  // The projections the store serves are a fresh fold of its events by this Warden's projector.
  const fold = new Replica();
  fold.fold(events, [], []);
  assert.deepEqual(store.listThreads(), fold.reads.listThreads(), 'threads');
  assert.equal(store.listThreads().length, log.deadlines ? 3 : 2);
  for (const thread of store.listThreads()) {
    assert.deepEqual(store.listRuns(thread.id), fold.reads.listRuns(thread.id), 'runs');
    assert.deepEqual(store.listSubagents(thread.id), fold.reads.listSubagents(thread.id), 'subagents');
  }
  assert.deepEqual(store.listApprovals(), fold.reads.listApprovals(), 'approvals');

  // Pending approvals and their deadlines are those the events leave pending.
  const expected = pendingOf(events);
  const pending = store.listApprovals({ status: 'pending' });
  assert.deepEqual(new Set(pending.map((a) => a.id)), new Set(expected.keys()), 'pending approvals');
  for (const approval of pending) assert.deepEqual(approval.deadline, expected.get(approval.id), 'deadline');
  assert.equal(pending.length, log.deadlines ? 3 : 2);
  assert.equal(pending.filter((a) => a.deadline !== null).length, log.deadlines ? 1 : 0);
  const statuses = store
    .listApprovals()
    .map((a) => a.status)
    .sort();
  assert.deepEqual(
    statuses.filter((s) => s !== 'pending'),
    log.deadlines ? ['allowed', 'cancelled', 'denied', 'denied'] : ['allowed', 'cancelled', 'denied'],
  );

  // The audit trail verifies against the log; what the old Warden recorded is kept as it was.
  const rows = [...auditRows(store)];
  const verified = verifyAuditRows(rows, logFactsOf(store));
  assert.ok(verified.ok, `audit verify: ${JSON.stringify(verified)}`);
  assert.deepEqual(rows.slice(0, written.audit.length), written.audit, 'the old records are unchanged');
  const bySeq = new Map(events.map((event) => [event.seq, event]));
  for (const row of rows.slice(1)) {
    const record = JSON.parse(row.text) as { eventSeq: number; approvalId: string | null };
    const event = bySeq.get(record.eventSeq);
    assert.ok(event !== undefined && AUDITED_EVENT_TYPES.includes(event.type), `record ${row.seq}'s event`);
    assert.equal(record.approvalId, (event.data as { approvalId?: string }).approvalId ?? null);
  }
  // Before the audit trail was written at all, the upgrade starts it with a genesis record over the log.
  if (written.audit.length === 0) assert.equal(rows.length, 1, 'only the genesis record');
  else assert.equal(rows.length, written.audit.length, 'no record was added by opening');
}

function eventOfRow(row: Record<string, unknown>): StoredEvent {
  return {
    seq: Number(row.seq),
    threadId: String(row.thread_id),
    threadSeq: Number(row.thread_seq),
    type: String(row.type),
    at: String(row.at),
    data: JSON.parse(String(row.data)) as unknown,
  } as StoredEvent;
}

function auditOfRow(row: Record<string, unknown>): AuditRow {
  return { seq: Number(row.seq), hash: String(row.hash), text: String(row.text) };
}

function newestOf(backend: CorpusLog['backend']): CorpusLog {
  const log = CORPUS.filter((entry) => entry.backend === backend).at(-1);
  if (log === undefined) throw new Error(`no ${backend} log`);
  return log;
}

/** A copy of a SQLite log of the corpus, and what it holds as the old Warden wrote it. */
function copySqlite(t: TestContext, log: CorpusLog): { file: string; written: Written } {
  const file = join(scratchDir(t), 'warden.db');
  copyFileSync(new URL(log.file, CORPUS_DIR), file);
  const raw = new Database(file, { readonly: true });
  try {
    assert.equal(raw.pragma('user_version', { simple: true }), log.version);
    const hasAudit = raw.prepare("SELECT 1 FROM sqlite_master WHERE name = 'audit'").get() !== undefined;
    const rows = (sql: string) => raw.prepare(sql).all() as Record<string, unknown>[];
    return {
      file,
      written: {
        events: rows('SELECT * FROM events ORDER BY seq').map(eventOfRow),
        audit: hasAudit
          ? rows('SELECT seq, hash, record AS text FROM audit ORDER BY seq').map(auditOfRow)
          : [],
      },
    };
  } finally {
    raw.close();
  }
}

function scratchDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'warden-upgrade-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('upgrade replay: a real log of every SQLite schema version, opened by this Warden', () => {
  it('the corpus has every version so far', () => {
    const versions = CORPUS.filter((log) => log.backend === 'sqlite').map((log) => log.version);
    assert.deepEqual(
      versions,
      Array.from({ length: LATEST_SCHEMA_VERSION }, (_, i) => i + 1),
    );
  });

  for (const log of CORPUS.filter((entry) => entry.backend === 'sqlite'))
    it(`${log.name}, written at ${log.commit}`, (t) => {
      const { file, written } = copySqlite(t, log);
      const store = SqliteStore.open(file);
      t.after(() => store.close());
      checkOpened(store, written, log);
    });

  it('the checks see a projection that is not the fold of the log', (t) => {
    const log = newestOf('sqlite');
    const { file, written } = copySqlite(t, log);
    const db = new Database(file);
    db.prepare(
      "UPDATE approvals SET status = 'allowed' WHERE id = (SELECT min(id) FROM approvals WHERE status = 'pending')",
    ).run();
    db.close();
    const store = SqliteStore.open(file);
    t.after(() => store.close());
    assert.throws(() => checkOpened(store, written, log), /approvals/);
  });

  it('a log from a newer schema is refused as STORE_TOO_NEW, naming it, and left byte for byte as it was', (t) => {
    const { file } = copySqlite(t, newestOf('sqlite'));
    const db = new Database(file);
    db.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`);
    db.close();
    const before = readFileSync(file);
    assert.throws(
      () => SqliteStore.open(file),
      (error: unknown) =>
        error instanceof StoreError &&
        error.code === 'STORE_TOO_NEW' &&
        error.message.includes(file) &&
        error.message.includes(
          `schema version ${LATEST_SCHEMA_VERSION + 1}; this Warden knows versions up to ${LATEST_SCHEMA_VERSION}`,
        ),
    );
    assert.throws(
      () => readStoreSnapshot(file),
      (error: unknown) => error instanceof StoreError && error.code === 'STORE_TOO_NEW',
      'warden status refuses it too',
    );
    assert.deepEqual(readFileSync(file), before);
  });
});

/** Loads a PostgreSQL log of the corpus into `url` and reads what it holds as the old Warden wrote it. */
async function loadDump(url: string, log: CorpusLog): Promise<Written> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(readFileSync(new URL(log.file, CORPUS_DIR), 'utf8'));
    const version = await client.query('SELECT max(version) AS v FROM public.warden_schema_version');
    assert.equal(Number(version.rows[0]?.v), log.version);
    const rows = async (sql: string) => (await client.query(sql)).rows as Record<string, unknown>[];
    return {
      events: (await rows('SELECT * FROM public.warden_events ORDER BY seq')).map(eventOfRow),
      audit: (await rows('SELECT seq, hash, record AS text FROM public.warden_audit ORDER BY seq')).map(
        auditOfRow,
      ),
    };
  } finally {
    await client.end();
  }
}

/** Every row of every table of the database, as text: to see that nothing was written. */
async function contentsOf(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>(
      "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1",
    );
    const parts: string[] = [];
    for (const { name } of tables.rows)
      parts.push(name, JSON.stringify((await client.query(`SELECT * FROM public.${name} ORDER BY 1`)).rows));
    return parts.join('\n');
  } finally {
    await client.end();
  }
}

describe(
  'upgrade replay: a real log of every PostgreSQL schema version, opened by this Warden',
  {
    skip: !postgresAvailable(),
  },
  () => {
    it('the corpus has every version so far', () => {
      const versions = CORPUS.filter((log) => log.backend === 'postgres').map((log) => log.version);
      assert.deepEqual(
        versions,
        Array.from({ length: LATEST_PG_SCHEMA_VERSION }, (_, i) => i + 1),
      );
    });

    for (const log of CORPUS.filter((entry) => entry.backend === 'postgres'))
      it(`${log.name}, written at ${log.commit}`, async (t) => {
        const url = await freshDatabase(t);
        const written = await loadDump(url, log);
        const store = PostgresStore.open(url, { exclusive: true });
        t.after(() => store.close());
        checkOpened(store, written, log);
      });

    it('a log from a newer schema is refused as STORE_TOO_NEW, naming it, with nothing written', async (t) => {
      const url = await freshDatabase(t);
      await loadDump(url, newestOf('postgres'));
      const newer = LATEST_PG_SCHEMA_VERSION + 1;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query("INSERT INTO warden_schema_version (version, description) VALUES ($1, 'newer')", [
        newer,
      ]);
      await client.end();
      const before = await contentsOf(url);
      const database = new URL(url).pathname.slice(1);
      assert.throws(
        () => PostgresStore.open(url, { exclusive: true }),
        (error: unknown) =>
          error instanceof StoreError &&
          error.code === 'STORE_TOO_NEW' &&
          error.message.includes(`/${database}`) &&
          error.message.includes(
            `schema version ${newer}; this Warden knows versions up to ${LATEST_PG_SCHEMA_VERSION}`,
          ),
      );
      assert.equal(await contentsOf(url), before);
    });
  },
);
