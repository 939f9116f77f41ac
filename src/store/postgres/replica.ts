// A host's replica of the projections: an in-memory SQLite database with the same schema as the embedded
// store, folded by the same Projector from the authoritative log in PostgreSQL. It holds the projections
// and the audit trail's last record (to chain the next one), not the log itself.
import Database from 'better-sqlite3';
import type BetterSqlite3 from 'better-sqlite3';

import { WardenError } from '../../protocol/errors.js';
import type { AuditRow } from '../audit-chain.js';
import { AuditLog } from '../audit-log.js';
import type { EventDraft, StoredEvent } from '../event-types.js';
import { migrate } from '../migrations.js';
import { Projector } from '../projector.js';
import { ProjectionReads } from '../projection-reads.js';

/** The processed spool offset of a thread's detached CLI, known by the spool it belongs to. */
export interface SpoolOffset {
  threadId: string;
  spoolDir: string;
  offset: number;
}

/** Which event is at a seq of the log: enough to tell it from another host's event at the same seq. */
export type LastEvent = Pick<StoredEvent, 'seq' | 'threadId' | 'threadSeq'>;

/** What a commit adds to the log, prepared against the replica: its events and audit records. */
export interface PreparedCommit {
  events: StoredEvent[];
  audit: AuditRow[];
  spool: SpoolOffset | undefined;
}

export class Replica {
  readonly reads: ProjectionReads;
  readonly #db: BetterSqlite3.Database;
  readonly #projector: Projector;
  #audit: AuditLog | undefined;
  /** The global seq of the last event folded in. */
  #seq = 0;
  /** The last event folded in or committed: what a durability barrier looks for in the log (durability.ts). */
  #last: LastEvent | undefined;

  // Prepared once: a commit runs these every time, and preparing costs more than running them.
  readonly #setLastSeq: BetterSqlite3.Statement<[number, string]>;
  readonly #nextThreadSeq: BetterSqlite3.Statement<[string], { last_seq: number }>;
  readonly #auditAfter: BetterSqlite3.Statement<[number], AuditRow>;
  readonly #lastAuditSeq: BetterSqlite3.Statement<[], { seq: number | null }>;
  readonly #pruneAuditRows: BetterSqlite3.Statement<[]>;
  readonly #keepAudit: BetterSqlite3.Statement<[number, string, string]>;
  readonly #spoolOf: BetterSqlite3.Statement<[string], { cli_spool_dir: unknown; cli_spool_offset: unknown }>;

  constructor() {
    this.#db = new Database(':memory:');
    this.#db.pragma('foreign_keys = ON');
    migrate(this.#db);
    this.#projector = new Projector(this.#db);
    this.reads = new ProjectionReads(this.#db);
    this.#setLastSeq = this.#db.prepare('UPDATE threads SET last_seq = ? WHERE id = ?');
    this.#nextThreadSeq = this.#db.prepare(
      'UPDATE threads SET last_seq = last_seq + 1 WHERE id = ? RETURNING last_seq',
    );
    this.#auditAfter = this.#db.prepare(
      'SELECT seq, hash, record AS text FROM audit WHERE seq > ? ORDER BY seq',
    );
    this.#lastAuditSeq = this.#db.prepare('SELECT max(seq) AS seq FROM audit');
    this.#pruneAuditRows = this.#db.prepare('DELETE FROM audit WHERE seq < (SELECT max(seq) FROM audit)');
    this.#keepAudit = this.#db.prepare('INSERT OR REPLACE INTO audit (seq, hash, record) VALUES (?, ?, ?)');
    this.#spoolOf = this.#db.prepare('SELECT cli_spool_dir, cli_spool_offset FROM threads WHERE id = ?');
  }

  get seq(): number {
    return this.#seq;
  }

  get last(): LastEvent | undefined {
    return this.#last;
  }

