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

/** One /ws client. `opened` resolves on the server's `live` marker (the replay, if any, is over). */
export class EventClient {
  readonly opened: Promise<void>;
  /** The first thing wrong with the stream (a gap, a repeat, a close before the end), if any. */
  failure: string | undefined;
  /** The seq of the last event received. */
  lastSeq: number;
  readonly #ws: WebSocket;
  readonly #waiters: { seq: number; resolve: () => void; reject: (error: Error) => void }[] = [];
  readonly #closed: Promise<void>;
  #closing = false;

  constructor(
    url: string,
    token: string,
    since: number,
    onEvent: (event: StoredEvent, receivedAt: number) => void,
  ) {
    this.lastSeq = since;
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws?since=${since}`, {
      headers: { authorization: `Bearer ${token}` },
      perMessageDeflate: false,
    });
    this.#ws = ws;
    this.#closed = new Promise((resolve) => ws.once('close', () => resolve()));
    this.opened = new Promise((resolve, reject) => {
      ws.once('error', reject);
      ws.once('close', (code, reason) =>
        reject(new Error(`closed before live: ${code} ${reason.toString('utf8')}`)),
      );
      ws.on('message', (data: Buffer) => {
        const receivedAt = wallClock();
        const message = JSON.parse(data.toString('utf8')) as ServerMessage;
        if (message.type === 'live') resolve();
        else if (message.type === 'event') {
          const { seq } = message.event;
          if (seq !== this.lastSeq + 1)
            this.#fail(`expected event ${this.lastSeq + 1}, got ${seq} (a gap, a repeat or out of order)`);
          this.lastSeq = seq;
          onEvent(message.event, receivedAt);
          this.#settle();
        }
      });
    });
    // A run that fails before `live` must not leave an unhandled rejection behind.
    this.opened.catch(() => undefined);
    ws.on('error', (error) => this.#fail(`socket error: ${error.message}`));
    ws.on('close', (code, reason) => {
      if (!this.#closing) this.#fail(`closed by the server: ${code} ${reason.toString('utf8')}`);
    });
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
