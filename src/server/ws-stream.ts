// One WebSocket client's event stream: the log replayed after `since`, a `live` marker, then new events as
// they are committed. Each client pulls from its own supervisor iterator, so the server holds nothing per
// client beyond what the socket buffers — and that is capped: a client whose socket will not drain is told
// to reconnect (close 4008, with the seq to continue from) instead of making the server hoard its backlog.
import { ConflictError } from '../protocol/errors.js';
import type { StoredEvent } from '../store/event-types.js';
import type { Supervisor } from '../supervisor/index.js';
import { WS_CLOSE, type ServerMessage } from './api-schema.js';
import { PAGE } from './event-reader.js';

/** The part of a `ws` WebSocket the stream uses (tests substitute a fake). */
export interface StreamSocket {
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: string, callback: (error?: Error) => void): void;
  close(code: number, reason: string): void;
  on(event: 'close', listener: () => void): unknown;
}

export interface StreamLimits {
  /** Past this many bytes waiting in the socket, the client is told to reconnect. */
  maxBufferedBytes: number;
  /** Above this, the stream waits for the socket to drain before pulling the next event. */
  highWaterBytes: number;
  /** How long a drain may take before the client counts as stalled (and is told to reconnect). */
  drainTimeoutMs: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  maxBufferedBytes: 4 * 1024 * 1024,
  highWaterBytes: 1024 * 1024,
  drainTimeoutMs: 30_000,
};

const OPEN = 1;

/**
 * Streams until the socket closes, the client falls behind, or the supervisor closes. The replay reads
 * pages that never wait; when one comes back empty, the `live` marker goes out and the supervisor's
 * events() takes over from the same seq, so nothing between the two is missed or repeated.
 */
export async function streamEvents(
  socket: StreamSocket,
  supervisor: Supervisor,
  options: { since: number; threadId?: string; limits: StreamLimits },
): Promise<void> {
  const { limits } = options;
  const thread = options.threadId === undefined ? {} : { threadId: options.threadId };
  const abort = new AbortController();
  socket.on('close', () => abort.abort());
  let sent = options.since;

  /** Sends one event; false when the client has been told to reconnect. */
  const deliver = async (event: StoredEvent): Promise<boolean> => {
    if (socket.bufferedAmount > limits.maxBufferedBytes) return tooSlow();
    const written = send(socket, { type: 'event', event });
    sent = event.seq;
    if (socket.bufferedAmount > limits.highWaterBytes && !(await drained(written, limits.drainTimeoutMs)))
      return tooSlow();
    return true;
  };
  const tooSlow = (): false => {
    socket.close(WS_CLOSE.TOO_SLOW, `client too slow; reconnect with since=${String(sent)}`);
    return false;
  };

  try {
    for (;;) {
      if (socket.readyState !== OPEN) return;
      const page = supervisor.readEvents({ after: sent, limit: PAGE, ...thread });
      if (page.length === 0) break;
      for (const event of page) if (socket.readyState !== OPEN || !(await deliver(event))) return;
    }
    void send(socket, { type: 'live', seq: sent });
    for await (const event of supervisor.events({ since: sent, signal: abort.signal, ...thread }))
      if (socket.readyState !== OPEN || !(await deliver(event))) return;
  } catch (error) {
    // The supervisor closed between two reads: the same as it closing while we follow.
    if (!(error instanceof ConflictError)) throw error;
  } finally {
    abort.abort();
  }
  // The supervisor closed (the server is shutting down).
  if (socket.readyState === OPEN) socket.close(WS_CLOSE.GOING_AWAY, 'server shutting down');
}

/** Resolves when the frame has been handed to the OS (ws calls back then), or with an error. */
export function send(socket: StreamSocket, message: ServerMessage): Promise<void> {
  return new Promise((resolve) => socket.send(JSON.stringify(message), () => resolve()));
}

async function drained(written: Promise<void>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([written.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Pings every `intervalMs`; a client that has not answered the previous ping is cut off. Browsers answer
 * pings by themselves. Returns the stop function.
 */
export function keepAlive(
  socket: { ping(): void; terminate(): void; on(event: 'pong', listener: () => void): unknown },
  intervalMs: number,
): () => void {
  let alive = true;
  socket.on('pong', () => (alive = true));
  const timer = setInterval(() => {
    if (!alive) return socket.terminate();
    alive = false;
    socket.ping();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
