// One WebSocket client's event stream: the log replayed after `since`, a `live` marker, then new events as
// they are committed. The replay is read from the store by this client alone; live events come from the
// supervisor's shared feed (live-feed.ts), read and serialised once for every client. What the server holds
// per client is capped: the socket's buffer (the stream waits past `highWaterBytes`), one replay page (sized
// in bytes, not events: REPLAY_PAGE_BYTES), and the live events queued for it (`maxBufferedBytes`). A
// client whose socket will not drain, or whose queue passes the cap, is told to reconnect (close 4008, with
// the seq to continue from) instead of making the server hoard its backlog.
import { ConflictError } from '../protocol/errors.js';
import type { Supervisor } from '../supervisor/index.js';
import { WS_CLOSE, type ServerMessage } from './api-schema.js';
import { PAGE } from './event-reader.js';
import { liveFeedOf, toLiveEvent, type LiveEvent } from './live-feed.js';

/** The part of a `ws` WebSocket the stream uses (tests substitute a fake). */
export interface StreamSocket {
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: string, callback: (error?: Error) => void): void;
  close(code: number, reason: string): void;
  on(event: 'close', listener: () => void): unknown;
}

/** The connection under the WebSocket: corked while a page's frames are written, they leave in one write. */
export interface Corkable {
  cork(): void;
  uncork(): void;
}

export interface StreamLimits {
  /** Past this many bytes waiting (in the socket, or queued for it), the client is told to reconnect. */
  maxBufferedBytes: number;
  /** Above this, the stream waits for the socket to drain before sending the next event. */
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
/** About what one replay page may hold; pages shrink or grow (up to PAGE events) to stay near it. */
export const REPLAY_PAGE_BYTES = 256 * 1024;
const FIRST_REPLAY_PAGE = 4;

/** The next replay page size, so that a page of events like the last one holds about REPLAY_PAGE_BYTES. */
function nextPageSize(limit: number, bytes: number): number {
  return Math.max(1, Math.min(PAGE, Math.floor((limit * REPLAY_PAGE_BYTES) / Math.max(1, bytes))));
}

/**
 * Streams until the socket closes, the client falls behind, or the supervisor closes. The replay reads
 * pages that never wait; when one comes back short it has everything up to the log's end, and in the same
 * synchronous step the stream joins the shared feed: replayed events up to the feed's position are sent,
 * then the `live` marker, then the feed's pages after it — so nothing at the switch is missed or repeated.
 */
export async function streamEvents(
  socket: StreamSocket,
  supervisor: Supervisor,
  options: { since: number; threadId?: string; limits: StreamLimits; cork?: Corkable },
): Promise<void> {
  const { limits, threadId, cork } = options;
  const thread = threadId === undefined ? {} : { threadId };
  /** The last seq sent (what a reconnect continues from). */
  let sent = options.since;
  /** Events at or before this seq are already covered (sent, or not this client's thread). */
  let covered = options.since;
  let queuedBytes = (): number => 0;
  /** The live queue passed the cap (live-feed.ts): the client is let go. */
  let overflowed = false;

  // Frames are acknowledged in order (ws calls back once each is handed to the OS), so counting them says
  // whether the last one has gone, without a promise per frame.
  let written = 0;
  let acked = 0;
  let onAck: (() => void) | undefined;
  const ack = (): void => {
    acked += 1;
    onAck?.();
  };
  const drained = (): Promise<boolean> => {
    const target = written;
    if (acked >= target) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish(false), limits.drainTimeoutMs);
      timer.unref();
      const finish = (ok: boolean): void => {
        clearTimeout(timer);
        onAck = undefined;
        resolve(ok);
      };
      onAck = () => {
        if (overflowed) finish(false);
        else if (acked >= target) finish(true);
      };
    });
  };
  const tooSlow = (): false => {
    socket.close(WS_CLOSE.TOO_SLOW, `client too slow; reconnect with since=${String(sent)}`);
    return false;
  };

  /** Sends a page's frames (corked, so they leave together); false when the stream must stop. */
  const deliver = async (events: readonly LiveEvent[]): Promise<boolean> => {
    for (let i = 0; i < events.length;) {
      let wait = false;
      cork?.cork();
      try {
        for (; i < events.length && !wait; i += 1) {
          const event = events[i]!;
          if (event.seq <= covered || (threadId !== undefined && event.threadId !== threadId)) continue;
          if (socket.readyState !== OPEN) return false;
          if (overflowed || socket.bufferedAmount + queuedBytes() > limits.maxBufferedBytes) return tooSlow();
          socket.send(event.frame, ack);
          written += 1;
          sent = event.seq;
          wait = socket.bufferedAmount > limits.highWaterBytes;
        }
      } finally {
        cork?.uncork();
      }
      if (wait && !(await drained())) return tooSlow();
    }
    return true;
  };

  const subscription = await replay();
  if (subscription === undefined) return;
  try {
    void send(socket, { type: 'live', seq: sent });
    for (;;) {
      const page = await subscription.next();
      if (page === undefined && subscription.overflowed) return void tooSlow();
      if (page === undefined) break;
      if (!(await deliver(page))) return;
      covered = page.at(-1)?.seq ?? covered;
    }
  } finally {
    subscription.unsubscribe();
  }
  // The supervisor closed (the server is shutting down).
  if (socket.readyState === OPEN) socket.close(WS_CLOSE.GOING_AWAY, 'server shutting down');

  /** Sends the log after `since`, then joins the feed; undefined when the stream has ended. */
  async function replay() {
    const closed = new Promise<undefined>((resolve) => socket.on('close', () => resolve(undefined)));
    try {
      for (let limit = FIRST_REPLAY_PAGE; ;) {
        if (socket.readyState !== OPEN) return undefined;
        const page = supervisor.readEvents({ after: covered, limit, ...thread });
        if (page.length < limit) {
          // Caught up with the log as of this read: join now, before anything else can be committed.
          const subscription = liveFeedOf(supervisor).subscribe(limits.maxBufferedBytes);
          const position = subscription.position;
          queuedBytes = () => subscription.queuedBytes;
          subscription.onOverflow = () => {
            overflowed = true;
            onAck?.();
          };
          const before = page.filter((event) => event.seq <= position).map(toLiveEvent);
          // Later events come from the subscription, which queues them while these are sent.
          void closed.then(() => subscription.unsubscribe());
          if (!(await deliver(before))) {
            subscription.unsubscribe();
            return undefined;
          }
          covered = Math.max(covered, position);
          return subscription;
        }
        // Only the frames are kept while they are sent (the parsed events go now), and the next page is
        // sized by what these weighed.
        const frames = page.map(toLiveEvent);
        page.length = 0;
        limit = nextPageSize(
          limit,
          frames.reduce((sum, event) => sum + event.frame.length, 0),
        );
        if (!(await deliver(frames))) return undefined;
        covered = frames.at(-1)?.seq ?? covered;
      }
    } catch (error) {
      // The supervisor closed between two reads: the same as it closing while we follow.
      if (!(error instanceof ConflictError)) throw error;
      if (socket.readyState === OPEN) socket.close(WS_CLOSE.GOING_AWAY, 'server shutting down');
      return undefined;
    }
  }
}

/** Resolves when the frame has been handed to the OS (ws calls back then), or with an error. */
export function send(socket: StreamSocket, message: ServerMessage): Promise<void> {
  return new Promise((resolve) => socket.send(JSON.stringify(message), () => resolve()));
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
