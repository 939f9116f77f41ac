// Reading a store without becoming its host: for `warden status`, which must never take over a data
// directory or stand in the way of a host starting. A read-only connection, no migrations, no lock held
// past the read. While a host has the database open it holds SQLite's exclusive lock (WAL without shared
// memory), so nothing else can read it at all: that is reported as `held`, and the caller asks the host.
// A PostgreSQL store's read-only readers live with its backend (postgres/read-only.ts); callers outside
// store/ reach them here.
import { existsSync } from 'node:fs';

import Database from 'better-sqlite3';

import { StoreError } from '../protocol/errors.js';
import { LATEST_SCHEMA_VERSION, schemaVersion } from './migrations.js';
import type { ThreadSummary } from './records.js';
import { threadFromRow, type Row } from './rows.js';
import { refuseNewerSchema } from './schema-too-new.js';

export {
  readPostgresAudit,
  readPostgresHosts,
  readPostgresSnapshot,
  type FleetThreadSummary,
  type PostgresAuditRead,
  type PostgresSnapshot,
} from './postgres/read-only.js';
export type { ThreadSummary } from './records.js';

export type StoreSnapshot =
  | { readonly state: 'missing' }
  | { readonly state: 'held' }
  | { readonly state: 'read'; readonly threads: readonly ThreadSummary[] };

/** The threads of the store at `path` with their pending approval counts, or why they cannot be read. */
export function readStoreSnapshot(path: string): StoreSnapshot {
  if (!existsSync(path)) return { state: 'missing' };
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 0');
    const read = db.transaction(() => {
      refuseNewerSchema(path, schemaVersion(db!), LATEST_SCHEMA_VERSION);
      const threads = db!.prepare<[], Row>('SELECT * FROM threads ORDER BY created_at').all();
      const pending = db!
        .prepare<[], { thread_id: string; n: number }>(
          "SELECT thread_id, count(*) AS n FROM approvals WHERE status = 'pending' GROUP BY thread_id",
        )
        .all();
      const counts = new Map(pending.map((row) => [row.thread_id, row.n]));
      return threads.map((row) => {
        const thread = threadFromRow(row);
        return { thread, pendingApprovals: counts.get(thread.id) ?? 0 };
      });
    });
    return { state: 'read', threads: read() };
  } catch (error) {
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return { state: 'held' };
    if (error instanceof StoreError) throw error;
    throw new StoreError(`Could not read the store at ${path}`, { cause: error });
  } finally {
    db?.close();
  }
}
