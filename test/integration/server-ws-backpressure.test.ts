// How the WebSocket stream treats slow and dead clients, driven through a fake socket whose buffer the
// test controls (a real one drains or not at the kernel's whim): a client that will not drain is told to
// reconnect (4008) with the seq to continue from, and continuing from it loses nothing; a client that does
// not answer pings is cut off.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { WS_CLOSE, type ServerMessage } from '../../src/server/index.js';
import { keepAlive, streamEvents, type StreamSocket } from '../../src/server/ws-stream.js';
import { startServerSession } from '../e2e/helpers/server-session.js';

class FakeSocket implements StreamSocket {
  readyState = 1;
  bufferedAmount = 0;
  readonly sent: ServerMessage[] = [];
  closedWith: { code: number; reason: string } | undefined;
  #onClose: (() => void) | undefined;
  #onLive: (() => void) | undefined;

  /** `drains`: the OS takes each frame at once; otherwise frames pile up in the buffer. */
  constructor(private readonly drains: boolean) {}

  send(data: string, callback: () => void): void {
    const message = JSON.parse(data) as ServerMessage;
    this.sent.push(message);
    if (message.type === 'live') this.#onLive?.();
    if (this.drains) queueMicrotask(callback);
    else this.bufferedAmount += Buffer.byteLength(data);
  }

  close(code: number, reason: string): void {
    this.closedWith = { code, reason };
    this.readyState = 3;
    this.#onClose?.();
  }

  on(_event: 'close', listener: () => void): void {
    this.#onClose = listener;
  }

  /** Resolves when the stream has sent its `live` marker. */
  live(): Promise<void> {
    if (this.sent.some((m) => m.type === 'live')) return Promise.resolve();
    return new Promise((resolve) => (this.#onLive = resolve));
  }

  seqs(): number[] {
    return this.sent.flatMap((m) => (m.type === 'event' ? [m.event.seq] : []));
  }
}

async function withEvents(t: Parameters<typeof startServerSession>[0], count: number) {
  const session = await startServerSession(t);
  for (let i = 0; i < count; i += 1)
    await session.sup.createThread({ cwd: session.scratch.cwd, mode: 'supervised' });
  return session;
}

describe('WebSocket stream: slow and dead clients', () => {
  it('tells a client whose buffer passes the cap to reconnect, with the seq to continue from', async (t) => {
    const { sup } = await withEvents(t, 6);
    const slow = new FakeSocket(false);
    // Each event frame is a few hundred bytes: the cap lets about two through.
    const limits = { maxBufferedBytes: 500, highWaterBytes: Number.POSITIVE_INFINITY, drainTimeoutMs: 1000 };
    await streamEvents(slow, sup, { since: 0, limits });
    const delivered = slow.seqs();
    assert.ok(delivered.length >= 1 && delivered.length < 6, `some, not all: ${delivered.join(',')}`);
    assert.deepEqual(
      delivered,
      delivered.map((_, i) => i + 1),
      'a gapless prefix',
    );
    const last = delivered.at(-1)!;
    assert.deepEqual(slow.closedWith, {
      code: WS_CLOSE.TOO_SLOW,
      reason: `client too slow; reconnect with since=${last}`,
    });

    // Reconnecting from the seq in the reason delivers exactly the rest.
    const again = new FakeSocket(true);
    const streaming = streamEvents(again, sup, { since: last, limits });
    await again.live();
    assert.deepEqual([...delivered, ...again.seqs()], [1, 2, 3, 4, 5, 6]);
    assert.deepEqual(again.sent.at(-1), { type: 'live', seq: 6 });
    again.close(1000, 'bye');
    await streaming;
  });

  it('tells a client whose socket stops draining to reconnect after the drain timeout', async (t) => {
    const { sup } = await withEvents(t, 3);
    const stalled = new FakeSocket(false);
    const limits = { maxBufferedBytes: 1_000_000, highWaterBytes: 1, drainTimeoutMs: 50 };
    await streamEvents(stalled, sup, { since: 0, limits });
    assert.deepEqual(stalled.seqs(), [1], 'nothing more is pulled while the first frame is stuck');
    assert.deepEqual(stalled.closedWith, {
      code: WS_CLOSE.TOO_SLOW,
      reason: 'client too slow; reconnect with since=1',
    });
  });

  it('cuts off a client that does not answer a ping before the next one', (t) => {
    t.mock.timers.enable({ apis: ['setInterval'] });
    const calls: string[] = [];
    let pong: (() => void) | undefined;
    const stop = keepAlive(
      {
        ping: () => calls.push('ping'),
        terminate: () => calls.push('terminate'),
        on: (_event: 'pong', listener: () => void) => (pong = listener),
      },
      1000,
    );
    t.mock.timers.tick(1000);
    pong?.();
    t.mock.timers.tick(1000);
    assert.deepEqual(calls, ['ping', 'ping'], 'answered: pinged again');
    t.mock.timers.tick(1000);
    assert.deepEqual(calls, ['ping', 'ping', 'terminate'], 'silent: terminated');
    stop();
  });
});
