// The audit trail in SQLite: the `audit` table holds each record's canonical text and hash. Records are
// appended by the store inside the transaction that commits their event, so a decision acknowledged to
// anyone has its audit record on disk too, and a commit that fails leaves neither. A store that has no
// record yet (a new one, or one that existed before the audit did) gets the genesis record at open.
import type BetterSqlite3 from 'better-sqlite3';

import { auditDraftOf, chainRecord, GENESIS_PREV, genesisDraft, type AuditDraft } from './audit-chain.js';
import {
  AUDITED_EVENT_TYPES,
  type AuditQuery,
  type AuditRecord,
  type AuditRow,
  type LogFacts,
} from './audit-record.js';
import type { StoredEvent } from './event-types.js';
import { approvalFromRow, type Row } from './rows.js';

export type { AuditQuery } from './audit-record.js';

const AUDITED = new Set(AUDITED_EVENT_TYPES);
const DEFAULT_PAGE = 500;

export class AuditLog {
  readonly #last: BetterSqlite3.Statement<[], { seq: number; hash: string }>;
  readonly #insert: BetterSqlite3.Statement<[number, string, string]>;
  readonly #approval: BetterSqlite3.Statement<[string], Row>;
  readonly #page: BetterSqlite3.Statement<[number, number], AuditRow>;
  readonly #pageBefore: BetterSqlite3.Statement<[number, number], AuditRow>;

  constructor(db: BetterSqlite3.Database) {
    this.#last = db.prepare('SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1');
    this.#insert = db.prepare('INSERT INTO audit (seq, hash, record) VALUES (?, ?, ?)');
    this.#approval = db.prepare('SELECT * FROM approvals WHERE id = ?');
    this.#page = db.prepare('SELECT seq, hash, record AS text FROM audit WHERE seq > ? ORDER BY seq LIMIT ?');
    this.#pageBefore = db.prepare(
      'SELECT seq, hash, record AS text FROM audit WHERE seq < ? ORDER BY seq DESC LIMIT ?',
    );
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
    return readAuditPages(
      {
        after: (after, limit) => this.#page.all(after, limit),
        before: (before, limit) => this.#pageBefore.all(before, limit),
      },
      query,
    );
  }

  #append(draft: AuditDraft): void {
    const last = this.#last.get();
    const { row } = chainRecord(draft, (last?.seq ?? 0) + 1, last?.hash ?? GENESIS_PREV);
    this.#insert.run(row.seq, row.hash, row.text);
  }
}

/** A backend's two pages of records: after a seq oldest first, and before a seq newest first. */
export interface AuditPages {
  after(after: number, limit: number): AuditRow[];
  before(before: number, limit: number): AuditRow[];
}

/**
 * Records in the query's order between `after` and `before`, filtered by its other fields (the paging
 * both backends share). A filtered read pages on until it has `limit` records or the log ends.
 */
export function readAuditPages(pages: AuditPages, query: AuditQuery): AuditRow[] {
  const limit = query.limit ?? DEFAULT_PAGE;
  const after = query.after ?? 0;
  const before = query.before ?? Number.MAX_SAFE_INTEGER;
  const desc = query.order === 'desc';
  const within = (row: AuditRow): boolean => row.seq > after && row.seq < before;
  const matches = auditFilter(query);
  if (matches === undefined)
    return (desc ? pages.before(before, limit) : pages.after(after, limit)).filter(within);
  const rows: AuditRow[] = [];
  let cursor = desc ? before : after;
  for (;;) {
    const page = desc ? pages.before(cursor, DEFAULT_PAGE) : pages.after(cursor, DEFAULT_PAGE);
    for (const row of page) {
      if (!within(row)) return rows;
      if (!matches(row)) continue;
      rows.push(row);
      if (rows.length >= limit) return rows;
    }
    const last = page.at(-1);
    if (page.length < DEFAULT_PAGE || last === undefined) return rows;
    cursor = last.seq;
  }
}

/**
 * Whether a record answers the query's filters (undefined: the query has none). A record that does not
 * parse always matches: the export shows it, and verify names it.
 */
export function auditFilter(query: AuditQuery): ((row: AuditRow) => boolean) | undefined {
  const { since, threadId, decider, outcome } = query;
  if (since === undefined && threadId === undefined && decider === undefined && outcome === undefined)
    return undefined;
  return (row) => {
    let record: Partial<AuditRecord>;
    try {
      record = JSON.parse(row.text) as Partial<AuditRecord>;
    } catch {
      return true;
    }
    if (since !== undefined && typeof record.at === 'string' && record.at < since) return false;
    if (threadId !== undefined && record.threadId !== threadId) return false;
    if (decider !== undefined && record.decidedBy?.name !== decider) return false;
    return outcome === undefined || record.outcome === outcome;
  };
}

/**
 * What the log says the trail must hold (verifyAuditRows checks a chain against it): the seqs of its
 * audited events, read a page of events at a time, and its last seq.
 */
export function logFactsOf(store: {
  readEvents(query: { after: number; limit: number }): StoredEvent[];
  lastSeq(): number;
}): LogFacts {
  const lastEventSeq = store.lastSeq();
  const auditedEventSeqs: number[] = [];
  let after = 0;
  while (after < lastEventSeq) {
    const page = store.readEvents({ after, limit: DEFAULT_PAGE });
    for (const event of page)
      if (AUDITED.has(event.type) && event.seq <= lastEventSeq) auditedEventSeqs.push(event.seq);
    const last = page.at(-1);
    if (last === undefined) break;
    after = last.seq;
  }
  return { auditedEventSeqs, lastEventSeq };
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
