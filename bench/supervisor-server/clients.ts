// The clients of the supervisor-server benchmark, as a script or another service would talk to the server:
// JSON over HTTP with the Bearer token on keep-alive connections, and `ws` WebSockets on /ws. An event
// client checks its stream as it reads it: every event exactly once, in seq order, nothing skipped.
import { Agent, request } from 'node:http';

import WebSocket from 'ws';

import type { ServerMessage, StoredEvent } from '../../src/server/index.js';
import { wallClock } from '../lib/fake-cli.js';

export interface HttpReply {
  readonly status: number;
  readonly body: unknown;
  /** From the request's start to the end of the response body. */
  readonly ms: number;
}

/** JSON requests on at most `connections` keep-alive connections. */
export class HttpClient {
  readonly #base: URL;
  readonly #token: string;
  readonly #agent: Agent;

  constructor(url: string, token: string, connections: number) {
    this.#base = new URL(url);
    this.#token = token;
    this.#agent = new Agent({ keepAlive: true, maxSockets: connections });
  }

  post(path: string, body: unknown): Promise<HttpReply> {
    const payload = JSON.stringify(body);
    const began = wallClock();
    return new Promise((resolve, reject) => {
      const req = request(
        new URL(path, this.#base),
        {
          method: 'POST',
          agent: this.#agent,
          headers: {
            authorization: `Bearer ${this.#token}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const ms = wallClock() - began;
            const text = Buffer.concat(chunks).toString('utf8');
            try {
              resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), ms });
            } catch {
              resolve({ status: res.statusCode ?? 0, body: text, ms });
            }
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** Closes the idle keep-alive connections. */
  close(): void {
    this.#agent.destroy();
  }
}

/**
 * One /ws client. `opened` resolves on the server's `live` marker (the replay, if any, is over). A client
 * the server cuts off (it fell more than the server's buffer behind: "too slow", or the connection dropped
 * while that close waited behind the data) connects again from the last event it has, as the inbox does;
 * `reconnects` counts that, and the stream must still hold every event once, in order.
 */
export class EventClient {
  /** After this many reconnections in one run the server is not letting the client keep up: a failure. */
  static readonly MAX_RECONNECTS = 50;
  readonly opened: Promise<void>;
  /** The first thing wrong with the stream (a gap, a repeat, a close before the end), if any. */
  failure: string | undefined;
  /** The seq of the last event received. */
  lastSeq: number;
  /** How many times the server cut this client off and it connected again. */
  reconnects = 0;
  readonly #url: string;
  readonly #token: string;
  readonly #onEvent: (event: StoredEvent, receivedAt: number) => void;
  readonly #waiters: { seq: number; resolve: () => void; reject: (error: Error) => void }[] = [];
  #ws: WebSocket;
  #closed: Promise<void>;
  #closing = false;

  constructor(
    url: string,
    token: string,
    since: number,
    onEvent: (event: StoredEvent, receivedAt: number) => void,
  ) {
    this.lastSeq = since;
    this.#url = url;
    this.#token = token;
    this.#onEvent = onEvent;
    this.#ws = this.#connect();
    this.#closed = closedOf(this.#ws);
    const first = this.#ws;
    this.opened = new Promise((resolve, reject) => {
      first.once('error', reject);
      first.once('close', (code, reason) =>
        reject(new Error(`closed before live: ${code} ${reason.toString('utf8')}`)),
      );
      first.on('message', (data: Buffer) => {
        if ((JSON.parse(data.toString('utf8')) as ServerMessage).type === 'live') resolve();
      });
    });
    // A run that fails before `live` must not leave an unhandled rejection behind.
    this.opened.catch(() => undefined);
  }

  #connect(): WebSocket {
    const ws = new WebSocket(`${this.#url.replace(/^http/, 'ws')}/ws?since=${this.lastSeq}`, {
      headers: { authorization: `Bearer ${this.#token}` },
      perMessageDeflate: false,
    });
    ws.on('message', (data: Buffer) => {
      const receivedAt = wallClock();
      const message = JSON.parse(data.toString('utf8')) as ServerMessage;
      if (message.type !== 'event') return;
      const { seq } = message.event;
      if (seq !== this.lastSeq + 1)
        this.#fail(`expected event ${this.lastSeq + 1}, got ${seq} (a gap, a repeat or out of order)`);
      this.lastSeq = seq;
      this.#onEvent(message.event, receivedAt);
      this.#settle();
    });
    // A socket error is followed by its close, which decides: connect again, or fail naming the error.
    let error = '';
    ws.on('error', (cause) => (error = ` (socket error: ${cause.message})`));
    ws.on('close', (code, reason) => {
      if (this.#closing || this.failure !== undefined) return;
      if (this.reconnects >= EventClient.MAX_RECONNECTS)
        return this.#fail(
          `closed by the server ${this.reconnects + 1} times: ${code} ${reason.toString('utf8')}${error}`,
        );
      this.reconnects += 1;
      this.#ws = this.#connect();
      this.#closed = closedOf(this.#ws);
    });
    return ws;
  }

  /** Resolves once the event with this seq has arrived; rejects on a failure first. */
  received(seq: number): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(new Error(this.failure));
    if (this.lastSeq >= seq) return Promise.resolve();
    return new Promise((resolve, reject) => this.#waiters.push({ seq, resolve, reject }));
  }

  /**
   * Closes the socket (1000) and resolves when it is closed; a socket still connecting, or a server that
   * does not answer the close within a second, is dropped.
   */
  close(): Promise<void> {
    this.#closing = true;
    if (this.#ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    if (this.#ws.readyState === WebSocket.CONNECTING) this.#ws.terminate();
    else {
      this.#ws.close(1000, 'done');
      setTimeout(() => this.#ws.terminate(), 1000).unref();
    }
    return this.#closed;
  }

  #fail(reason: string): void {
    this.failure ??= reason;
    this.#settle();
  }

  #settle(): void {
    for (let index = this.#waiters.length - 1; index >= 0; index -= 1) {
      const waiter = this.#waiters[index]!;
      if (this.failure !== undefined) waiter.reject(new Error(this.failure));
      else if (this.lastSeq >= waiter.seq) waiter.resolve();
      else continue;
      this.#waiters.splice(index, 1);
    }
  }
}

function closedOf(ws: WebSocket): Promise<void> {
  return new Promise((resolve) => ws.once('close', () => resolve()));
}
