// One WebSocket connection to the server's event stream (`/ws`) as a queue of events: what a closed
// connection said (its code, reason, or the HTTP status of a refused upgrade) is kept for the caller,
// which decides whether to open it again (server-client.ts).
import WebSocket from 'ws';

import type { StoredEvent } from '../../store/event-types.js';

export interface Closed {
  code: number;
  reason: string;
  /** The HTTP status of a refused upgrade, else null. */
  status: number | null;
}

/** `next()` is undefined once it has closed. */
export class EventSocket {
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
