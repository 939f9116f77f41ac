// The HTTP plumbing both model mocks share (the Messages API in mock-model.ts, the Responses API in
// mock-responses.ts): bounded body reads, JSON parsing that answers 400, pauses and writes that give up when
// the client goes away, and the waiters behind waitForRequest.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** A failure the mock answers with this HTTP status. */
export class HttpReplyError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES)
        reject(new HttpReplyError(413, `request body exceeds ${MAX_BODY_BYTES} bytes`));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HttpReplyError(
      400,
      `malformed JSON body: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Resolves true after `ms`, or false as soon as the signal aborts. */
export async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (ms <= 0) return !signal.aborted;
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

export function write(res: ServerResponse, text: string): Promise<boolean> {
  if (res.destroyed || res.writableEnded) return Promise.resolve(false);
  return new Promise((resolve) => {
    res.write(text, (error) => resolve(error === undefined || error === null));
  });
}

export function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

interface Waiter<T> {
  readonly predicate: (record: T) => boolean;
  readonly resolve: (record: T) => void;
}

/** The records of a mock and the callers waiting for one that matches. */
export class RequestWaiters<T> {
  readonly #records: readonly T[];
  readonly #waiters = new Set<Waiter<T>>();

  constructor(records: readonly T[]) {
    this.#records = records;
  }

  /** Hands a new or updated record to every waiter that accepts it. */
  notify(record: T): void {
    for (const waiter of this.#waiters) {
      if (waiter.predicate(record)) {
        this.#waiters.delete(waiter);
        waiter.resolve(record);
      }
    }
  }

  /** Resolves with the first record (past or future) the predicate accepts. */
  wait(predicate: (record: T) => boolean, options: { signal?: AbortSignal } = {}): Promise<T> {
    const found = this.#records.find(predicate);
    if (found !== undefined) return Promise.resolve(found);
    const { signal } = options;
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        this.#waiters.delete(waiter);
        reject(signal?.reason instanceof Error ? signal.reason : new Error('waitForRequest aborted'));
      };
      const waiter: Waiter<T> = {
        predicate,
        resolve: (record) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(record);
        },
      };
      if (signal?.aborted === true) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiters.add(waiter);
    });
  }
}

export interface LoopbackServer {
  readonly port: number;
  /** Aborts every in-flight request's signal, drops every connection, stops the server. Idempotent. */
  readonly close: () => Promise<void>;
}

/**
 * Serves `handle` on 127.0.0.1. Each request gets a signal that aborts when its client goes away or the
 * server closes (which ends hanging replies and pending delays); `onClosed` runs last on close().
 */
export async function serveOnLoopback(
  port: number,
  handle: (req: IncomingMessage, res: ServerResponse, signal: AbortSignal) => Promise<void>,
  onClosed: () => Promise<void> = () => Promise.resolve(),
): Promise<LoopbackServer> {
  const inFlight = new Set<AbortController>();
  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const controller = new AbortController();
    inFlight.add(controller);
    res.on('close', () => {
      controller.abort();
      inFlight.delete(controller);
    });
    await handle(req, res, controller.signal);
  };
  // handle answers its own failures; this only guards against a failure while answering one.
  const server = createServer((req, res) => void serve(req, res).catch(() => res.destroy()));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= (async () => {
      inFlight.forEach((controller) => controller.abort());
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await stopped;
      // Responses of destroyed sockets report 'close' (and queue their log line) on the next turn.
      await new Promise((resolve) => setImmediate(resolve));
      await onClosed();
    })();
    return closed;
  };
  return { port: (server.address() as AddressInfo).port, close };
}
