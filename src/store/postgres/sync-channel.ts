// Synchronous calls into the connection worker. The Store interface is synchronous (a commit is one
// transaction with no await inside), so the main thread posts a request on a MessageChannel and blocks
// with Atomics.wait until the worker has posted its reply and bumped a shared counter, then takes the
// reply with receiveMessageOnPort. Every wait is bounded: a worker or server that does not answer gives
// a StoreError, never a hang.
import { MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';

import { StoreError } from '../../protocol/errors.js';
import { attachConnection, releaseConnection } from './shared-worker.js';
import type {
  LogNotice,
  Statement,
  TransactionStep,
  WorkerConfig,
  WorkerFailure,
  WorkerReply,
  WorkerRequest,
} from './protocol.js';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export class SyncChannel {
  readonly #port: MessagePort;
  readonly #signal: Int32Array;
  readonly #where: string;
  readonly #timeoutMs: number;
  #nextId = 1;
  #closed = false;

  readonly #notices: MessagePort | undefined;
  /** The barriers' port (asynchronous: replies come on this thread's event loop) and their waiters. */
  readonly #barriers: MessagePort;
  readonly #barrierWaiters = new Map<
    number,
    { resolve: (rows: Record<string, unknown>[][]) => void; reject: (error: StoreError) => void }
  >();

  /**
   * `timeoutMs` bounds each request (the statement timeout plus a margin; the first also the startup).
   * With `listen`, the worker also LISTENs for commits and `listen.onNotice` hears of each on this
   * thread's event loop (a port of its own: the replies' port is only read synchronously).
   */
  constructor(
    config: WorkerConfig,
    timeoutMs: number,
    listen?: { name: string; onNotice: (notice: LogNotice) => void },
  ) {
    this.#where = config.where;
    this.#timeoutMs = timeoutMs;
    this.#signal = new Int32Array(new SharedArrayBuffer(4));
    const { port1, port2 } = new MessageChannel();
    this.#port = port1;
    this.#port.unref();
    let notify: { notify: MessagePort; listenName: string } | undefined;
    if (listen !== undefined) {
      const notices = new MessageChannel();
      this.#notices = notices.port1;
      this.#notices.on('message', (notice: LogNotice) => listen.onNotice(notice));
      // Listening never keeps the process alive.
      this.#notices.unref();
      notify = { notify: notices.port2, listenName: listen.name };
    }
    const barriers = new MessageChannel();
    this.#barriers = barriers.port1;
    this.#barriers.on('message', (reply: WorkerReply) => {
      const waiter = this.#barrierWaiters.get(reply.id);
      this.#barrierWaiters.delete(reply.id);
      if (this.#barrierWaiters.size === 0) this.#barriers.unref();
      if (reply.ok) waiter?.resolve(reply.results);
      else waiter?.reject(this.#failure(reply.failure));
    });
    this.#barriers.unref();
    attachConnection({
      config,
      port: port2,
      signal: this.#signal,
      ...notify,
      barrier: barriers.port2,
    });
  }

  /**
   * Runs `statement` on the worker's barrier connection, concurrently with this channel's requests (the
   * caller goes on committing meanwhile); its rows. Rejects with a StoreError when it fails, does not
   * answer within the request bound, or the channel closes first.
   */
  barrier(statement: Statement): Promise<Record<string, unknown>[][]> {
    if (this.#closed) return Promise.reject(new StoreError(`The store at ${this.#where} is closed`));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#barrierWaiters.delete(id);
        reject(new StoreError(`PostgreSQL at ${this.#where} did not answer within ${this.#timeoutMs} ms`));
      }, this.#timeoutMs);
      const settle =
        <T>(fn: (value: T) => void) =>
        (value: T) => {
          clearTimeout(timer);
          fn(value);
        };
      this.#barrierWaiters.set(id, { resolve: settle(resolve), reject: settle(reject) });
      // Waiting for a barrier keeps the process alive, as waiting for an fsync does.
      this.#barriers.ref();
      this.#barriers.postMessage({ id, statement });
    });
  }

  /** Runs `statements` as `tx` says; the rows of each, in order. */
  exec(
    tx: TransactionStep,
    statements: Statement[],
    options: { timeoutMs?: number; unlessFirstSeq?: number } = {},
  ): Record<string, unknown>[][] {
    const { timeoutMs = this.#timeoutMs, unlessFirstSeq } = options;
    return this.#call(
      { op: 'exec', tx, statements, ...(unlessFirstSeq === undefined ? {} : { unlessFirstSeq }) },
      timeoutMs,
    );
  }

  /** Rolls back the open transaction, if any. Never throws: a lost connection rolled it back already. */
  rollback(): void {
    try {
      this.#call({ op: 'rollback' }, this.#timeoutMs);
    } catch {
      // The server ends a transaction whose connection is gone.
    }
  }

  close(): void {
    if (this.#closed) return;
    try {
      this.#call({ op: 'close' }, Math.min(this.#timeoutMs, 5000));
    } catch {
      // Closing anyway.
    } finally {
      this.#closed = true;
      this.#port.close();
      this.#notices?.close();
      this.#barriers.close();
      const closed = new StoreError(`The store at ${this.#where} is closed`);
      for (const waiter of this.#barrierWaiters.values()) waiter.reject(closed);
      this.#barrierWaiters.clear();
      releaseConnection();
    }
  }

  #failure(failure: WorkerFailure): StoreError {
    if (failure.kind === 'busy' || failure.kind === 'worker') return new StoreError(failure.message);
    if (failure.kind === 'connection')
      return new StoreError(`Cannot reach PostgreSQL at ${this.#where}: ${failure.message}`);
    return new StoreError(`PostgreSQL at ${this.#where} refused a statement: ${failure.message}`, {
      cause: failure,
    });
  }

  #call(request: DistributiveOmit<WorkerRequest, 'id'>, timeoutMs: number): Record<string, unknown>[][] {
    if (this.#closed) throw new StoreError(`The store at ${this.#where} is closed`);
    const id = this.#nextId++;
    let seen = Atomics.load(this.#signal, 0);
    this.#port.postMessage({ ...request, id });
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      // Replies to earlier requests that timed out are dropped here.
      for (
        let received = receiveMessageOnPort(this.#port);
        received !== undefined;
        received = receiveMessageOnPort(this.#port)
      ) {
        const reply = received.message as WorkerReply;
        if (reply.id !== id) continue;
        if (reply.ok) return reply.results;
        throw this.#failure(reply.failure);
      }
      const left = deadline - Date.now();
      if (left <= 0)
        throw new StoreError(`PostgreSQL at ${this.#where} did not answer within ${timeoutMs} ms`);
      Atomics.wait(this.#signal, 0, seen, left);
      seen = Atomics.load(this.#signal, 0);
    }
  }
}
