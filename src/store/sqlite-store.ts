// The Store on SQLite (better-sqlite3 12.x). WAL with synchronous=NORMAL and group commit: a commit that
// returned is in the WAL file (it survives a crash of this process), and durable() makes it survive a
// crash of the machine too, with one fsync shared by every commit made before it (wal-barrier.ts). The
// supervisor tells nobody of a change before durable() resolves, so whatever was acknowledged survives
// both; a machine crash can lose only commits nobody heard of. The database is opened in exclusive
// locking mode: one host at a time. A failure says why in its code (sqlite-failure.ts): a full disk, a
// lock, a damaged file, a failed fsync; a damaged file is never opened as an empty log.
import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

import Database from 'better-sqlite3';
import type BetterSqlite3 from 'better-sqlite3';

import { StoreError } from '../protocol/errors.js';
import type { AuditRow } from './audit-chain.js';
import { AuditLog, type AuditQuery } from './audit-log.js';
import { checkCommitInput } from './commit-input.js';
import { EventTail } from './event-tail.js';
import type { EventDraft, EventText, StoredEvent } from './event-types.js';
import { LATEST_SCHEMA_VERSION, migrate, schemaVersion } from './migrations.js';
import { createPrivateFile } from './private-dir.js';
import { Projector } from './projector.js';
import type { ApprovalRecord, RunRecord, SubagentRecord, ThreadRecord } from './records.js';
import { ProjectionReads } from './projection-reads.js';
import { eventFromRow, eventTextFromRow, eventTextOf, threadFromRow, type Row } from './rows.js';
import { refuseNewerSchema } from './schema-too-new.js';
import { storeFailure } from './sqlite-failure.js';
import type { ApprovalFilter, CommitOptions, EventQuery, Store, ThreadCommit } from './store.js';
import { WalBarrier } from './wal-barrier.js';

const DEFAULT_EVENT_PAGE = 500;
/** Thread rows kept between commits; past it the cache starts again (a host reads the threads at work). */
const THREAD_ROWS_KEPT = 1024;

