// The `warden` command's client for a running `warden serve` of the same data directory: found through the
// address the server records (`server.json`, trusted only as address-file.ts says) and authenticated with
// the token file, never at a guessed address. JSON requests over HTTP, the event stream over the
// WebSocket (reconnecting from the last event it delivered), and the server's errors as Warden's classes:
// 404 NotFoundError, 409 ConflictError, 400 ValidationError, anything else a ServerRequestError.
import WebSocket from 'ws';

import {
  ConflictError,
  NotFoundError,
  ServerRequestError,
  ValidationError,
  WardenError,
} from '../protocol/errors.js';
import { liveServerAddress } from '../server/address-file.js';
import { readToken } from '../server/token.js';
import type { StoredEvent } from '../store/event-types.js';

const REQUEST_TIMEOUT_MS = 15_000;
/** A stream cut off (too slow, a network blip) is opened again from the last event, this many times. */
const RECONNECTS = 5;

export class ServerClient {
  readonly url: string;
  readonly #token: string;

  constructor(url: string, token: string) {
    this.url = url;
    this.#token = token;
  }

  /** The data directory's running server, or undefined when none is recorded (or the record is untrusted). */
  static forDataDir(dataDir: string): ServerClient | undefined {
    const address = liveServerAddress(dataDir);
    if (address === undefined) return undefined;
    return new ServerClient(address.url, readToken(dataDir).token);
  }

  get<T>(path: string): Promise<T> {
    return this.#request<T>('GET', path, undefined);
  }

  post<T>(path: string, body: unknown = {}): Promise<T> {
    return this.#request<T>('POST', path, body);
  }

  /**
   * The server's events after `since` (of one thread, or all), in order, each once — across reconnects
   * after a cut-off stream. Ends when `signal` aborts; throws a ServerRequestError when the server goes
   * away (it closed with 1001, or cannot be reached again).
   */
  async *events(options: {
    since: number;
    threadId?: string;
    signal: AbortSignal;
  }): AsyncGenerator<StoredEvent> {
    let since = options.since;
    for (let attempt = 0; !options.signal.aborted;) {
      const stream = new EventSocket(this.#socketUrl(since, options.threadId), this.#token, options.signal);
      for (let next = await stream.next(); next !== undefined; next = await stream.next()) {
        if (next.seq <= since) continue;
        since = next.seq;
        attempt = 0;
        yield next;
      }
      if (options.signal.aborted) return;
      const closed = stream.closed;
      if (closed.code === 1001)
        throw new ServerRequestError(`the server at ${this.url} stopped`, null, 'SHUTTING_DOWN');
      if (closed.code === 4001 || closed.code === 1008 || ++attempt > RECONNECTS)
        throw new ServerRequestError(
          `the event stream of ${this.url} closed (${closed.code}${closed.reason === '' ? '' : `: ${closed.reason}`})`,
          closed.status,
          null,
        );
    }
  }

  #socketUrl(since: number, threadId: string | undefined): string {
    const url = new URL('/ws', this.url.replace(/^http/, 'ws'));
    url.searchParams.set('since', String(since));
    if (threadId !== undefined) url.searchParams.set('threadId', threadId);
    return url.toString();
  }

  async #request<T>(method: string, path: string, body: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.#token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        redirect: 'error',
      });
    } catch (error) {
      throw new ServerRequestError(`the server at ${this.url} did not answer`, null, null, { cause: error });
    }
    const text = await response.text();
    if (response.ok) return JSON.parse(text) as T;
    throw errorOf(response.status, text, `${method} ${path}`);
  }
}

/** The server's `{ error: { code, message, field? } }` as the class the supervisor would have thrown. */
function errorOf(status: number, text: string, what: string): WardenError {
  let code: string | null = null;
  let message = `${what}: HTTP ${status}`;
  let field: string | undefined;
  try {
    const parsed = JSON.parse(text) as { error?: { code?: unknown; message?: unknown; field?: unknown } };
    if (typeof parsed.error?.code === 'string') code = parsed.error.code;
    if (typeof parsed.error?.message === 'string') message = parsed.error.message;
    if (typeof parsed.error?.field === 'string') field = parsed.error.field;
  } catch {
    // Not JSON: the status says enough.
  }
  if (status === 409) return new ConflictError(message);
  if (status === 404) return new NotFoundError('resource', what, message);
  if (status === 400 && code === 'VALIDATION') return new ValidationError(message, field);
  return new ServerRequestError(message, status, code);
}

interface Closed {
  code: number;
  reason: string;
  /** The HTTP status of a refused upgrade, else null. */
  status: number | null;
}

/** One WebSocket connection as a queue of events; `next()` is undefined once it has closed. */
class EventSocket {
  readonly #queue: StoredEvent[] = [];
  #waiter: (() => void) | undefined;
  #closed: Closed | undefined;

  constructor(url: string, token: string, signal: AbortSignal) {
    const socket = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
    const onAbort = (): void => socket.terminate();
    signal.addEventListener('abort', onAbort, { once: true });
    const finish = (closed: Closed): void => {
      signal.removeEventListener('abort', onAbort);
      this.#closed ??= closed;
      this.#wake();
    };
    socket.on('message', (data: WebSocket.RawData) => {
      const frame = parseFrame(data);
      if (frame?.type === 'event') {
        this.#queue.push(frame.event);
        this.#wake();
      }
    });
    socket.on('unexpected-response', (_request, response) => {
      finish({ code: 1006, reason: `HTTP ${response.statusCode ?? 0}`, status: response.statusCode ?? null });
      response.resume();
      socket.terminate();
    });
    socket.on('error', (error) => finish({ code: 1006, reason: error.message, status: null }));
    socket.on('close', (code, reason) => finish({ code, reason: reason.toString('utf8'), status: null }));
  }

  get closed(): Closed {
    return this.#closed ?? { code: 1006, reason: '', status: null };
  }

  async next(): Promise<StoredEvent | undefined> {
    for (;;) {
      const event = this.#queue.shift();
      if (event !== undefined) return event;
      if (this.#closed !== undefined) return undefined;
      await new Promise<void>((resolve) => (this.#waiter = resolve));
    }
  }

  #wake(): void {
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.();
  }
}

function parseFrame(data: WebSocket.RawData): { type: 'event'; event: StoredEvent } | undefined {
  try {
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer);
    const text = bytes.toString('utf8');
    const frame = JSON.parse(text) as { type?: unknown; event?: unknown };
    return frame.type === 'event' && typeof frame.event === 'object' && frame.event !== null
      ? (frame as { type: 'event'; event: StoredEvent })
      : undefined;
  } catch {
    return undefined;
  }
}
