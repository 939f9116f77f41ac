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
import { ConflictError, StoreError, WardenError } from '../../protocol/errors.js';
import type { SessionStore } from '../../session/session-store.js';
import type { AuditRow } from '../audit-chain.js';
import { readAuditPages, type AuditQuery } from '../audit-log.js';
import { checkCommitInput } from '../commit-input.js';
import type { EventDraft, StoredEvent } from '../event-types.js';
import type { ApprovalRecord, RunRecord, SubagentRecord, ThreadRecord } from '../records.js';
import type { ApprovalFilter, CommitOptions, EventQuery, Store } from '../store.js';
import {
  appendBatch,
  appendStatements,
  barrierStatement,
  auditAfter,
  auditRowsOf,
  eventsAfter,
  eventsOf,
  headSeq,
  hostsOf,
  lastAudit,
  lockHead,
  lockHeadAsync,
  offsetsFor,
  offsetsOf,
} from './log-queries.js';
import { pendingCommandsStatement } from './command-queries.js';
import { Replica, type PreparedCommit } from './replica.js';
import {
  heartbeat,
  hostsOfRows,
  listHostsStatement,
  registerHost,
  releaseHost,
  reservePlacement,
  type HostRecord,
} from './hosts.js';
import { HOST_LOCK_KEY, migratePostgres, namedHostLockKey } from './schema.js';
import type { Statement } from './protocol.js';
import { SyncChannel } from './sync-channel.js';
import { PostgresTranscriptStore } from './transcript-store.js';
import { describeServer, HOST_NAME_RULE, isHostName } from './url.js';

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
  /**
   * This host's place in a fleet: registered under its name (locked: no two live hosts share one), a
   * lease kept by heartbeat, its commits marked with the name, and the commits of other hosts followed
   * (LISTEN plus a sweep; see follow()). Not with `exclusive`.
   */
  host?: FleetHostOptions;
}

export interface FleetHostOptions {
  readonly name: string;
  /** The most CLIs it runs at once (default: no limit). */
  readonly capacity?: number | null;
  /** The directories its threads' cwd may lie under (default: anywhere). */
  readonly roots?: readonly string[];
  /** How long a heartbeat keeps the lease (default 15000 ms). */
  readonly leaseMs?: number;
  /** How often the host beats (default 5000 ms). */
  readonly heartbeatMs?: number;
  /** How often the log head is polled, for what a lost notification did not say (default 1000 ms). */
  readonly sweepMs?: number;
}

/** Events other hosts committed, handed over in log order, each once. */
export type ForeignEventsListener = (events: readonly StoredEvent[]) => void;

const DEFAULT_EVENT_PAGE = 500;
/** The most commits written at once (#openBatch): the head is held no longer than they take. */
const BATCH_COMMITS = 32;
const FOLD_PAGE = 5000;
/** Starting the worker (loading the driver; under tsx, compiling it) before the first answer. */
const STARTUP_MARGIN_MS = 15_000;

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(Number.isSafeInteger(value) && value > 0))
    throw new TypeError(`options.${name} must be a positive integer`);
  return value;
}

function checkHost(host: FleetHostOptions | undefined): Required<FleetHostOptions> | undefined {
  if (host === undefined) return undefined;
  if (typeof host !== 'object' || host === null) throw new TypeError('options.host must be an object');
  if (!isHostName(host.name)) throw new TypeError(`options.host.name must be ${HOST_NAME_RULE}`);
  const capacity = host.capacity ?? null;
  if (capacity !== null && !(Number.isSafeInteger(capacity) && capacity >= 0))
    throw new TypeError('options.host.capacity must be a non-negative integer');
  const roots = host.roots ?? [];
  if (!Array.isArray(roots) || roots.some((root) => typeof root !== 'string' || !root.startsWith('/')))
    throw new TypeError('options.host.roots must be absolute paths');
  const leaseMs = positive(host.leaseMs, 15_000, 'host.leaseMs');
  const heartbeatMs = positive(host.heartbeatMs, 5000, 'host.heartbeatMs');
  if (heartbeatMs >= leaseMs)
    throw new TypeError('options.host.heartbeatMs must be shorter than its leaseMs');
  const sweepMs = positive(host.sweepMs, 1000, 'host.sweepMs');
  return { name: host.name, capacity, roots, leaseMs, heartbeatMs, sweepMs };
}

