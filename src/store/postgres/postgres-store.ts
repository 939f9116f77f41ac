// The Store on PostgreSQL, shared by every host of a fleet. The event log is authoritative in Postgres:
// events with their global `seq` and per-thread `thread_seq`, a one-row log head that every commit locks
// and moves (so writers on all hosts take turns and `seq` stays contiguous), the audit trail. Each host
// folds the projections into its own in-memory replica with the same Projector as the embedded store, and
// catches up on what other hosts appended before every read and inside every commit. A commit is one
// Postgres transaction, synchronous like SqliteStore's (the connection lives in a worker thread; see
// sync-channel.ts): lock the head, fold what others appended, apply the drafts to the replica (where the
// projector's compare-and-set checks run against current state), append, commit. Any failure rolls back
// both, with the same error classes SqliteStore throws. The commits that follow the first one of a turn
// of the event loop share one transaction: the head stays locked while they are applied to the replica,
// and they are written together at the end of the turn (#openBatch).
import { StoreError, WardenError } from '../../protocol/errors.js';
import type { AuditRow } from '../audit-chain.js';
import { readAuditPages, type AuditQuery } from '../audit-log.js';
import { checkCommitInput } from '../commit-input.js';
import type { EventDraft, EventText, StoredEvent } from '../event-types.js';
import type { ApprovalRecord, RunRecord, SubagentRecord, ThreadRecord } from '../records.js';
import type { ApprovalFilter, CommitOptions, EventQuery, Store, ThreadCommit } from '../store.js';
import { EventTail } from '../event-tail.js';
import { eventTextFromRow, eventTextOf, type Row } from '../rows.js';
import { Durability } from './durability.js';
import { HeadFreshness } from './head-freshness.js';
import {
  appendBatch,
  appendStatements,
  barrierStatement,
  witnessedBarrier,
  auditAfter,
  auditBefore,
  auditRowsOf,
  eventsAfter,
  eventsOf,
  headSeq,
  lastAudit,
  lockHead,
  lockHeadAsync,
  offsetsFor,
  offsetsOf,
  isWrittenAs,
  rowOf,
  writtenAt,
} from './log-queries.js';
import { PostgresHostRegistry } from './postgres-host-registry.js';
import { Replica, type PreparedCommit } from './replica.js';
import type { LogNotice, Statement } from './protocol.js';
import { connect, openFailure, type Connection, type PostgresStoreOptions } from './connect.js';
import { SyncChannel } from './sync-channel.js';
import type { RunStatements } from './transcript-store.js';

export type { PostgresStoreOptions } from './connect.js';

const DEFAULT_EVENT_PAGE = 500;
/** The most commits written at once (#openBatch): the head is held no longer than they take. */
const BATCH_COMMITS = 32;
const FOLD_PAGE = 5000;

/** The store of this process whose batch is open, if any (see PostgresStore's #openBatch). */
const openBatch: { holder: PostgresStore | undefined } = { holder: undefined };

export class PostgresStore implements Store {
  readonly #channel: SyncChannel;
  readonly #replica = new Replica();
  /** host:port/database, for messages (never the password). */
  readonly where: string;

