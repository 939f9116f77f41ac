// @ts-check
// The live event stream: one WebSocket to /ws, resumed from the last seq the page applied whenever it
// drops (the server may also close a slow client and ask it to reconnect). Reconnects by itself with
// exponential backoff and jitter, and says what it is doing so the page can show it.

/** @import { StoredEvent } from './types.js' */

/**
 * `syncing`: connected, replaying what happened while away; `live`: caught up.
 * @typedef {{ state: 'connecting' } | { state: 'syncing' } | { state: 'live' }
 *   | { state: 'waiting', retryAt: number, reason: string }} Connection
 */

const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 15_000;
/** Close codes after which waiting would only slow the catch-up: the server asks for a reconnect now. */
const RECONNECT_NOW = new Set([4008, 4009, 1001]);
const QUICK_RETRY_MS = 100;
/** The browser session this socket was opened with has ended (logout, revoked, expired): retrying cannot help. */
const SESSION_ENDED = 4001;

export class LiveStream {
  /** @type {WebSocket | undefined} */ #socket;
  /** @type {ReturnType<typeof setTimeout> | undefined} */ #timer;
  #attempt = 0;
  #stopped = false;

  /**
   * @param {object} options
   * @param {() => number} options.since the seq to resume after
   * @param {(event: StoredEvent) => void} options.onEvent
   * @param {(connection: Connection) => void} options.onConnection
   * @param {() => void} options.onSessionEnded the page must sign in again; the stream has stopped
   */
  constructor(options) {
    this.options = options;
  }

  start() {
    this.#stopped = false;
    this.#connect();
  }

  stop() {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#socket?.close(1000, 'page closed');
  }

  /** Skips the wait: reconnect now (the user clicked the indicator, or the tab came back). */
  retryNow() {
    if (this.#stopped || this.#socket !== undefined) return;
    clearTimeout(this.#timer);
    this.#connect();
  }

  #connect() {
    this.options.onConnection({ state: 'connecting' });
    const url = new URL('/ws', location.href);
    url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
    url.searchParams.set('since', String(this.options.since()));
    const socket = new WebSocket(url);
    this.#socket = socket;
    socket.addEventListener('open', () => {
      this.#attempt = 0;
      this.options.onConnection({ state: 'syncing' });
    });
    socket.addEventListener('message', (message) => {
      const parsed = parseMessage(message.data);
      if (parsed === 'live') this.options.onConnection({ state: 'live' });
      // Replays overlap what the page already has; the seq says what is new.
      else if (parsed !== undefined && parsed.seq > this.options.since()) this.options.onEvent(parsed);
    });
    socket.addEventListener('close', (close) => {
      if (this.#socket !== socket) return;
      this.#socket = undefined;
      if (this.#stopped) return;
      if (close.code === SESSION_ENDED) {
        this.#stopped = true;
        this.options.onSessionEnded();
        return;
      }
      // A slow client (4008) resumes from the last event it applied, which is what since() gives.
      const delay = RECONNECT_NOW.has(close.code) && this.#attempt === 0 ? QUICK_RETRY_MS : this.#nextDelay();
      if (delay === QUICK_RETRY_MS) this.#attempt = 1;
      this.options.onConnection({
        state: 'waiting',
        retryAt: Date.now() + delay,
        reason: close.reason || (close.wasClean ? 'closed by the server' : 'connection lost'),
      });
      this.#timer = setTimeout(() => this.#connect(), delay);
    });
  }

  /** 0.5 s, 1 s, 2 s … up to 15 s, each with up to 30 % jitter so many tabs do not reconnect at once. */
  #nextDelay() {
    const base = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** this.#attempt);
    this.#attempt += 1;
    return Math.round(base * (1 + Math.random() * 0.3));
  }
}

/**
 * A server message: `{type: 'event', event}` gives the event, `{type: 'live'}` (the replay has caught
 * up) gives 'live'; anything else (`pong`, or what a newer server sends) is ignored.
 * @param {unknown} data
 * @returns {StoredEvent | 'live' | undefined}
 */
function parseMessage(data) {
  if (typeof data !== 'string') return undefined;
  try {
    const value = JSON.parse(data);
    if (value?.type === 'live') return 'live';
    const event = value?.type === 'event' ? value.event : undefined;
    if (
      typeof event?.seq === 'number' &&
      typeof event.type === 'string' &&
      typeof event.threadId === 'string'
    )
      return event;
  } catch {
    // Not JSON: nothing to apply.
  }
  return undefined;
}
