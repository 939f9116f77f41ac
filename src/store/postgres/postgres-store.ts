// The Store on PostgreSQL, shared by every host of a fleet. The event log is authoritative in Postgres:
// events with their global `seq` and per-thread `thread_seq`, a one-row log head that every commit locks
// and moves (so writers on all hosts take turns and `seq` stays contiguous), the audit trail. Each host
// folds the projections into its own in-memory replica with the same Projector as the embedded store, and
// catches up on what other hosts appended before every read and inside every commit. A commit is one
// Postgres transaction, synchronous like SqliteStore's (the connection lives in a worker thread; see
// sync-channel.ts): lock the head, fold what others appended, apply the drafts to the replica (where the
// projector's compare-and-set checks run against current state), append, commit. Any failure rolls back
// both, with the same error classes SqliteStore throws.
import { StoreError, WardenError } from '../../protocol/errors.js';
import type { AuditRow } from '../audit-chain.js';
import { readAuditPages, type AuditQuery } from '../audit-log.js';
import { checkCommitInput } from '../commit-input.js';
import type { EventDraft, StoredEvent } from '../event-types.js';
import type { ApprovalRecord, RunRecord, SubagentRecord, ThreadRecord } from '../records.js';
import type { ApprovalFilter, CommitOptions, EventQuery, Store } from '../store.js';
import {
  appendStatements,
  auditAfter,
  auditRowsOf,
  eventsAfter,
  eventsOf,
  headSeq,
  lastAudit,
  lockHead,
  offsetsFor,
  offsetsOf,
} from './log-queries.js';
import { Replica } from './replica.js';
import { HOST_LOCK_KEY, migratePostgres } from './schema.js';
import { SyncChannel } from './sync-channel.js';
import { describeServer } from './url.js';

export interface PostgresStoreOptions {
  /** How long connecting may take before the store reports the server unreachable (default 5000 ms). */
  connectTimeoutMs?: number;
  /** Postgres's statement_timeout and lock_timeout for every statement (default 10000 ms). */
  statementTimeoutMs?: number;
  /**
   * Hold the store for this host alone (default false): a second exclusive open fails with a StoreError,
   * as a second SQLite host does. The supervisor opens its store so until hosts of a fleet are told apart.
   */
  exclusive?: boolean;
}

const DEFAULT_EVENT_PAGE = 500;
const FOLD_PAGE = 5000;
/** Starting the worker (loading the driver; under tsx, compiling it) before the first answer. */
const STARTUP_MARGIN_MS = 15_000;

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(Number.isSafeInteger(value) && value > 0))
    throw new TypeError(`options.${name} must be a positive integer`);
  return value;
}

export class PostgresStore implements Store {
  readonly #channel: SyncChannel;
  readonly #replica = new Replica();
  /** host:port/database, for messages (never the password). */
  readonly where: string;

  /** Connects, brings the server's schema up to date and folds the log into a fresh replica. */
  static open(url: string, options: PostgresStoreOptions = {}): PostgresStore {
    if (typeof url !== 'string' || url === '') throw new TypeError('url must be a non-empty string');
    const where = describeServer(url);
    const connectTimeoutMs = positive(options.connectTimeoutMs, 5000, 'connectTimeoutMs');
    const statementTimeoutMs = positive(options.statementTimeoutMs, 10_000, 'statementTimeoutMs');
    const channel = new SyncChannel(
      {
        url,
        where,
        connectTimeoutMs,
        statementTimeoutMs,
        exclusiveLockKey: options.exclusive === true ? HOST_LOCK_KEY : null,
      },
      connectTimeoutMs + statementTimeoutMs + 2000,
    );
    let store: PostgresStore | undefined;
    try {
      // The first request also waits for the worker to start.
      channel.exec('none', [{ sql: 'SELECT 1' }], { timeoutMs: connectTimeoutMs + STARTUP_MARGIN_MS });
      migratePostgres(channel);
      store = new PostgresStore(channel, where);
      store.#foldAll();
      return store;
    } catch (error) {
      store?.close();
      channel.close();
      if (error instanceof WardenError) throw error;
      throw new StoreError(`Could not open the store at ${where}`, { cause: error });
    }
  }

  private constructor(channel: SyncChannel, where: string) {
    this.#channel = channel;
    this.where = where;
  }

