// The `warden` command's one client for a running `warden serve` of the same data directory: found at the
// address the flags give or the server recorded (server-address.ts), authenticated with the owner's token
// file, never at a guessed address. JSON requests over HTTP (and a raw body for the audit export), the
// event stream over the WebSocket (reconnecting from the last event it delivered), and the server's
// refusals as Warden's error classes (server-errors.ts); a server that does not answer is a
// ServerRequestError with no status, its cause the connection's error.
import { ServerRequestError } from '../../protocol/errors.js';
import { readToken } from '../../server/token.js';
import type { StoredEvent } from '../../store/event-types.js';
import { EventSocket } from './event-socket.js';
import { serverUrlOf } from './server-address.js';
import { serverErrorOf } from './server-errors.js';

const REQUEST_TIMEOUT_MS = 15_000;
/** A stream cut off (too slow, a network blip) is opened again from the last event, this many times. */
const RECONNECTS = 5;

export interface RequestOptions {
  /** Give up after this long (default 15 s); 0: wait as long as it takes (a long download). */
  timeoutMs?: number;
}

export class ServerClient {
  readonly url: string;
  readonly #token: string;

  constructor(url: string, token: string) {
    this.url = url;
    this.#token = token;
  }

  /**
   * The data directory's server, at `--host`/`--port` when given, else where it recorded itself;
   * undefined when neither says. Throws when the token file cannot be read.
   */
  static locate(dataDir: string, flags: { host?: string; port?: number } = {}): ServerClient | undefined {
    const url = serverUrlOf(dataDir, flags);
    return url === undefined ? undefined : new ServerClient(url, readToken(dataDir).token);
  }

  get<T>(path: string, options?: RequestOptions): Promise<T> {
    return this.#json<T>('GET', path, undefined, options);
  }

  post<T>(path: string, body: unknown = {}, options?: RequestOptions): Promise<T> {
    return this.#json<T>('POST', path, body, options);
  }

  delete<T>(path: string, options?: RequestOptions): Promise<T> {
    return this.#json<T>('DELETE', path, undefined, options);
  }

  /** A GET whose body is read as it comes (the audit export), not parsed. */
  async download(path: string, options?: RequestOptions): Promise<ReadableStream<Uint8Array>> {
    const response = await this.#fetch('GET', path, undefined, options);
    if (!response.ok || response.body === null)
      throw serverErrorOf(response.status, await response.text(), `GET ${path}`);
    return response.body;
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

  async #json<T>(method: string, path: string, body: unknown, options?: RequestOptions): Promise<T> {
    const response = await this.#fetch(method, path, body, options);
    const text = await response.text();
    if (response.ok) return JSON.parse(text) as T;
    throw serverErrorOf(response.status, text, `${method} ${path}`);
  }

  async #fetch(method: string, path: string, body: unknown, options?: RequestOptions): Promise<Response> {
    const timeoutMs = options?.timeoutMs ?? REQUEST_TIMEOUT_MS;
    try {
      return await fetch(`${this.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.#token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        ...(timeoutMs === 0 ? {} : { signal: AbortSignal.timeout(timeoutMs) }),
        redirect: 'error',
      });
    } catch (error) {
      throw new ServerRequestError(`the server at ${this.url} did not answer`, null, null, { cause: error });
    }
  }
}
