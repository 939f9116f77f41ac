// The Store backends a test runs against: SQLite always, PostgreSQL when a server can be had (a throwaway
// cluster this process starts once, or the one WARDEN_TEST_PG_URL names). WARDEN_TEST_STORES=sqlite (or
// =postgres) restricts the list. Each PostgreSQL test gets a database of its own, emptied for it.
import { mkdtempSync, rmSync } from 'node:fs';
import { afterEach, beforeEach, describe } from 'node:test';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { DATABASE_FILE } from '../../src/supervisor/index.js';
import {
  postgresAvailable,
  startPostgresCluster,
  type PostgresCluster,
} from '../../src/testing/postgres-cluster.js';

export type BackendName = 'sqlite' | 'postgres';

interface AfterHook {
  after(fn: () => Promise<void> | void): void;
}

export interface StoreBackend {
  readonly name: BackendName;
  /** A fresh store of this backend, closed (and its data removed) after the test. */
  open(t: AfterHook): Promise<SqliteStore | PostgresStore>;
  /**
   * What Supervisor.open() takes to run on this backend: `{}` for SQLite in the dataDir, `{ store: url }`
   * of a fresh database for PostgreSQL (released after the test).
   */
  supervisorOptions(t: AfterHook): Promise<{ store?: string }>;
  /** The same without a test context: release() when done (the database is then reused). */
  acquire(): Promise<{ options: { store?: string }; release: () => void }>;
  /** Opens (again) the store a Supervisor with `dataDir` and `options` uses; the caller closes it. */
  reopen(dataDir: string, options: { store?: string }): SqliteStore | PostgresStore;
  /** A copy of the store as it is now (for SQLite the dataDir copy holds it: `{}`), and its release. */
  copy(options: { store?: string }): Promise<{ options: { store?: string }; release: () => void }>;
}

let cluster: Promise<PostgresCluster> | undefined;
/** Databases of this process no test uses right now: emptied and handed to the next one. */
const idle: string[] = [];

/** The process's PostgreSQL server, started on first use (and removed when the process exits). */
export function testCluster(): Promise<PostgresCluster> {
  cluster ??= startPostgresCluster();
  return cluster;
}

/** An empty database of this process's server; give it back with releaseDatabase() to have it reused. */
export async function takeDatabase(): Promise<string> {
  const server = await testCluster();
  const url = idle.pop();
  if (url === undefined) return await server.createDatabase();
  const database = databaseOf(url);
  // A store a failed test left open would still hold its host lock and connections.
  await server.sql(
    'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [database],
  );
  await server.sql('DROP SCHEMA public CASCADE; CREATE SCHEMA public', [], database);
  return url;
}

export function releaseDatabase(url: string): void {
  idle.push(url);
}

/** The URL of an empty database for this test; it is emptied again and reused after it. */
export async function freshDatabase(t: AfterHook): Promise<string> {
  const url = await takeDatabase();
  t.after(() => releaseDatabase(url));
  return url;
}

function databaseOf(url: string): string {
  return new URL(url).pathname.slice(1);
}

/**
 * A copy of the store's database as it is now (one snapshot: log, head, audit trail, spool offsets), as a
 * copied data directory is for SQLite: what a host killed at this moment leaves behind.
 */
export async function copyDatabase(source: string): Promise<string> {
  const server = await testCluster();
  const target = await takeDatabase();
  PostgresStore.open(target).close();
  const [tables] = await server.sql(
    `SELECT (SELECT coalesce(json_agg(e), '[]') FROM warden_events e) AS events,
            (SELECT coalesce(json_agg(a), '[]') FROM warden_audit a) AS audit,
            (SELECT coalesce(json_agg(o), '[]') FROM warden_spool_offsets o) AS offsets,
            (SELECT seq FROM warden_log_head) AS head`,
    [],
    databaseOf(source),
  );
  const copy = (table: string, rows: unknown) =>
    server.sql(
      `INSERT INTO ${table} SELECT * FROM json_populate_recordset(null::${table}, $1)`,
      [JSON.stringify(rows)],
      databaseOf(target),
    );
  await server.sql('DELETE FROM warden_audit', [], databaseOf(target));
  await copy('warden_events', tables?.events);
  await copy('warden_audit', tables?.audit);
  await copy('warden_spool_offsets', tables?.offsets);
  await server.sql('UPDATE warden_log_head SET seq = $1', [tables?.head], databaseOf(target));
  return target;
}

function wanted(name: BackendName): boolean {
  const only = process.env.WARDEN_TEST_STORES;
  if (only === undefined || only === '') return name === 'sqlite' || postgresAvailable();
  return only
    .split(',')
    .map((s) => s.trim())
    .includes(name);
}

const sqlite: StoreBackend = {
  name: 'sqlite',
  open(t) {
    const dir = mkdtempSync(join(tmpdir(), 'warden-store-'));
    const store = SqliteStore.open(join(dir, 'warden.db'));
    t.after(() => {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    });
    return Promise.resolve(store);
  },
  supervisorOptions: () => Promise.resolve({}),
  acquire: () => Promise.resolve({ options: {}, release: () => undefined }),
  reopen: (dataDir) => SqliteStore.open(join(dataDir, DATABASE_FILE)),
  copy: () => Promise.resolve({ options: {}, release: () => undefined }),
};

const postgres: StoreBackend = {
  name: 'postgres',
  async open(t) {
    const store = PostgresStore.open(await freshDatabase(t));
    t.after(() => store.close());
    return store;
  },
  async supervisorOptions(t) {
    return { store: await freshDatabase(t) };
  },
  async acquire() {
    const url = await takeDatabase();
    return { options: { store: url }, release: () => releaseDatabase(url) };
  },
  reopen(_dataDir, options) {
    if (options.store === undefined) throw new TypeError('not a PostgreSQL store');
    return PostgresStore.open(options.store);
  },
  async copy(options) {
    if (options.store === undefined) throw new TypeError('not a PostgreSQL store');
    const url = await copyDatabase(options.store);
    return { options: { store: url }, release: () => releaseDatabase(url) };
  },
};

/** The backends to run on (see the top of this file). */
export function storeBackends(): StoreBackend[] {
  return [sqlite, postgres].filter((backend) => wanted(backend.name));
}

let current: StoreBackend = sqlite;

/** The backend of the suite now running (describeEachStore); SQLite outside one. */
export function currentStoreBackend(): StoreBackend {
  return current;
}

/**
 * Declares the suite once per backend (`name (sqlite)`, `name (postgres)`). Inside it, helpers that open
 * a Supervisor (openFakeSupervisor) use that suite's backend through currentStoreBackend().
 */
export function describeEachStore(
  name: string,
  fn: (backend: StoreBackend) => void,
  options: { timeout?: number } = {},
): void {
  for (const backend of storeBackends()) {
    describe(`${name} (${backend.name})`, options, () => {
      beforeEach(() => {
        current = backend;
      });
      afterEach(() => {
        current = sqlite;
      });
      fn(backend);
    });
  }
}
