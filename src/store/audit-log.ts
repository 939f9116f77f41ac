// The audit trail in SQLite: the `audit` table holds each record's canonical text and hash. Records are
// appended by the store inside the transaction that commits their event, so a decision acknowledged to
// anyone has its audit record on disk too, and a commit that fails leaves neither. A store that has no
// record yet (a new one, or one that existed before the audit did) gets the genesis record at open.
import type BetterSqlite3 from 'better-sqlite3';

import {
  auditDraftOf,
  chainRecord,
  GENESIS_PREV,
  genesisDraft,
  type AuditDraft,
  type AuditRow,
} from './audit-chain.js';
import type { StoredEvent } from './event-types.js';
import { approvalFromRow, type Row } from './rows.js';

export interface AuditQuery {
  /** Records with a seq greater than this (default 0). */
  after?: number;
  /** Records at or after this time (ISO 8601, compared as the records write it). */
  since?: string;
  /** At most this many (default 500). */
  limit?: number;
}

const AUDITED = new Set(['permission.decided', 'approval.decided', 'approval.cancelled', 'approval.expired']);
const DEFAULT_PAGE = 500;

export class AuditLog {
  readonly #last: BetterSqlite3.Statement<[], { seq: number; hash: string }>;
  readonly #insert: BetterSqlite3.Statement<[number, string, string]>;
  readonly #approval: BetterSqlite3.Statement<[string], Row>;
  readonly #page: BetterSqlite3.Statement<[number, number], AuditRow>;

  constructor(db: BetterSqlite3.Database) {
    this.#last = db.prepare('SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1');
    this.#insert = db.prepare('INSERT INTO audit (seq, hash, record) VALUES (?, ?, ?)');
    this.#approval = db.prepare('SELECT * FROM approvals WHERE id = ?');
    this.#page = db.prepare('SELECT seq, hash, record AS text FROM audit WHERE seq > ? ORDER BY seq LIMIT ?');
    db.transaction(() => {
      if (this.#last.get() !== undefined) return;
      const lastEvent = db
        .prepare<[], { seq: number }>('SELECT coalesce(max(seq), 0) AS seq FROM events')
        .get();
      this.#append(genesisDraft(new Date().toISOString(), lastEvent?.seq ?? 0));
    })();
  }

  /** Called inside the commit's transaction, after `event` was applied and stored. */
  record(event: StoredEvent): void {
    if (!AUDITED.has(event.type)) return;
    const approvalId = (event.data as { approvalId?: unknown }).approvalId;
    const row = typeof approvalId === 'string' ? this.#approval.get(approvalId) : undefined;
    const draft = auditDraftOf(event, row === undefined ? undefined : approvalFromRow(row));
    if (draft !== undefined) this.#append(draft);
  }

  /** Records in order, a page at a time. */
  read(query: AuditQuery = {}): AuditRow[] {
    return readAuditPages((after, limit) => this.#page.all(after, limit), query);
  }

  #append(draft: AuditDraft): void {
    const last = this.#last.get();
    const { row } = chainRecord(draft, (last?.seq ?? 0) + 1, last?.hash ?? GENESIS_PREV);
    this.#insert.run(row.seq, row.hash, row.text);
  }
}

/** Records in order through `page(after, limit)`, filtered by `query` (the paging both backends share). */
export function readAuditPages(
  page: (after: number, limit: number) => AuditRow[],
  query: AuditQuery,
): AuditRow[] {
  const limit = query.limit ?? DEFAULT_PAGE;
  const { since } = query;
  if (since === undefined) return page(query.after ?? 0, limit);
  // Filtered by time: page on, skipping earlier records, until the page is full or the log ends.
  const rows: AuditRow[] = [];
  let after = query.after ?? 0;
  for (;;) {
    const records = page(after, DEFAULT_PAGE);
    for (const row of records) if (recordTime(row) === '' || recordTime(row) >= since) rows.push(row);
    if (rows.length >= limit || records.length < DEFAULT_PAGE) return rows.slice(0, limit);
    after = records.at(-1)?.seq ?? after;
  }
}

/** The record's `at`; a record that does not parse is kept (the export shows it; verify names it). */
function recordTime(row: AuditRow): string {
  try {
    const { at } = JSON.parse(row.text) as { at?: unknown };
    return typeof at === 'string' ? at : '';
  } catch {
    return '';
  }
}

/** Every record of a store, in order, read a page at a time. */
export function* auditRows(store: { readAudit(query: AuditQuery): AuditRow[] }): Generator<AuditRow> {
  let after = 0;
  for (;;) {
    const page = store.readAudit({ after, limit: DEFAULT_PAGE });
    yield* page;
    if (page.length < DEFAULT_PAGE) return;
    after = page.at(-1)?.seq ?? after;
  }
}