export class SqliteStore implements Store {
  readonly #db: BetterSqlite3.Database;
  /** The database file, for the errors that name it. */
  readonly #path: string;
  readonly #reads: ProjectionReads;
  readonly #projector: Projector;
  readonly #audit: AuditLog;
  /** What was committed last, for the readers at the log's edge (event-tail.ts). */
  readonly #tail: EventTail;
  /**
   * Thread rows as read since the thread's last commit: a permission request reads its thread for the
   * policy, the working directory, its deadline and its route, and only a commit to the thread changes
   * its row (every statement that writes one names the committing thread). A commit whose events change
   * nothing of the row but its last seq (keepsThreadRow) keeps it, with that seq. Each read still builds a
   * fresh record from the row.
   */
  readonly #threadRows = new Map<string, Row>();
  /** Undefined for ':memory:', which has nothing to make durable. */
  readonly #barrier: WalBarrier | undefined;
  readonly #commit: (
    threadId: string,
    drafts: readonly EventDraft[],
    spoolOffset: number | undefined,
  ) => { events: StoredEvent[]; rows: Row[] };

  /** Opens (creating if needed) the database file and brings its schema up to date. */
  static open(path: string): SqliteStore {
    if (typeof path !== 'string' || path === '') throw new TypeError('path must be a non-empty string');
    let db: BetterSqlite3.Database | undefined;
    try {
      if (path !== ':memory:') {
        refuseEmptyFile(path);
        // Private from byte one: SQLite gives the -wal and -shm files the database file's mode.
        mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
        createPrivateFile(path);
      }
      db = new Database(path);
      // One writer per database: a second host would "recover" (expire) the first one's live approvals.
      // The exclusive lock is taken now and held until close; the OS drops it if the host dies.
      db.pragma('busy_timeout = 0');
      db.pragma('locking_mode = EXCLUSIVE');
      // Before the first write (journal_mode writes the header): a newer Warden's file stays as it is.
      refuseNewerSchema(path, schemaVersion(db), LATEST_SCHEMA_VERSION);
      db.pragma('journal_mode = WAL');
      db.exec('BEGIN IMMEDIATE; COMMIT');
      // No fsync per commit: durable() syncs the WAL once for all commits before it (wal-barrier.ts).
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      migrate(db, undefined, path);
      // What the migration wrote, and the files' directory entries, are on disk before open returns.
      return new SqliteStore(db, path, path === ':memory:' ? undefined : WalBarrier.open(path));
    } catch (error) {
      db?.close();
      // Nothing was written: a damaged or foreign file is left as it is, for a person to look at.
      throw storeFailure(error, 'Could not open the store', path);
    }
  }

  private constructor(db: BetterSqlite3.Database, path: string, barrier: WalBarrier | undefined) {
    this.#db = db;
    this.#path = path;
    this.#barrier = barrier;
    this.#reads = new ProjectionReads(db);
    this.#projector = new Projector(db);
    this.#audit = new AuditLog(db);
    this.#tail = new EventTail();
    const nextThreadSeq = db.prepare<[string], { last_seq: number }>(
      'UPDATE threads SET last_seq = last_seq + 1 WHERE id = ? RETURNING last_seq',
    );
    const insertEvent = db.prepare<[string, number, string, string, string], { seq: number }>(
      'INSERT INTO events (thread_id, thread_seq, type, at, data) VALUES (?, ?, ?, ?, ?) RETURNING seq',
    );
    this.#commit = db.transaction(
      (threadId: string, drafts: readonly EventDraft[], spoolOffset: number | undefined) => {
        const at = new Date().toISOString();
        const rows: Row[] = [];
        const events = drafts.map((draft) => {
          this.#projector.apply(threadId, at, draft);
          const threadSeq = nextThreadSeq.get(threadId)?.last_seq;
          if (threadSeq === undefined) throw new StoreError(`Thread ${threadId} vanished during a commit`);
          const data = JSON.stringify(draft.data);
          const seq = insertEvent.get(threadId, threadSeq, draft.type, at, data)?.seq;
          if (seq === undefined) throw new StoreError('The event log did not assign a sequence number');
          const event = { seq, threadId, threadSeq, type: draft.type, at, data: draft.data } as StoredEvent;
          rows.push({ seq, thread_id: threadId, thread_seq: threadSeq, type: draft.type, at, data });
          // A decision's audit record is written with its event: both are on disk, or neither.
          this.#audit.record(event);
          return event;
        });
        if (spoolOffset !== undefined) this.#projector.setSpoolOffset(threadId, spoolOffset);
        return { events, rows };
      },
    );
  }

  commit(threadId: string, drafts: readonly EventDraft[], options: CommitOptions = {}): StoredEvent[] {
    const spoolOffset = checkCommitInput(threadId, drafts, options);
    if (drafts.length === 0 && spoolOffset === undefined) return [];
    // After a failed fsync nothing more is written: the disk may not have what the process has.
    const failure = this.#barrier?.failure;
    if (failure !== undefined) throw failure;
    // Whatever the outcome, the row read before may no longer be the thread's.
    const kept = this.#threadRows.get(threadId);
    this.#threadRows.delete(threadId);
    let committed: { events: StoredEvent[]; rows: Row[] };
    try {
      committed = this.#commit(threadId, drafts, spoolOffset);
    } catch (error) {
      throw commitFailure(error, drafts, this.#path);
    }
    if (spoolOffset === undefined) this.#keepThreadRow(threadId, kept, committed.events);
    this.#tail.add(committed.rows);
    this.#barrier?.noteCommit();
    return committed.events;
  }

  commitMany(commits: readonly ThreadCommit[]): (StoredEvent[] | Error)[] {
    const failure = this.#barrier?.failure;
    if (failure !== undefined) return commits.map(() => failure);
    const results: ({ events: StoredEvent[]; rows: Row[] } | Error)[] = [];
    // The rows read before, each kept once the transaction stands if its commits left it as it was.
    const kept = new Map<string, Row | undefined>();
    try {
      // Each commit a savepoint of the one transaction (better-sqlite3 nests them so): one that does not
      // fit is rolled back alone, the others stand.
      this.#db.transaction(() => {
        for (const { threadId, drafts } of commits) {
          if (!kept.has(threadId)) kept.set(threadId, this.#threadRows.get(threadId));
          this.#threadRows.delete(threadId);
          try {
            checkCommitInput(threadId, drafts, {});
          } catch (error) {
            results.push(error as TypeError);
            continue;
          }
          try {
            results.push(this.#commit(threadId, drafts, undefined));
          } catch (error) {
            // A failure SQLite answers by rolling back the whole transaction (a full disk, an I/O error)
            // ends it for every commit in it: the next ones must not run outside any transaction.
            if (!this.#db.inTransaction) throw error;
            results.push(commitFailure(error, drafts, this.#path));
          }
        }
      })();
    } catch (error) {
      // The transaction itself failed (the disk is full, an I/O error): none of them is written.
      const drafts = commits.flatMap((commit) => commit.drafts);
      const failed = commitFailure(error, drafts, this.#path);
      return commits.map(() => failed);
    }
    const events: (StoredEvent[] | Error)[] = [];
    // A commit refused alone was rolled back to its savepoint: it changed no row.
    const committed: StoredEvent[] = [];
    for (const result of results) {
      if (result instanceof Error) events.push(result);
      else {
        this.#tail.add(result.rows);
        events.push(result.events);
        committed.push(...result.events);
      }
    }
    for (const [threadId, row] of kept)
      this.#keepThreadRow(
        threadId,
        row,
        committed.filter((event) => event.threadId === threadId),
      );
    this.#barrier?.noteCommit();
    return events;
  }

  /**
   * After a commit that stands: the thread's row as read before it (`row`) is its row still, with its last
   * seq moved on, when none of `events` changes anything else of it (keepsThreadRow).
   */
  #keepThreadRow(threadId: string, row: Row | undefined, events: readonly StoredEvent[]): void {
    if (row === undefined || !events.every((event) => keepsThreadRow(event.type))) return;
    const last = events.at(-1);
    this.#threadRows.set(threadId, last === undefined ? row : { ...row, last_seq: last.threadSeq });
  }

  durable(): Promise<void> {
    return this.#barrier?.durable() ?? Promise.resolve();
  }

  /**
   * Caps the database file at `maxBytes` (in whole pages, never below what it holds now), or lifts the cap
   * with null. Past it a commit fails with STORE_FULL, exactly as on a full disk, and writes nothing: a
   * quota for an embedding application, and a disk that fills without privileges in tests.
   */
  limitSize(maxBytes: number | null): void {
    if (maxBytes !== null && !(Number.isSafeInteger(maxBytes) && maxBytes > 0))
      throw new TypeError('maxBytes must be a positive integer or null');
    const pageSize = Number(this.#db.pragma('page_size', { simple: true }));
    // SQLite's own ceiling stands for "no cap".
    const pages = maxBytes === null ? 4294967294 : Math.max(1, Math.floor(maxBytes / pageSize));
    this.#db.pragma(`max_page_count = ${pages}`);
  }

  getThread(id: string): ThreadRecord | undefined {
    let row = this.#threadRows.get(id);
    if (row === undefined) {
      row = this.#reads.row('SELECT * FROM threads WHERE id = ?', id);
      if (row === undefined) return undefined;
      if (this.#threadRows.size >= THREAD_ROWS_KEPT) this.#threadRows.clear();
      this.#threadRows.set(id, row);
    }
    return threadFromRow(row);
  }

  listThreads(): ThreadRecord[] {
    return this.#reads.listThreads();
  }

  getRun(id: string): RunRecord | undefined {
    return this.#reads.getRun(id);
  }

  listRuns(threadId: string): RunRecord[] {
    return this.#reads.listRuns(threadId);
  }

  getSubagent(id: string): SubagentRecord | undefined {
    return this.#reads.getSubagent(id);
  }

  listSubagents(threadId: string): SubagentRecord[] {
    return this.#reads.listSubagents(threadId);
  }

  getApproval(id: string): ApprovalRecord | undefined {
    return this.#reads.getApproval(id);
  }

  listApprovals(filter: ApprovalFilter = {}): ApprovalRecord[] {
    return this.#reads.listApprovals(filter);
  }

  readEvents(query: EventQuery = {}): StoredEvent[] {
    const recent = this.#recent(query);
    if (recent !== undefined) return recent.map(eventFromRow);
    return this.#readOlderEvents(query);
  }

  readEventTexts(query: EventQuery = {}): EventText[] {
    const recent = this.#recent(query);
    if (recent !== undefined) return recent.map(eventTextFromRow);
    return this.#readOlderEvents(query).map(eventTextOf);
  }

  /** The rows the query returns when the tail holds them all (every one written by this store). */
  #recent(query: EventQuery): Row[] | undefined {
    const after = query.after ?? 0;
    const limit = query.limit ?? DEFAULT_EVENT_PAGE;
    return this.#tail.read({ after, limit, threadId: query.threadId, types: query.types });
  }

  #readOlderEvents(query: EventQuery): StoredEvent[] {
    const after = query.after ?? 0;
    const limit = query.limit ?? DEFAULT_EVENT_PAGE;
    const where = ['seq > ?'];
    const values: unknown[] = [after];
    if (query.threadId !== undefined) {
      where.push('thread_id = ?');
      values.push(query.threadId);
    }
    if (query.types !== undefined) {
      where.push(`type IN (${query.types.map(() => '?').join(', ') || 'NULL'})`);
      values.push(...query.types);
    }
    const sql = `SELECT * FROM events WHERE ${where.join(' AND ')} ORDER BY seq LIMIT ?`;
    return this.#reads.rows(sql, ...values, limit).map(eventFromRow);
  }

  readAudit(query: AuditQuery = {}): AuditRow[] {
    return this.#audit.read(query);
  }

  lastSeq(): number {
    const row = this.#reads.row('SELECT coalesce(max(seq), 0) AS seq FROM events');
    return Number(row?.seq ?? 0);
  }

  /**
   * Drops the projections and folds the whole log again, in one transaction. For diagnostics and tests:
   * the result must equal what the commits produced.
   */
  rebuildProjections(): void {
    this.#threadRows.clear();
    this.#db.transaction(() => {
      this.#db.pragma('defer_foreign_keys = ON');
      this.#db.exec('DELETE FROM approvals; DELETE FROM subagents; DELETE FROM runs; DELETE FROM threads;');
      const setLastSeq = this.#db.prepare('UPDATE threads SET last_seq = ? WHERE id = ?');
      // Paged: a connection cannot write while it iterates a query.
      for (
        let page = this.readEvents();
        page.length > 0;
        page = this.readEvents({ after: page.at(-1)?.seq ?? 0 })
      ) {
        for (const event of page) {
          this.#projector.apply(event.threadId, event.at, {
            type: event.type,
            data: event.data,
          } as EventDraft);
          setLastSeq.run(event.threadSeq, event.threadId);
        }
      }
    })();
    this.#barrier?.noteCommit();
  }

  /** None: a SQLite file serves one host alone. */
  hosts(): undefined {
    return undefined;
  }

  close(): void {
    if (!this.#db.open) return;
    this.#barrier?.close();
    this.#db.close();
  }
}

/**
 * Whether an event of this type leaves its thread's row as it was but for the last seq: the projector
 * (projector.ts) writes the threads table only for `thread.*` and `session.*` events.
 */
function keepsThreadRow(type: StoredEvent['type']): boolean {
  return !type.startsWith('thread.') && !type.startsWith('session.');
}

function commitFailure(error: unknown, drafts: readonly EventDraft[], path: string): Error {
  return storeFailure(error, `Could not commit ${drafts.map((d) => d.type).join(', ')}`, path);
}

/**
 * An empty database file that was there before this open: SQLite would take it for a new database and
 * the host would start on an empty log, so it is refused. Warden writes the schema in the same call that
 * creates the file; an empty one was truncated (or a first open was cut short, with nothing in it).
 */
function refuseEmptyFile(path: string): void {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    return; // Missing (created next) or unreadable (the open says why).
  }
  if (size === 0)
    throw new StoreError(
      `Could not open the store at ${path}: the file is empty, so its log is lost (truncated?); it was ` +
        'left as it is: restore it from a backup, or move it away to start a new store',
      { code: 'STORE_CORRUPT' },
    );
}