  commit(threadId: string, drafts: readonly EventDraft[], options: CommitOptions = {}): StoredEvent[] {
    const spoolOffset = checkCommitInput(threadId, drafts, options);
    if (drafts.length === 0 && spoolOffset === undefined) return [];
    try {
      const after = this.#replica.seq;
      // The head locked; what other hosts appended since this replica's last event comes with it.
      const [, events, audit, offsets] = this.#channel.exec(
        'begin',
        [lockHead, eventsAfter(after, null), lastAudit, offsetsFor(after, null)],
        { unlessFirstSeq: after },
      );
      let committed = false;
      try {
        this.#replica.fold(eventsOf(events), auditRowsOf(audit), offsetsOf(offsets));
        return this.#replica.commit(threadId, drafts, spoolOffset, (prepared) => {
          this.#channel.exec('commit', appendStatements(prepared));
          committed = true;
        });
      } finally {
        // Releases the head when the drafts did not fit (or the commit failed and the worker rolled back).
        if (!committed) this.#channel.rollback();
      }
    } catch (error) {
      if (error instanceof WardenError) throw error;
      throw new StoreError(`Could not commit ${drafts.map((d) => d.type).join(', ')}`, { cause: error });
    }
  }

  /** A commit returned once Postgres's COMMIT did: it is already durable. */
  durable(): Promise<void> {
    return Promise.resolve();
  }

  getThread(id: string): ThreadRecord | undefined {
    this.#refresh();
    return this.#replica.reads.getThread(id);
  }

  listThreads(): ThreadRecord[] {
    this.#refresh();
    return this.#replica.reads.listThreads();
  }

  getRun(id: string): RunRecord | undefined {
    this.#refresh();
    return this.#replica.reads.getRun(id);
  }

  listRuns(threadId: string): RunRecord[] {
    this.#refresh();
    return this.#replica.reads.listRuns(threadId);
  }

  getSubagent(id: string): SubagentRecord | undefined {
    this.#refresh();
    return this.#replica.reads.getSubagent(id);
  }

  listSubagents(threadId: string): SubagentRecord[] {
    this.#refresh();
    return this.#replica.reads.listSubagents(threadId);
  }

  getApproval(id: string): ApprovalRecord | undefined {
    this.#refresh();
    return this.#replica.reads.getApproval(id);
  }

  listApprovals(filter: ApprovalFilter = {}): ApprovalRecord[] {
    this.#refresh();
    return this.#replica.reads.listApprovals(filter);
  }

  /** Straight from the log in Postgres: every host's events, committed ones only. */
  readEvents(query: EventQuery = {}): StoredEvent[] {
    const [rows] = this.#channel.exec('none', [
      eventsAfter(query.after ?? 0, query.limit ?? DEFAULT_EVENT_PAGE, query.threadId),
    ]);
    return eventsOf(rows);
  }

  readAudit(query: AuditQuery = {}): AuditRow[] {
    return readAuditPages(
      (after, limit) => auditRowsOf(this.#channel.exec('none', [auditAfter(after, limit)])[0]),
      query,
    );
  }

  lastSeq(): number {
    return this.#refresh();
  }

  /**
   * Drops the replica's projections and folds the whole log again. For diagnostics and tests: the result
   * must equal what the commits produced.
   */
  rebuildProjections(): void {
    this.#replica.reset();
    this.#foldAll();
  }

  close(): void {
    this.#channel.close();
    this.#replica.close();
  }

  /** Folds what other hosts appended since the replica's last event; returns the head's seq. */
  #refresh(): number {
    const [rows] = this.#channel.exec('none', [headSeq]);
    const head = Number(rows?.[0]?.seq ?? 0);
    if (head > this.#replica.seq) this.#foldAll();
    return head;
  }

  #foldAll(): void {
    for (;;) {
      const after = this.#replica.seq;
      const [events, offsets, audit] = this.#channel.exec('none', [
        eventsAfter(after, FOLD_PAGE),
        offsetsFor(after, FOLD_PAGE),
        lastAudit,
      ]);
      const page = eventsOf(events);
      this.#replica.fold(page, auditRowsOf(audit), offsetsOf(offsets));
      if (page.length < FOLD_PAGE) break;
    }
    this.#replica.startAudit();
  }
}
