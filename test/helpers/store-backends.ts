// The Store backends a test runs against: SQLite always, PostgreSQL when a server can be had (a throwaway
// cluster this process starts once, or the one WARDEN_TEST_PG_URL names). WARDEN_TEST_STORES=sqlite (or
// =postgres) restricts the list. Each PostgreSQL test gets a database of its own, emptied for it.
import { mkdtempSync, rmSync } from 'node:fs';
import { beforeEach, describe } from 'node:test';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
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
}

let cluster: Promise<PostgresCluster> | undefined;
/** Databases of this process no test uses right now: emptied and handed to the next one. */
const idle: string[] = [];

/** The process's PostgreSQL server, started on first use (and removed when the process exits). */
export function testCluster(): Promise<PostgresCluster> {
  cluster ??= startPostgresCluster();
  return cluster;
}

/** The URL of an empty database for this test; it is emptied again and reused after it. */
export async function freshDatabase(t: AfterHook): Promise<string> {
  const server = await testCluster();
  let url = idle.pop();
  if (url === undefined) url = await server.createDatabase();
  else {
    const database = new URL(url).pathname.slice(1);
    // A store a failed test left open would still hold its host lock and connections.
    await server.sql(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [database],
    );
    await server.sql('DROP SCHEMA public CASCADE; CREATE SCHEMA public', [], database);
  }
  const ready = url;
  t.after(() => void idle.push(ready));
  return ready;
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
      fn(backend);
    });
  }
}