/** The store of this process whose batch is open, if any (see PostgresStore's #openBatch). */
const openBatch: { holder: PostgresStore | undefined } = { holder: undefined };

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
    const host = checkHost(options.host);
    if (host !== undefined && options.exclusive === true)
      throw new TypeError('options.host and options.exclusive exclude each other');
    let onNotice: () => void = () => undefined;
    const channel = new SyncChannel(
      {
        url,
        where,
        connectTimeoutMs,
        statementTimeoutMs,
        exclusiveLockKey:
          host !== undefined
            ? namedHostLockKey(host.name)
            : options.exclusive === true
              ? HOST_LOCK_KEY
              : null,
        sharedLockKey: host === undefined ? null : HOST_LOCK_KEY,
      },
      connectTimeoutMs + statementTimeoutMs + 2000,
      host === undefined ? undefined : { name: `warden-listen:${host.name}`, onNotice: () => onNotice() },
    );
    let store: PostgresStore | undefined;
    try {
      // The first request also waits for the worker to start.
      channel.exec('none', [{ sql: 'SELECT 1' }], { timeoutMs: connectTimeoutMs + STARTUP_MARGIN_MS });
      migratePostgres(channel);
      if (host !== undefined) channel.exec('none', [registerHost(host)]);
      store = new PostgresStore(channel, where, host);
      store.#foldAll();
      const opened = store;
      onNotice = () => opened.#catchUp();
      return store;
    } catch (error) {
      store?.close();
      channel.close();
      if (error instanceof WardenError) throw error;
      throw new StoreError(`Could not open the store at ${where}`, { cause: error });
    }
  }

  readonly #host: Required<FleetHostOptions> | undefined;
  /** The host that created each thread (null: one without a name); the owner runs its CLI. */
  readonly #owners = new Map<string, string | null>();
  #foreign: StoredEvent[] = [];
  /** The last seq #noteRows() has seen. */
  #noted = 0;
  #onForeign: ForeignEventsListener | undefined;
  #liveClis: () => number = () => 0;
  #timers: NodeJS.Timeout[] = [];

  private constructor(channel: SyncChannel, where: string, host: Required<FleetHostOptions> | undefined) {
    this.#channel = channel;
    this.where = where;
    this.#host = host;
    if (host !== undefined) this.#timers.push(setInterval(() => this.#beat(), host.heartbeatMs).unref());
  }

  /** This host's name in the fleet (null: a host without one). */
  get hostName(): string | null {
    return this.#host?.name ?? null;
  }

  /** The host that created the thread: null when that host had no name, undefined for an unknown thread. */
  ownerOf(threadId: string): string | null | undefined {
    return this.#owners.get(threadId);
  }

  /**
   * Hands `listener` every event other hosts commit from now on, in log order, each once: on each
   * notification of a commit, and on a sweep of the log head every `sweepMs` (a notification is lost
   * while the listening connection is down). `liveClis` is reported with each heartbeat.
   */
  follow(listener: ForeignEventsListener, liveClis: () => number = () => 0): void {
    if (this.#host === undefined)
      throw new TypeError('Only a store opened with options.host follows a fleet');
    this.#onForeign = listener;
    this.#liveClis = liveClis;
    this.#timers.push(setInterval(() => this.#catchUp(), this.#host.sweepMs).unref());
    this.#catchUp();
  }

  /**
   * The commands other hosts asked `host` to run that it has not taken up: no `thread.command_done` and,
   * for a send, no run of that id. In log order.
   */
  pendingCommands(host: string): StoredEvent[] {
    return eventsOf(this.#exec([pendingCommandsStatement(host)])[0]);
  }

  /** The fleet's hosts and their leases, by the server's clock. */
  listHosts(): HostRecord[] {
    return hostsOfRows(this.#exec([listHostsStatement])[0]);
  }

  /** Takes a slot of the host's capacity for a thread placed on it (hosts.ts); false when none is left. */
  reservePlacement(host: string, liveNow: number | null): boolean {
    return (this.#exec([reservePlacement(host, liveNow)])[0]?.length ?? 0) > 0;
  }

  /** Folds what other hosts committed and hands it to the follower; a store that cannot answer waits. */
  #catchUp(): void {
    if (this.#onForeign === undefined) return;
    try {
      this.#refresh();
    } catch {
      // The next notification or sweep tries again.
    }
  }

  #beat(): void {
    if (this.#host === undefined) return;
    try {
      this.#exec([heartbeat(this.#host.name, this.#liveClis())]);
    } catch {
      // Unreachable for now; the next beat tries again (the lease lasts several beats).
    }
  }

  /** Before rows of the log are folded: who owns which thread, and what other hosts committed. */
  #noteRows(rows: readonly Record<string, unknown>[] | undefined): void {
    const events = eventsOf(rows);
    const hosts = hostsOf(rows);
    const me = this.#host?.name ?? null;
    events.forEach((event, index) => {
      if (event.seq <= this.#replica.seq) return;
      const host = hosts[index] ?? null;
      if (event.type === 'thread.created') this.#owners.set(event.threadId, event.data.host ?? host);
      if (event.type === 'thread.adopted') this.#owners.set(event.threadId, event.data.to);
      // Each event is handed over once, also when rebuildProjections() folds the log again.
      if (event.seq <= this.#noted) return;
      this.#noted = event.seq;
      if (host !== me && this.#onForeign !== undefined) this.#foreign.push(event);
    });
    if (this.#foreign.length > 0) queueMicrotask(() => this.#handForeign());
  }

  #handForeign(): void {
    const events = this.#foreign;
    if (events.length === 0) return;
    this.#foreign = [];
    // Another host commits without waiting for the WAL flush, and tells its own clients only after its
    // barrier; a barrier of this host flushes the WAL past those commits too (durable()), so nothing
    // reaches a CLI here before it is on disk either.
    this.#commits += 1;
    this.durable().then(
      () => this.#onForeign?.(events),
      () => undefined,
    );
  }

  commit(threadId: string, drafts: readonly EventDraft[], options: CommitOptions = {}): StoredEvent[] {
    return this.#commit(threadId, drafts, options);
  }

  /**
   * Takes the thread over for this host from its owner, whose lease has expired: commits `closeout` and
   * a `thread.adopted` in one transaction, compare-and-set. Under the log-head lock the owner is read
   * from the log as it is now, and the old owner's host row is locked (FOR UPDATE) and its lease checked:
   * two hosts cannot both adopt (the second sees the new owner), and the old owner coming back (its
   * registration and heartbeat update that row) waits for this commit and then folds it in before it
   * recovers anything. A live owner, or one that is no longer `expected`, is a ConflictError.
   */
  adopt(threadId: string, expected: string | null, closeout: readonly EventDraft[]): StoredEvent[] {
    const me = this.#host?.name;
    if (me === undefined) throw new TypeError('Only a host of a fleet adopts threads');
    return this.#commit(
      threadId,
      [...closeout, { type: 'thread.adopted', data: { from: expected, to: me } }],
      {},
      () => {
        const owner = this.#owners.get(threadId);
        if (owner !== expected)
          throw new ConflictError(`Thread ${threadId} is run by host ${owner ?? 'none'} now`);
        if (expected === null) return;
        const [rows] = this.#channel.exec('continue', [
          {
            sql: `SELECT (extract(epoch FROM now() - heartbeat_at) * 1000)::bigint < lease_ms AS live
                  FROM warden_hosts WHERE name = $1 FOR UPDATE`,
            params: [expected],
          },
        ]);
        if (rows?.[0]?.live === true)
          throw new ConflictError(`Thread ${threadId} runs on host ${expected}, whose lease is live`);
      },
    );
  }

  /** The CLIs' transcripts in this database, in the SDK's SessionStore shape (transcript-store.ts). */
  transcriptStore(): SessionStore {
    return new PostgresTranscriptStore((statements) => this.#exec(statements));
  }

  #commit(
    threadId: string,
    drafts: readonly EventDraft[],
    options: CommitOptions,
    /** Runs under the head lock with the replica up to date (a compare-and-set beyond the projector's). */
    check?: () => void,
  ): StoredEvent[] {
    const spoolOffset = checkCommitInput(threadId, drafts, options);
    if (drafts.length === 0 && spoolOffset === undefined) return [];
    if (this.#failure !== undefined) throw this.#failure;
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
    check: () => void,
  ): StoredEvent[] {
    this.#flush();
    const after = this.#replica.seq;
    // The head locked; what other hosts appended since this replica's last event comes with it.
    const [head, events, audit, offsets] = this.#channel.exec(
      'begin',
      [lockHead, eventsAfter(after, null), lastAudit, offsetsFor(after, null)],
      { unlessFirstSeq: after },
    );
    let committed = false;
    try {
      this.#checkNotBehind(Number(head?.[0]?.seq ?? 0));
      this.#noteRows(events);
      this.#replica.fold(eventsOf(events), auditRowsOf(audit), offsetsOf(offsets));
      check();
      const stored = this.#replica.commit(threadId, drafts, spoolOffset, (prepared) => {
        this.#channel.exec('commit', appendStatements(prepared, this.#host?.name ?? null));
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
    this.#commits += 1;
    if (!this.#committedThisTick) {
      this.#committedThisTick = true;
      setImmediate(() => (this.#committedThisTick = false));
    }
    for (const event of stored) {
      if (event.type === 'thread.created')
        this.#owners.set(event.threadId, event.data.host ?? this.#host?.name ?? null);
      if (event.type === 'thread.adopted') this.#owners.set(event.threadId, event.data.to);
    }
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
    const after = this.#replica.seq;
    const [head, events, audit, offsets] = this.#channel.exec(
      'begin',
      [lockHeadAsync, eventsAfter(after, null), lastAudit, offsetsFor(after, null)],
      { unlessFirstSeq: after },
    );
    try {
      this.#checkNotBehind(Number(head?.[0]?.seq ?? 0));
      this.#noteRows(events);
      this.#replica.fold(eventsOf(events), auditRowsOf(audit), offsetsOf(offsets));
    } catch (error) {
      this.#channel.rollback();
      throw error;
    }
    const batch = { head: this.#replica.seq, commits: [] };
    this.#batch = batch;
    openBatch.holder = this;
    setImmediate(() => {
      try {
        this.#flush();
      } catch {
        // Recorded in #failure: durable() and the next commit report it.
      }
    });
    return batch;
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
    const statement = appendBatch(batch.commits, this.#host?.name ?? null, batch.head);
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
    this.#failure ??= new StoreError(
      `Could not write ${batch.commits.length} commits to PostgreSQL at ${this.where}; restart the host`,
      { cause },
    );
    throw this.#failure;
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
          [rows] = this.#channel.exec('write', [appendBatch([prepared], this.#host?.name ?? null, head)]);
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
    const [rows] = this.#channel.exec('none', [
      {
        sql: 'SELECT thread_id, thread_seq, at, host FROM warden_events WHERE seq = $1',
        params: [first.seq],
      },
    ]);
    const row = rows?.[0];
    return (
      row !== undefined &&
      row.thread_id === first.threadId &&
      Number(row.thread_seq) === first.threadSeq &&
      row.at === first.at &&
      (row.host ?? null) === (this.#host?.name ?? null)
    );
  }

  /**
   * A server whose log head is behind this replica lost commits it had acknowledged without flushing
   * them (it crashed before a barrier covered them): this host's replica no longer matches the log, and
   * the store takes no more changes.
   */
  #checkNotBehind(head: number): void {
    if (head >= this.#replica.seq) return;
    this.#failure ??= new StoreError(
      `PostgreSQL at ${this.where} lost changes this host committed (its log ends at ${head}, this host had ${this.#replica.seq}); restart the host`,
    );
    throw this.#failure;
  }

  /** Commits so far (each counts, durable or not); every one up to #covered is on disk. */
  #commits = 0;
  #covered = 0;
  /** The barrier under way and the commits it covers. */
  #flight: { readonly covers: number; readonly promise: Promise<void> } | undefined;
  /** Callers waiting for the barrier after the one under way (or the one about to start). */
  #next: { promise: Promise<void>; resolve: () => void; reject: (error: StoreError) => void } | undefined;
  #failure: StoreError | undefined;

  /**
   * The durability barrier (Store.durable()): commits are made with synchronous_commit off, and one
   * barrier transaction (barrierStatement) flushes the WAL past all of them. Calls made in one tick, and
   * calls made while a barrier is under way, share the next one. A failed barrier (the server gone, a
   * timeout) rejects with a StoreError and the store takes no more commits: whether the server kept the
   * commits it had not flushed is unknown.
   */
  durable(): Promise<void> {
    try {
      this.#flush();
    } catch {
      // Recorded in #failure.
    }
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    const count = this.#commits;
    if (count <= this.#covered) return Promise.resolve();
    if (this.#flight !== undefined && count <= this.#flight.covers) return this.#flight.promise;
    if (this.#next === undefined) {
      let resolve!: () => void;
      let reject!: (error: StoreError) => void;
      const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
      promise.catch(() => undefined);
      this.#next = { promise, resolve, reject };
      if (this.#flight === undefined) setImmediate(() => this.#startBarrier());
    }
    return this.#next.promise;
  }

  #startBarrier(): void {
    const next = this.#next;
    if (next === undefined || this.#flight !== undefined) return;
    this.#next = undefined;
    try {
      // Commits made since durable() was called are written before the barrier that covers them.
      this.#flush();
    } catch {
      // Recorded in #failure.
    }
    if (this.#failure !== undefined) return next.reject(this.#failure);
    const covers = this.#commits;
    this.#flight = { covers, promise: next.promise };
    this.#channel.barrier(barrierStatement).then(
      () => {
        this.#flight = undefined;
        this.#covered = Math.max(this.#covered, covers);
        next.resolve();
        this.#startBarrier();
      },
      (error: unknown) => {
        this.#flight = undefined;
        this.#failure ??=
          error instanceof StoreError
            ? error
            : new StoreError(`Could not make commits durable at ${this.where}`, { cause: error });
        next.reject(this.#failure);
        this.#startBarrier();
      },
    );
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
    const [rows] = this.#exec([
      eventsAfter(query.after ?? 0, query.limit ?? DEFAULT_EVENT_PAGE, query.threadId),
    ]);
    return eventsOf(rows);
  }

  readAudit(query: AuditQuery = {}): AuditRow[] {
    return readAuditPages((after, limit) => auditRowsOf(this.#exec([auditAfter(after, limit)])[0]), query);
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
    for (const timer of this.#timers.splice(0)) clearInterval(timer);
    this.#onForeign = undefined;
    try {
      this.#flush();
    } catch {
      // Nothing of the batch was made durable, so nothing of it was told to anyone.
    }
    if (this.#host !== undefined) {
      try {
        // Leaving cleanly: the lease ends now rather than when it runs out.
        this.#exec([releaseHost(this.#host.name)]);
      } catch {
        // It runs out by itself.
      }
    }
    this.#channel.close();
    this.#replica.close();
  }

  /** Statements on their own (autocommit), after the open batch of any store of this process is written. */
  #exec(statements: Statement[]): Record<string, unknown>[][] {
    this.#flush();
    return this.#channel.exec('none', statements);
  }

  /** Folds what other hosts appended since the replica's last event; returns the head's seq. */
  #refresh(): number {
    // While a batch is open this store holds the head: the replica is the log, its own batch included.
    if (this.#batch !== undefined) return this.#replica.seq;
    const [rows] = this.#exec([headSeq]);
    const head = Number(rows?.[0]?.seq ?? 0);
    this.#checkNotBehind(head);
    if (head > this.#replica.seq) this.#foldAll();
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
      this.#noteRows(events);
      this.#replica.fold(page, auditRowsOf(audit), offsetsOf(offsets));
      if (page.length < FOLD_PAGE) break;
    }
    this.#replica.startAudit();
  }
}