  /** Folds events already in the log (this host's on open, other hosts' since), in order. */
  fold(events: readonly StoredEvent[], audit: readonly AuditRow[], offsets: readonly SpoolOffset[]): void {
    if (events.length === 0 && audit.length === 0 && offsets.length === 0) return;
    this.#db.transaction(() => {
      const setLastSeq = this.#setLastSeq;
      for (const event of events) {
        if (event.seq <= this.#seq) continue;
        this.#projector.apply(event.threadId, event.at, { type: event.type, data: event.data } as EventDraft);
        setLastSeq.run(event.threadSeq, event.threadId);
        this.#seq = event.seq;
        this.#last = event;
      }
      const last = audit.at(-1);
      if (last !== undefined) this.#keepLastAudit(last);
      this.#applyOffsets(offsets);
    })();
  }

  /** Chains the next audit record on the last one; called once the log is folded in at open. */
  startAudit(): void {
    this.#audit ??= new AuditLog(this.#db);
  }

  /**
   * Applies `drafts` inside a SQLite transaction and hands what they add to `write`, which stores it in
   * the log. If the projector refuses a draft (ConflictError, NotFoundError) or `write` throws, the
   * replica is rolled back and the error passes through: nothing changed anywhere.
   */
  commit(
    threadId: string,
    drafts: readonly EventDraft[],
    spoolOffset: number | undefined,
    write: (prepared: PreparedCommit) => void,
  ): StoredEvent[] {
    const events = this.#db.transaction(() => {
      const prepared = this.#apply(threadId, drafts, spoolOffset, this.#seq);
      write(prepared);
      return prepared.events;
    })();
    this.#advance(events);
    return events;
  }

  /**
   * Several commits in one SQLite transaction, each in a savepoint of its own: one whose drafts the
   * projector refuses (a WardenError: ConflictError, NotFoundError) is rolled back alone and returned as
   * its result. `write` gets the others at the end, to store them in the log together; if it throws, the
   * whole transaction is rolled back and the error passes through: none of them happened.
   */
  commitAll(
    commits: readonly { readonly threadId: string; readonly drafts: readonly EventDraft[] }[],
    write: (prepared: PreparedCommit[]) => void,
  ): (StoredEvent[] | WardenError)[] {
    const results = this.#db.transaction(() => {
      const prepared: PreparedCommit[] = [];
      const outcomes: (StoredEvent[] | WardenError)[] = [];
      let after = this.#seq;
      for (const { threadId, drafts } of commits) {
        try {
          const one = this.#db.transaction(() => this.#apply(threadId, drafts, undefined, after))();
          prepared.push(one);
          outcomes.push(one.events);
          after += one.events.length;
        } catch (error) {
          if (!(error instanceof WardenError)) throw error;
          outcomes.push(error);
        }
      }
      write(prepared);
      return outcomes;
    })();
    this.#advance(results.flatMap((result) => (result instanceof WardenError ? [] : result)));
    return results;
  }

  /** One commit's events, audit records and spool offset, applied in the transaction under way. */
  #apply(
    threadId: string,
    drafts: readonly EventDraft[],
    spoolOffset: number | undefined,
    after: number,
  ): PreparedCommit {
    const audit = this.#audit;
    if (audit === undefined) throw new Error('The replica was not started');
    const nextThreadSeq = this.#nextThreadSeq;
    const at = new Date().toISOString();
    const auditBefore = this.#lastAuditSeq.get()?.seq ?? 0;
    const stored = drafts.map((draft, index) => {
      this.#projector.apply(threadId, at, draft);
      const threadSeq = nextThreadSeq.get(threadId)?.last_seq;
      if (threadSeq === undefined) throw new Error(`Thread ${threadId} vanished during a commit`);
      const seq = after + index + 1;
      const event = { seq, threadId, threadSeq, type: draft.type, at, data: draft.data } as StoredEvent;
      audit.record(event);
      return event;
    });
    let spool: SpoolOffset | undefined;
    if (spoolOffset !== undefined) {
      this.#projector.setSpoolOffset(threadId, spoolOffset);
      const row = this.#spoolOf.get(threadId);
      if (typeof row?.cli_spool_dir === 'string')
        spool = { threadId, spoolDir: row.cli_spool_dir, offset: Number(row.cli_spool_offset ?? 0) };
    }
    return { events: stored, audit: this.#auditAfter.all(auditBefore), spool };
  }

  /** After a transaction of commits returned: the events are the replica's. */
  #advance(events: readonly StoredEvent[]): void {
    this.#seq += events.length;
    this.#last = events.at(-1) ?? this.#last;
    this.#pruneAudit();
  }

  /** Empties the projections, to fold the whole log again. */
  reset(): void {
    this.#db.transaction(() => {
      this.#db.pragma('defer_foreign_keys = ON');
      this.#db.exec('DELETE FROM approvals; DELETE FROM subagents; DELETE FROM runs; DELETE FROM threads;');
    })();
    this.#seq = 0;
    this.#last = undefined;
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }

  #keepLastAudit(row: AuditRow): void {
    this.#keepAudit.run(row.seq, row.hash, row.text);
    this.#pruneAudit();
  }

  #pruneAudit(): void {
    this.#pruneAuditRows.run();
  }

  /** Only onto the process the offset was recorded for: a newer process of the thread starts from 0. */
  #applyOffsets(offsets: readonly SpoolOffset[]): void {
    if (offsets.length === 0) return;
    const update = this.#db.prepare(
      `UPDATE threads SET cli_spool_offset = max(coalesce(cli_spool_offset, 0), ?)
       WHERE id = ? AND cli_spool_dir = ?`,
    );
    for (const { threadId, spoolDir, offset } of offsets) update.run(offset, threadId, spoolDir);
  }
}
