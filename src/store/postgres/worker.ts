// The connection worker: the thread that talks to PostgreSQL for the PostgresStores of this process
// (shared-worker.ts). Each store has its own connection here, on its own MessagePort; the main thread
// blocks on each request (sync-channel.ts) while the `pg` client runs asynchronously as usual. One
// request at a time per connection: a store serialises its work anyway. A broken connection is replaced
// on the next request; until a new one is up, requests fail with a `connection` failure.
import { parentPort, type MessagePort } from 'node:worker_threads';

import pg from 'pg';

import { LOG_CHANNEL } from './protocol.js';
import type {
  BarrierRequest,
  LogNotice,
  Statement,
  TransactionStep,
  AttachMessage,
  WorkerConfig,
  WorkerFailure,
  WorkerReply,
  WorkerRequest,
} from './protocol.js';

// int8 (seq, offsets) as numbers: they stay far below 2^53.
pg.types.setTypeParser(20, (text) => Number(text));

/** SQLSTATE classes of a connection that is gone: 08 connection exception, 57P admin shutdown / crash. */
function isConnectionLoss(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return true;
  return /^(08|57P0|53300|E[A-Z]+)/.test(code);
}

/** Runs one statement; a named one is prepared on the connection's first use and reused after. */
function query(client: pg.Client, statement: Statement): Promise<pg.QueryResult<Record<string, unknown>>> {
  const values = statement.params as unknown[] | undefined;
  if (statement.name === undefined) return client.query<Record<string, unknown>>(statement.sql, values);
  return client.query<Record<string, unknown>>({ name: statement.name, text: statement.sql, values });
}

class Connection {
  readonly #config: WorkerConfig;

  constructor(config: WorkerConfig) {
    this.#config = config;
  }

  #client: pg.Client | undefined;
  #broken = false;
  #inTransaction = false;

  get inTransaction(): boolean {
    return this.#inTransaction;
  }

  async client(): Promise<pg.Client> {
    if (this.#client !== undefined && !this.#broken) return this.#client;
    await this.drop();
    const client = new pg.Client({
      connectionString: this.#config.url,
      connectionTimeoutMillis: this.#config.connectTimeoutMs,
      statement_timeout: this.#config.statementTimeoutMs,
      lock_timeout: this.#config.statementTimeoutMs,
      // A transaction left open by a stuck host must not hold the log head for ever.
      idle_in_transaction_session_timeout: Math.max(this.#config.statementTimeoutMs * 2, 10_000),
      application_name: 'warden',
      keepAlive: true,
    });
    client.on('error', () => {
      // The server closed the connection (a restart, pg_terminate_backend): replaced on the next request.
      this.#broken = true;
    });
    client.on('end', () => {
      this.#broken = true;
    });
    try {
      await client.connect();
      if (this.#config.exclusiveLockKey !== null) {
        const { rows } = await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1) AS held', [
          this.#config.exclusiveLockKey,
        ]);
        if (rows[0]?.held !== true) {
          await client.end().catch(() => undefined);
          throw Object.assign(new Error(`The store at ${this.#config.where} is in use by another host`), {
            kind: 'busy',
          });
        }
      }
      const shared = this.#config.sharedLockKey ?? null;
      if (shared !== null) {
        const { rows } = await client.query<{ held: boolean }>(
          'SELECT pg_try_advisory_lock_shared($1) AS held',
          [shared],
        );
        if (rows[0]?.held !== true)
          throw Object.assign(
            new Error(`The store at ${this.#config.where} is held by a host that runs it alone`),
            { kind: 'busy' },
          );
      }
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.#client = client;
    this.#broken = false;
    this.#inTransaction = false;
    return client;
  }

