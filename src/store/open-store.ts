// Opening the store a host runs on: the target names the backend — a data directory holds the embedded
// SQLite file, a postgres:// URL names the database a fleet of hosts shares — and the caller sees only
// the Store interface (and, for a shared store, its host registry through Store.hosts()).
import { join } from 'node:path';

import type { FleetHostOptions } from './host-registry.js';
import { PostgresStore } from './postgres/postgres-store.js';
import { SqliteStore } from './sqlite-store.js';
import type { Store } from './store.js';
import { isPostgresUrl } from './store-target.js';

/** The SQLite file of a data directory. */
export const DATABASE_FILE = 'warden.db';

export interface OpenStoreOptions {
  /**
   * This host's place in the fleet that shares a PostgreSQL store (host-registry.ts). Without it the
   * store is held for this host alone: a second host opening it fails with a StoreError.
   */
  host?: FleetHostOptions;
}

/** Opens (creating or migrating as needed) the store at `target`: a data directory or a postgres:// URL. */
export function openStore(target: string, options: OpenStoreOptions = {}): Store {
  if (typeof target !== 'string' || target === '')
    throw new TypeError('The store target must be a data directory or a postgres:// URL');
  const { host } = options;
  if (!isPostgresUrl(target)) {
    if (host !== undefined) throw new TypeError('options.host needs a PostgreSQL store: a fleet shares one');
    return SqliteStore.open(join(target, DATABASE_FILE));
  }
  return PostgresStore.open(target, host === undefined ? { exclusive: true } : { host });
}
