// Reading the audit trail of a store without becoming its host (`warden audit` with no server running):
// a read-only connection, no migrations, no lock held past the read. While a host has the database open
// its exclusive lock keeps every reader out: that is reported as `held`, and the caller asks the server.
import { existsSync } from 'node:fs';

import Database from 'better-sqlite3';

import { StoreError } from '../protocol/errors.js';
import { AUDITED_EVENT_TYPES, type AuditRow, type LogFacts } from './audit-record.js';

export type AuditReadResult<T> =
  | { readonly state: 'missing' }
  | { readonly state: 'held' }
  /** The store predates the audit trail and no newer Warden has opened it yet. */
  | { readonly state: 'none' }
  | { readonly state: 'read'; readonly value: T };

/** Hands `use` every record of the store at `path`, in order, read as it iterates. */
export function readAuditReadOnly<T>(
  path: string,
  use: (rows: Iterable<AuditRow>, log: LogFacts) => T,
  options: { since?: string } = {},
): AuditReadResult<T> {
  if (!existsSync(path)) return { state: 'missing' };
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 0');
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'audit'").get();
    if (table === undefined) return { state: 'none' };
    // Read before the records are iterated: one connection runs one statement at a time.
    const log: LogFacts = {
      auditedEventSeqs: db
        .prepare<string[], number>(
          `SELECT seq FROM events WHERE type IN (${AUDITED_EVENT_TYPES.map(() => '?').join(', ')}) ORDER BY seq`,
        )
        .pluck()
        .all(...AUDITED_EVENT_TYPES),
      lastEventSeq: db.prepare<[], number>('SELECT coalesce(max(seq), 0) FROM events').pluck().get() ?? 0,
    };
    const statement = db.prepare<[], AuditRow>('SELECT seq, hash, record AS text FROM audit ORDER BY seq');
    const { since } = options;
    const rows = since === undefined ? statement.iterate() : filterSince(statement.iterate(), since);
    return { state: 'read', value: use(rows, log) };
  } catch (error) {
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return { state: 'held' };
    throw new StoreError(`Could not read the audit trail of the store at ${path}`, { cause: error });
  } finally {
    db?.close();
  }
}

function* filterSince(rows: Iterable<AuditRow>, since: string): Generator<AuditRow> {
  for (const row of rows) {
    let at: unknown;
    try {
      at = (JSON.parse(row.text) as { at?: unknown }).at;
    } catch {
      at = undefined;
    }
    if (typeof at !== 'string' || at >= since) yield row;
  }
}
