// The messages between a PostgresStore (main thread) and its connection worker. Plain data: they cross
// the thread boundary by structured clone.
import type { MessagePort } from 'node:worker_threads';

export interface Statement {
  readonly sql: string;
  readonly params?: readonly unknown[];
  /**
   * Prepared once per connection under this name and executed by name afterwards (the server skips
   * parsing and planning). Only for statements whose text never changes: one name, one text.
   */
  readonly name?: string;
}

/**
 * Where a request stands in a transaction: `none` runs each statement on its own (autocommit); `begin`
 * opens one and leaves it open; `continue` runs inside the open one; `commit` runs inside it and commits;
 * `once` opens, runs and commits in one request; `write` runs one statement on its own (autocommit) and
 * never again on a fresh connection: it may have committed before the old one broke.
 */
export type TransactionStep = 'none' | 'begin' | 'continue' | 'commit' | 'once' | 'write';

export type WorkerRequest =
  | {
      readonly id: number;
      readonly op: 'exec';
      readonly tx: TransactionStep;
      readonly statements: Statement[];
      /**
       * Run the statements after the first only when the first one's `seq` differs from this: a commit's
       * catch-up queries are skipped when the log head has not moved (one round trip to the server less).
       */
      readonly unlessFirstSeq?: number;
    }
  | { readonly id: number; readonly op: 'rollback' }
  | { readonly id: number; readonly op: 'close' };

/** `connection`: the server could not be reached or the connection broke; `busy`: another host holds it. */
/** `worker`: the connection worker could not load (worker-startup.ts). */
export type FailureKind = 'connection' | 'query' | 'busy' | 'worker';

export interface WorkerFailure {
  readonly kind: FailureKind;
  readonly message: string;
  /** PostgreSQL's SQLSTATE or Node's errno code, when there is one. */
  readonly code: string | null;
}

export type WorkerReply =
  | { readonly id: number; readonly ok: true; readonly results: Record<string, unknown>[][] }
  | { readonly id: number; readonly ok: false; readonly failure: WorkerFailure };

export interface WorkerConfig {
  readonly url: string;
  /** host:port as it may be shown (never the password). */
  readonly where: string;
  readonly connectTimeoutMs: number;
  readonly statementTimeoutMs: number;
  /** Held for the whole connection (pg_try_advisory_lock) and taken again on every reconnect. */
  readonly exclusiveLockKey: number | null;
  /** Held shared for the whole connection (pg_try_advisory_lock_shared), like exclusiveLockKey. */
  readonly sharedLockKey?: number | null;
}

/** Told to the main thread on AttachMessage.notify: the log head moved, or the listener (re)connected. */
export interface LogNotice {
  /** The seq a commit announced (NOTIFY warden_log), or null when the listener just (re)connected. */
  readonly seq: number | null;
}

/** The channel every commit notifies, in its own transaction: delivered to listeners only once committed. */
export const LOG_CHANNEL = 'warden_log';

/** Posted to the worker to open one more connection, served on `port`. */
export interface AttachMessage {
  readonly config: WorkerConfig;
  readonly port: MessagePort;
  /** Int32Array over a SharedArrayBuffer: a counter the worker bumps after each reply it posts. */
  readonly signal: Int32Array;
  /**
   * When given, the worker also holds a LISTEN connection on LOG_CHANNEL (named `listenName` in
   * pg_stat_activity) and posts a LogNotice here for each notification and each (re)connect.
   */
  readonly notify?: MessagePort;
  readonly listenName?: string;
  /**
   * The durability barrier's port (durable()): each BarrierRequest posted on it runs a synchronous commit
   * on a second connection of the store, concurrently with its commits, and its WorkerReply comes back on
   * the same port.
   */
  readonly barrier?: MessagePort;
}

/** Asks for one durability barrier; see barrierStatement in log-queries.ts. */
export interface BarrierRequest {
  readonly id: number;
  readonly statement: Statement;
}
