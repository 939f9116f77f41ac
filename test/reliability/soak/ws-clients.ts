// WebSocket clients that come and go: each opens `/ws?since=<seq>`, reads the replay and some live events,
// and vanishes — an abrupt drop (no close handshake), a clean close, or a drop in the middle of its replay.
// Every event any client saw is kept (by seq) to be compared with the log afterwards; a client that sees
// a gap in the seqs, or two different events under one seq, is recorded as a violation at once.
import WebSocket from 'ws';

import { between, type Random } from './random.js';

export interface SeenEvent {
  readonly threadId: string;
  readonly threadSeq: number;
  readonly type: string;
  /** JSON of the event's data. */
  readonly data: string;
}

export interface ClientStats {
  connected: number;
  droppedMidReplay: number;
  dropped: number;
  closed: number;
  refused: number;
  eventsReceived: number;
}

export class WsClients {
  readonly seen = new Map<number, SeenEvent>();
  readonly violations: string[] = [];
  readonly stats: ClientStats = {
    connected: 0,
    droppedMidReplay: 0,
    dropped: 0,
    closed: 0,
    refused: 0,
    eventsReceived: 0,
  };
  readonly #open = new Set<WebSocket>();
  readonly #random: Random;

  constructor(random: Random) {
    this.#random = random;
  }

  get openCount(): number {
    return this.#open.size;
  }

  /** One client's life: resolves when it is gone. `lifeMs` bounds how long it stays. */
  async visit(url: string, token: string, since: number, lifeMs: number): Promise<void> {
    const random = this.#random;
    const ending = random();
    // A third of the clients leave during their replay, after a few events.
    const dropAfterReplayed = ending < 0.33 ? between(random, 1, 200) : undefined;
    const ws = new WebSocket(`${url.replace('http', 'ws')}/ws?since=${since}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    this.#open.add(ws);
    let expected = since + 1;
    let replayed = 0;
    let live = false;
    let leaving = false;
    const gone = new Promise<void>((resolve) => ws.once('close', () => resolve()));
    ws.on('error', () => undefined);
    ws.once('unexpected-response', (_request, response) => {
      this.stats.refused += 1;
      response.resume();
      ws.terminate();
    });
    ws.once('open', () => (this.stats.connected += 1));
    ws.on('message', (raw: Buffer) => {
      const message = JSON.parse(raw.toString('utf8')) as
        | {
            type: 'event';
            event: { seq: number; threadId: string; threadSeq: number; type: string; data: unknown };
          }
        | { type: 'live'; seq: number }
        | { type: 'pong' };
      if (message.type === 'live') {
        live = true;
        return;
      }
      if (message.type !== 'event' || leaving) return;
      const { seq, threadId, threadSeq, type, data } = message.event;
      this.stats.eventsReceived += 1;
      if (seq !== expected)
        this.violations.push(`a client from since=${since} got seq ${seq}, expected ${expected}`);
      expected = seq + 1;
      const event: SeenEvent = { threadId, threadSeq, type, data: JSON.stringify(data) };
      const before = this.seen.get(seq);
      if (before === undefined) this.seen.set(seq, event);
      else if (JSON.stringify(before) !== JSON.stringify(event))
        this.violations.push(`two clients saw different events under seq ${seq}`);
      if (!live) replayed += 1;
      if (!live && dropAfterReplayed !== undefined && replayed >= dropAfterReplayed) {
        this.stats.droppedMidReplay += 1;
        leaving = true;
        ws.terminate();
      }
    });
    const timer = setTimeout(() => {
      if (ws.readyState !== WebSocket.OPEN) return ws.terminate();
      if (ending < 0.66) {
        this.stats.dropped += 1;
        ws.terminate();
      } else {
        this.stats.closed += 1;
        ws.close(1000, 'bye');
        setTimeout(() => ws.terminate(), 2000).unref();
      }
    }, lifeMs);
    await gone;
    clearTimeout(timer);
    this.#open.delete(ws);
  }

  /** Drops every client still open (the soak is ending or the host died). */
  dropAll(): void {
    for (const ws of this.#open) ws.terminate();
  }
}