  /** Connects, brings the server's schema up to date and folds the log into a fresh replica. */
  static open(url: string, options: PostgresStoreOptions = {}): PostgresStore {
    let onNotice: (notice: LogNotice) => void = () => undefined;
    const { channel, where, host } = connect(url, options, (notice) => onNotice(notice));
    let store: PostgresStore | undefined;
    try {
      store = new PostgresStore(channel, where, host);
      store.#foldAll();
      const opened = store;
      onNotice = (notice) => {
        // A commit the replica has already taken in (this host's own, most often): nothing to ask for.
        if (notice.seq !== null && notice.seq <= opened.#replica.seq) return;
        opened.#registry.catchUp();
      };
      return store;
    } catch (error) {
      store?.close();
      channel.close();
      throw openFailure(error, where);
    }
  }

  readonly #hostName: string | null;
  readonly #registry: PostgresHostRegistry;
  /** The events at the log's edge, as this replica took them in (event-tail.ts). */
  readonly #tail = new EventTail();
  /** Whether this turn's reads must ask where the log head is (head-freshness.ts). */
  readonly #head = new HeadFreshness();
  readonly #durability: Durability;

  private constructor(channel: SyncChannel, where: string, host: Connection['host']) {
    this.#channel = channel;
    this.where = where;
    this.#hostName = host?.name ?? null;
    this.#durability = new Durability(
      () => this.#flush(),
      () => this.#barrier(),
      where,
    );
    this.#registry = new PostgresHostRegistry(
      {
        exec: (statements) => this.#exec(statements),
        refresh: () => {
          this.#refresh(true);
        },
        commitChecked: (threadId, drafts, check) => this.#commit(threadId, drafts, {}, check),
        durableWithForeign: () => {
          this.#durability.count();
          return this.durable();
        },
      },
      host,
    );
  }

  /** Who is in the fleet on this database, who owns which thread, the CLIs' transcripts. */
  hosts(): PostgresHostRegistry {
    return this.#registry;
  }

  commit(threadId: string, drafts: readonly EventDraft[], options: CommitOptions = {}): StoredEvent[] {
    return this.#commit(threadId, drafts, options);
  }

  /**
   * The commits of one turn of the event loop (turn-commits.ts), each standing or failing alone as
   * commit() has it. When this replica has every event they go in one round trip, as a single commit does
   * (#commitAtHead): applied to the replica together, each in a savepoint, and written in one statement
   * that writes only if the head is still there. Else, or when another host moved the head meanwhile
   * (nothing was written, the replica is as it was), one by one, batched in the tick.
   */
  commitMany(commits: readonly ThreadCommit[]): (StoredEvent[] | Error)[] {
    const together = commits.length > 1 ? this.#commitManyAtHead(commits) : undefined;
    return (
      together ??
      commits.map(({ threadId, drafts }) => {
        try {
          return this.#commit(threadId, drafts, {});
        } catch (error) {
          return error instanceof Error ? error : new StoreError(String(error));
        }
      })
    );
  }

  #commitManyAtHead(commits: readonly ThreadCommit[]): (StoredEvent[] | Error)[] | undefined {
    if (this.#batch !== undefined || this.#durability.failure !== undefined) return undefined;
    // What commit() refuses before anything is applied (bad input, nothing to write) it refuses one by one.
    try {
      for (const { threadId, drafts } of commits) checkCommitInput(threadId, drafts, {});
    } catch {
      return undefined;
    }
    if (commits.some(({ drafts }) => drafts.length === 0)) return undefined;
    this.#yieldBatch();
    const head = this.#replica.seq;
    const moved = new Error('The log head moved');
    let results: (StoredEvent[] | Error)[];
    try {
      results = this.#replica.commitAll(commits, (prepared) => {
        // None fits this replica: it may lack another host's events, and only a write that finds the head
        // where the replica is proves it has them all. Each is tried again alone.
        const first = prepared[0];
        if (first === undefined) throw moved;
        let rows: Record<string, unknown>[] | undefined;
        try {
          [rows] = this.#channel.exec('write', [appendBatch(prepared, this.#hostName, head)]);
        } catch (error) {
          // As for one commit (#commitAtHead): the log says whether the statement committed.
          if (this.#wrote(first)) return;
          if (error instanceof StoreError) throw moved;
          throw error;
        }
        if (rows?.length !== 1) throw moved;
      });
    } catch (error) {
      if (error === moved) return undefined;
      const failed =
        error instanceof WardenError
          ? error
          : new StoreError(`Could not commit ${commits.length} changes`, { cause: error });
      return commits.map(() => failed);
    }
    for (const result of results) if (!(result instanceof Error)) this.#committed(result);
    return results;
  }

  #commit(
    threadId: string,
    drafts: readonly EventDraft[],
    options: CommitOptions,
    /** Runs under the head lock with the replica up to date (a compare-and-set beyond the projector's). */
    check?: (inTransaction: RunStatements) => void,
  ): StoredEvent[] {
    const spoolOffset = checkCommitInput(threadId, drafts, options);
    if (drafts.length === 0 && spoolOffset === undefined) return [];
    const failure = this.#durability.failure;
    if (failure !== undefined) throw failure;
    try {
      if (check !== undefined) return this.#commitChecked(threadId, drafts, spoolOffset, check);
      // Committed without waiting for the WAL flush: durable() makes it durable (the supervisor awaits it).
      // The first commit of a tick goes in one round trip on its own; the next ones of the same tick are
      // batched (#openBatch): one round trip to take the head, none each, one to write them all.
      if (this.#batch === undefined && !this.#committedThisTick) {
        const atHead = this.#commitAtHead(threadId, drafts, spoolOffset);
        if (atHead !== undefined) return this.#committed(atHead);
      }
      const batch = this.#openBatch();
      const stored = this.#replica.commit(threadId, drafts, spoolOffset, (prepared) => {
        batch.commits.push(prepared);
      });
      // A long run of commits in one tick lets other hosts take their turn every BATCH_COMMITS.
      if (batch.commits.length >= BATCH_COMMITS) this.#flush();
      return this.#committed(stored);
    } catch (error) {
      if (error instanceof WardenError) throw error;
      throw new StoreError(`Could not commit ${drafts.map((d) => d.type).join(', ')}`, { cause: error });
    }
  }

  /**
   * A commit with a check of its own (an adoption), alone in its transaction and durable at COMMIT (no
   * barrier is awaited after it): lock the head, fold what other hosts appended, check, append, commit.
   */
  #commitChecked(
    threadId: string,
    drafts: readonly EventDraft[],
    spoolOffset: number | undefined,
    check: (inTransaction: RunStatements) => void,
  ): StoredEvent[] {
    this.#flush();
    this.#lockHeadAndFold(lockHead);
    let committed = false;
    try {
      check((statements) => this.#channel.exec('continue', statements));
      const stored = this.#replica.commit(threadId, drafts, spoolOffset, (prepared) => {
        this.#channel.exec('commit', appendStatements(prepared, this.#hostName));
        committed = true;
      });
      return this.#committed(stored);
    } finally {
      // Releases the head when the drafts did not fit (or the commit failed and the worker rolled back).
      if (!committed) this.#channel.rollback();
    }
  }

  /** Bookkeeping after a commit: owners of the threads it created, the barriers' count. */
  #committed(stored: StoredEvent[]): StoredEvent[] {
    this.#durability.count();
    HeadFreshness.committed();
    // The replica is the log as this commit found it (it wrote at the head, or under its lock): as fresh
    // as an answer to asking where the head is.
    this.#head.checked();
    this.#tail.add(stored.map(rowOf));
    if (!this.#committedThisTick) {
      this.#committedThisTick = true;
      setImmediate(() => (this.#committedThisTick = false));
    }
    this.#registry.noteCommitted(stored);
    return stored;
  }

  /** Whether this store committed in the current tick of the event loop (the next commit batches). */
  #committedThisTick = false;

  /**
   * The commits of this tick that are not written yet, and the head they follow. While it is open, this
   * store's connection holds the log head's lock (in a transaction that commits asynchronously), so no
   * other writer moves the head and this replica is the log as it is: each commit's compare-and-set runs
   * against it as under the lock of a commit of its own, and reads need not ask the server.
   */
  #batch: { readonly head: number; readonly commits: PreparedCommit[] } | undefined;

  /**
   * Opens the batch, if none is open: one round trip locks the head and brings what other hosts
   * appended meanwhile (folded into the replica before any draft is applied). Written by #flush(): on
   * the next turn of the event loop, in durable(), or before any other request of this store (and of
   * any other store of this process: one batch at a time, so that no store of this thread waits for a
   * lock that only this thread could release).
   */
  #openBatch(): { readonly head: number; readonly commits: PreparedCommit[] } {
    if (this.#batch !== undefined) return this.#batch;
    this.#yieldBatch();
    this.#lockHeadAndFold(lockHeadAsync);
    const batch = { head: this.#replica.seq, commits: [] };
    this.#batch = batch;
    openBatch.holder = this;
    setImmediate(() => {
      try {
        this.#flush();
      } catch {
        // Recorded as the store's failure (durability.ts): durable() and the next commit report it.
      }
    });
    return batch;
  }

  /**
   * Begins a transaction that takes the log head with `lock`; what other hosts appended since this
   * replica's last event comes with it and is folded in. Rolled back if that fails.
   */
  #lockHeadAndFold(lock: Statement): void {
    const after = this.#replica.seq;
    const [head, events, audit, offsets] = this.#channel.exec(
      'begin',
      [lock, eventsAfter(after, null), lastAudit, offsetsFor(after, null)],
      { unlessFirstSeq: after },
    );
    try {
      this.#checkNotBehind(Number(head?.[0]?.seq ?? 0));
      this.#registry.noteRows(events, this.#replica.seq);
      this.#replica.fold(eventsOf(events), auditRowsOf(audit), offsetsOf(offsets));
      this.#tail.add(events ?? []);
    } catch (error) {
      this.#channel.rollback();
      throw error;
    }
  }

  /** Writes another store's open batch (see #openBatch) before this one sends anything. */
  #yieldBatch(): void {
    const holder = openBatch.holder;
    if (holder === undefined || holder === this) return;
    try {
      holder.#flush();
    } catch {
      // That store has failed; it reports so itself.
    }
  }

  /**
   * Writes the open batch in one statement and commits it, releasing the head. A batch that could not
   * be written for sure fails the store (a StoreError here, from durable() and from every commit): its
   * commits were answered and are in the replica. Whether a failed write committed is looked up in the
   * log first, as for a single commit, and a batch that is not there is written again (head-checked,
   * on a fresh connection) if no other host moved the head since it was locked.
   */
  #flush(): void {
    this.#yieldBatch();
    const batch = this.#batch;
    if (batch === undefined) return;
    this.#batch = undefined;
    if (openBatch.holder === this) openBatch.holder = undefined;
    if (batch.commits.length === 0) {
      this.#channel.rollback();
      return;
    }
    const statement = appendBatch(batch.commits, this.#hostName, batch.head);
    let written = false;
    let cause: unknown;
    try {
      try {
        written = this.#channel.exec('commit', [statement])[0]?.length === 1;
      } catch {
        // The connection broke, the transaction was lost or the statement failed: look, then retry once.
        const first = batch.commits.find((commit) => commit.events.length > 0);
        written =
          (first !== undefined && this.#wrote(first)) ||
          this.#channel.exec('write', [statement])[0]?.length === 1;
      }
    } catch (error) {
      cause = error;
    }
    if (written) return;
    throw this.#durability.fail(
      new StoreError(
        `Could not write ${batch.commits.length} commits to PostgreSQL at ${this.where}; restart the host`,
        { cause },
      ),
    );
  }

  /**
   * The common case in one request and one round trip (one statement, its own transaction): when this
   * replica has every event (the head is where its last fold left it), the drafts are applied to it and
   * written without locking the head first; appendBatch writes only if the head is still there.
   * Undefined: take the batch's path — the head moved (nothing was written), or the drafts did not fit
   * this replica (it may be behind; the batch decides against the log as it is). A statement that
   * failed with its connection is looked up in the log: there, it counts as committed; not there, it is
   * run again in a batch; the log unreadable, the failure is thrown. Never written twice.
   */
  #commitAtHead(
    threadId: string,
    drafts: readonly EventDraft[],
    spoolOffset: number | undefined,
  ): StoredEvent[] | undefined {
    if (drafts.length === 0) return undefined;
    this.#yieldBatch();
    const head = this.#replica.seq;
    const moved = new Error('The log head moved');
    let sent = false;
    try {
      return this.#replica.commit(threadId, drafts, spoolOffset, (prepared) => {
        sent = true;
        let rows: Record<string, unknown>[] | undefined;
        try {
          [rows] = this.#channel.exec('write', [appendBatch([prepared], this.#hostName, head)]);
        } catch (error) {
          // The connection broke (a server restarted, a connection cut since the last call): the
          // statement may or may not have committed, and the log says which. Not written: the batch's
          // path runs it again on a fresh connection.
          if (this.#wrote(prepared)) return;
          if (error instanceof StoreError) throw moved;
          throw error;
        }
        if (rows?.length !== 1) throw moved;
      });
    } catch (error) {
      if (!sent || error === moved) return undefined;
      throw error;
    }
  }

  /**
   * Whether the log holds `prepared`'s first event as this host wrote it (same thread, thread_seq, time
   * and host). Throws the read's StoreError when the server cannot say.
   */
  #wrote(prepared: PreparedCommit): boolean {
    const first = prepared.events[0];
    if (first === undefined) return false;
    return isWrittenAs(this.#channel.exec('none', [writtenAt(first.seq)])[0]?.[0], first, this.#hostName);
  }

  /**
   * A server whose log head is behind this replica lost commits it had acknowledged without flushing
   * them (it crashed before a barrier covered them): this host's replica no longer matches the log, and
   * the store takes no more changes.
   */
  #checkNotBehind(head: number): void {
    if (head >= this.#replica.seq) return;
    throw this.#durability.fail(
      new StoreError(
        `PostgreSQL at ${this.where} lost changes this host committed (its log ends at ${head}, this host had ${this.#replica.seq}); restart the host`,
      ),
    );
  }

  /** The durability barrier (durability.ts): flushes the WAL past every commit made before the call. */
  durable(): Promise<void> {
    return this.#durability.durable();
  }

  /**
   * One barrier (durability.ts), looking for this replica's last event in the log as it goes: the
   * barrier connection may have found a restarted server, and a server that came back from a crash
   * without that event lost what it had acknowledged unflushed.
   */
  async #barrier(): Promise<void> {
    const last = this.#replica.last;
    if (last === undefined) {
      await this.#channel.barrier(barrierStatement);
      return;
    }
    const [rows] = await this.#channel.barrier(witnessedBarrier(last));
    if (rows?.[0]?.witnessed === true) return;
    throw this.#durability.fail(
      new StoreError(
        `PostgreSQL at ${this.where} lost changes this host committed (event ${last.seq} is not in its log); restart the host`,
      ),
    );
  }

  getThread(id: string): ThreadRecord | undefined {
    return this.#reads().getThread(id);
  }

  listThreads(): ThreadRecord[] {
    return this.#reads().listThreads();
  }

  getRun(id: string): RunRecord | undefined {
    return this.#reads().getRun(id);
  }

  listRuns(threadId: string): RunRecord[] {
    return this.#reads().listRuns(threadId);
  }

  getSubagent(id: string): SubagentRecord | undefined {
    return this.#reads().getSubagent(id);
  }

  listSubagents(threadId: string): SubagentRecord[] {
    return this.#reads().listSubagents(threadId);
  }

  getApproval(id: string): ApprovalRecord | undefined {
    return this.#reads().getApproval(id);
  }

  listApprovals(filter: ApprovalFilter = {}): ApprovalRecord[] {
    return this.#reads().listApprovals(filter);
  }

  /** Every host's events, committed ones only: those at the log's edge from the tail, older ones from Postgres. */
  readEvents(query: EventQuery = {}): StoredEvent[] {
    return eventsOf(this.#eventRows(query).rows);
  }

  readEventTexts(query: EventQuery = {}): EventText[] {
    const { rows, tail } = this.#eventRows(query);
    return tail ? rows.map(eventTextFromRow) : eventsOf(rows).map(eventTextOf);
  }

  /** The query's rows, from the tail when it holds them all (written here, or parsed when folded in). */
  #eventRows(query: EventQuery): { rows: Row[]; tail: boolean } {
    const { after = 0, limit = DEFAULT_EVENT_PAGE, threadId, types } = query;
    // Committed ones only: this store's open batch is written first, as before any request.
    this.#flush();
    // The readers at the log's edge read what this replica has just taken in: no round trip for them.
    this.#refresh();
    const whole = this.#tail.through === this.#replica.seq;
    const recent = whole ? this.#tail.read({ after, limit, threadId, types }) : undefined;
    if (recent !== undefined) return { rows: recent, tail: true };
    return { rows: this.#exec([eventsAfter(after, limit, threadId, types)])[0] ?? [], tail: false };
  }

  readAudit(query: AuditQuery = {}): AuditRow[] {
    return readAuditPages(
      {
        after: (after, limit) => auditRowsOf(this.#exec([auditAfter(after, limit)])[0]),
        before: (before, limit) => auditRowsOf(this.#exec([auditBefore(before, limit)])[0]),
      },
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
    this.#flush();
    this.#replica.reset();
    this.#foldAll();
  }

  close(): void {
    try {
      this.#flush();
    } catch {
      // Nothing of the batch was made durable, so nothing of it was told to anyone.
    }
    this.#registry.close();
    this.#channel.close();
    this.#replica.close();
  }

  /** Statements on their own (autocommit), after the open batch of any store of this process is written. */
  #exec(statements: Statement[]): Record<string, unknown>[][] {
    this.#flush();
    return this.#channel.exec('none', statements);
  }

  /** The replica's projections, with what other hosts appended since its last event folded in. */
  #reads(): Replica['reads'] {
    this.#refresh();
    return this.#replica.reads;
  }

  /** Folds what other hosts appended since the replica's last event; returns the head's seq. */
  #refresh(force = false): number {
    // While a batch is open this store holds the head: the replica is the log, its own batch included.
    if (this.#batch !== undefined) return this.#replica.seq;
    if (!force && this.#head.fresh) return this.#replica.seq;
    const [rows] = this.#exec([headSeq]);
    const head = Number(rows?.[0]?.seq ?? 0);
    this.#checkNotBehind(head);
    if (head > this.#replica.seq) this.#foldAll();
    this.#head.checked();
    return head;
  }

  #foldAll(): void {
    for (;;) {
      const after = this.#replica.seq;
      const [events, offsets, audit] = this.#exec([
        eventsAfter(after, FOLD_PAGE),
        offsetsFor(after, FOLD_PAGE),
        lastAudit,
      ]);
      const page = eventsOf(events);
      this.#registry.noteRows(events, this.#replica.seq);
      this.#replica.fold(page, auditRowsOf(audit), offsetsOf(offsets));
      this.#tail.add(events ?? []);
      if (page.length < FOLD_PAGE) break;
    }
    this.#replica.startAudit();
  }
}