  async run(
    statements: readonly Statement[],
    tx: TransactionStep,
    unlessFirstSeq?: number,
  ): Promise<Record<string, unknown>[][]> {
    const begin = tx === 'begin' || tx === 'once';
    const commit = tx === 'commit' || tx === 'once';
    // A transaction left open by a request the store gave up on is abandoned before anything new runs.
    if (tx === 'none' || tx === 'write') await this.rollback();
    // A connection found dead before anything was sent is replaced once: nothing can have been written.
    let client = await this.client();
    // After client(): a connection replaced since the transaction began has lost it (and its locks).
    if ((tx === 'continue' || tx === 'commit') && !this.#inTransaction)
      throw Object.assign(new Error('The transaction was lost (the connection broke or timed out)'), {
        kind: 'connection',
      });
    const results: Record<string, unknown>[][] = [];
    let sent = false;
    try {
      if (begin) {
        if (this.#inTransaction) await client.query('ROLLBACK');
        try {
          await client.query('BEGIN');
        } catch (error) {
          if (!isConnectionLoss(error)) throw error;
          this.#broken = true;
          client = await this.client();
          await client.query('BEGIN');
        }
        this.#inTransaction = true;
      } else if (!this.#inTransaction && statements.length > 0 && !commit && tx !== 'write') {
        // An autocommit read: retried once on a fresh connection if the old one was found dead.
        try {
          results.push((await query(client, statements[0]!)).rows);
          sent = true;
        } catch (error) {
          if (!isConnectionLoss(error)) throw error;
          this.#broken = true;
          client = await this.client();
        }
      }
      for (const statement of statements.slice(sent ? 1 : 0)) {
        if (
          results.length === 1 &&
          unlessFirstSeq !== undefined &&
          Number(results[0]?.[0]?.seq) === unlessFirstSeq
        )
          break;
        results.push((await query(client, statement)).rows);
      }
      if (commit) {
        this.#inTransaction = false;
        await client.query('COMMIT');
      }
      return results;
    } catch (error) {
      if (this.#inTransaction) {
        this.#inTransaction = false;
        await client.query('ROLLBACK').catch(() => {
          this.#broken = true;
        });
      }
      if (isConnectionLoss(error)) this.#broken = true;
      throw error;
    }
  }

  async rollback(): Promise<void> {
    if (!this.#inTransaction || this.#client === undefined) return;
    this.#inTransaction = false;
    await this.#client.query('ROLLBACK').catch(() => {
      this.#broken = true;
    });
  }

  async drop(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    this.#inTransaction = false;
    if (client !== undefined) await client.end().catch(() => undefined);
  }
}

function failureOf(error: unknown): WorkerFailure {
  const err = error as { message?: unknown; code?: unknown; kind?: unknown };
  const code = typeof err.code === 'string' ? err.code : null;
  const message = typeof err.message === 'string' && err.message !== '' ? err.message : String(error);
  if (err.kind === 'busy') return { kind: 'busy', message, code };
  if (err.kind === 'connection') return { kind: 'connection', message, code };
  if (code !== null && !isConnectionLoss(error)) return { kind: 'query', message, code };
  return { kind: 'connection', message, code };
}

/** How soon a listener connection that broke is opened again (the main thread's sweep covers the gap). */
const LISTEN_RETRY_MS = 1000;

/**
 * The LISTEN connection of one store: each notification, and each (re)connect (notifications sent while
 * it was down are gone), is posted to the main thread. Returns a function that ends it.
 */
function listen(config: WorkerConfig, notify: MessagePort, name: string): () => Promise<void> {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const post = (notice: LogNotice) => {
    if (!closed) notify.postMessage(notice);
  };
  const again = () => {
    if (closed || retry !== undefined) return;
    retry = setTimeout(() => {
      retry = undefined;
      void open();
    }, LISTEN_RETRY_MS);
  };
  const open = async () => {
    const next = new pg.Client({
      connectionString: config.url,
      connectionTimeoutMillis: config.connectTimeoutMs,
      application_name: name,
      keepAlive: true,
    });
    next.on('notification', (message) => {
      const seq = Number(message.payload);
      post({ seq: Number.isSafeInteger(seq) ? seq : null });
    });
    const lost = () => {
      if (client === next) client = undefined;
      void next.end().catch(() => undefined);
      again();
    };
    next.on('error', lost);
    next.on('end', lost);
    try {
      await next.connect();
      await next.query(`LISTEN ${LOG_CHANNEL}`);
    } catch {
      lost();
      return;
    }
    if (closed) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    post({ seq: null });
  };
  void open();
  return async () => {
    closed = true;
    clearTimeout(retry);
    const last = client;
    client = undefined;
    notify.close();
    await last?.end().catch(() => undefined);
  };
}

/**
 * The durability barriers of one store, on a connection of their own: a barrier's synchronous commit
 * waits for the WAL flush while the store's own connection goes on committing. Barriers run one after
 * another; a barrier whose connection is lost is tried again on a fresh one until the statement timeout
 * has passed (a server restarting refuses connections for a while). A barrier writes nothing that
 * matters, and what it proves after a restart the store checks in its rows (witnessedBarrier).
 * Returns a function that ends it.
 */
function serveBarriers(config: WorkerConfig, port: MessagePort): () => Promise<void> {
  // No locks: the store's own connection holds them.
  const connection = new Connection({ ...config, exclusiveLockKey: null, sharedLockKey: null });
  let closed = false;
  let queue = Promise.resolve();
  const runBarrier = async (statement: Statement): Promise<Record<string, unknown>[][]> => {
    // New tries start until the statement timeout has passed; a server restarting refuses them at once.
    // One that hangs instead is ended by the caller's own bound (sync-channel.ts).
    const until = Date.now() + config.statementTimeoutMs;
    for (let pause = 50; ; pause = Math.min(pause * 2, 500)) {
      try {
        return await connection.run([statement], 'none');
      } catch (error) {
        if (closed || failureOf(error).kind !== 'connection' || Date.now() + pause >= until) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  };
  port.on('message', (request: BarrierRequest) => {
    queue = queue.then(async () => {
      let reply: WorkerReply;
      try {
        reply = { id: request.id, ok: true, results: await runBarrier(request.statement) };
      } catch (error) {
        reply = { id: request.id, ok: false, failure: failureOf(error) };
      }
      if (!closed) port.postMessage(reply);
    });
  });
  return async () => {
    // A barrier under way fails with its connection; its caller is told by the store's close().
    closed = true;
    port.close();
    await connection.drop();
  };
}

function serve({ config, port, signal, notify, listenName, barrier }: AttachMessage): void {
  const connection = new Connection(config);
  const stopListening = notify === undefined ? undefined : listen(config, notify, listenName ?? 'warden');
  const stopBarriers = barrier === undefined ? undefined : serveBarriers(config, barrier);
  const reply = (message: WorkerReply): void => {
    port.postMessage(message);
    // After the message is queued: the main thread takes it with receiveMessageOnPort once woken.
    Atomics.add(signal, 0, 1);
    Atomics.notify(signal, 0);
  };
  // Requests are handled one after another, in order.
  let queue = Promise.resolve();
  port.on('message', (request: WorkerRequest) => {
    queue = queue.then(async () => {
      if (request.op === 'close') await Promise.all([stopListening?.(), stopBarriers?.()]);
      reply(await handle(connection, request));
      if (request.op === 'close') port.close();
    });
  });
}

async function handle(connection: Connection, request: WorkerRequest): Promise<WorkerReply> {
  try {
    switch (request.op) {
      case 'exec': {
        const { tx, statements, unlessFirstSeq } = request;
        return { id: request.id, ok: true, results: await connection.run(statements, tx, unlessFirstSeq) };
      }
      case 'rollback':
        await connection.rollback();
        return { id: request.id, ok: true, results: [] };
      case 'close':
        await connection.drop();
        return { id: request.id, ok: true, results: [] };
    }
  } catch (error) {
    return { id: request.id, ok: false, failure: failureOf(error) };
  }
}

parentPort?.on('message', (message: AttachMessage) => serve(message));
