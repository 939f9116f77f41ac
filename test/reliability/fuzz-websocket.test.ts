// Fuzzing the WebSocket stream: random upgrade query strings (a 101 or a typed 4xx), then random frames a
// client sends — text, binary, pings that are not quite pings, fragments of JSON. The server must stay up:
// after each client's frames a real ping still gets its pong, nothing is reported as unexpected, and
// an HTTP request still works. Bounded for `npm test`; WARDEN_FUZZ_RUNS raises the count.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';
import WebSocket from 'ws';

import { startFuzzServer, type FuzzServer } from './fuzz-server.js';

const RUNS = Number(process.env.WARDEN_FUZZ_RUNS ?? 300);
const SECONDS = Number(process.env.WARDEN_FUZZ_SECONDS ?? (process.env.WARDEN_FUZZ_RUNS ? 3600 : 8));
const HANG_MS = 10_000;

type ClientFrame = { text: string } | { binary: Uint8Array };

const frame: fc.Arbitrary<ClientFrame> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }).map((text) => ({ text })),
  fc.jsonValue({ maxDepth: 3 }).map((value) => ({ text: JSON.stringify(value) })),
  fc
    .record({
      type: fc.oneof(fc.constantFrom('ping', 'pong', 'subscribe', 'event', 'live'), fc.string()),
      since: fc.jsonValue(),
    })
    .map((value) => ({ text: JSON.stringify(value) })),
  fc.uint8Array({ maxLength: 200 }).map((binary) => ({ binary })),
  fc.constant({ binary: Buffer.from('{"type":"ping"}') }),
);

const upgradeQuery = fc.oneof(
  { arbitrary: fc.constant(''), weight: 2 },
  {
    arbitrary: fc
      .array(
        fc.tuple(
          fc.oneof(fc.constantFrom('since', 'threadId', 'token', 'x'), fc.string({ maxLength: 5 })),
          fc.oneof(fc.constantFrom('0', '-1', '1e99', ''), fc.string({ unit: 'binary', maxLength: 12 })),
        ),
        { maxLength: 3 },
      )
      .map((pairs) => `?${new URLSearchParams(pairs).toString()}`),
    weight: 3,
  },
);

interface Connection {
  ws: WebSocket;
  /** 'open', or the HTTP status and body of a refused upgrade. */
  opened: Promise<'open' | { status: number; body: string }>;
}

function connect(fuzz: FuzzServer, query: string): Connection {
  const ws = new WebSocket(`${fuzz.server.url.replace('http', 'ws')}/ws${query}`, {
    headers: { authorization: `Bearer ${fuzz.server.token}` },
  });
  ws.on('error', () => undefined);
  const opened = new Promise<'open' | { status: number; body: string }>((resolve, reject) => {
    ws.once('open', () => resolve('open'));
    ws.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    ws.once('error', reject);
  });
  return { ws, opened };
}

/** Sends a ping and waits for the pong (other messages — the event replay — pass by). */
function pong(ws: WebSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no pong within ${HANG_MS} ms`)), HANG_MS);
    const onMessage = (data: Buffer): void => {
      if ((JSON.parse(data.toString('utf8')) as { type?: unknown }).type !== 'pong') return;
      clearTimeout(timer);
      ws.off('message', onMessage);
      resolve();
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ type: 'ping' }));
  });
}

test('WebSocket fuzz: random upgrade queries and client frames never take the stream down', async (t) => {
  const fuzz = await startFuzzServer(t);
  const started = Date.now();
  const tally = { clients: 0, refused: 0, frames: 0 };
  await fc.assert(
    fc.asyncProperty(upgradeQuery, fc.array(frame, { maxLength: 20 }), async (query, frames) => {
      tally.clients += 1;
      const { ws, opened } = connect(fuzz, query);
      try {
        const outcome = await opened;
        if (outcome !== 'open') {
          tally.refused += 1;
          assert.ok(
            outcome.status >= 400 && outcome.status < 500,
            `upgrade ${query} refused with ${outcome.status}`,
          );
          const error = (JSON.parse(outcome.body) as { error?: { code?: unknown; message?: unknown } }).error;
          assert.equal(typeof error?.code, 'string', `a refused upgrade says why: ${outcome.body}`);
          return;
        }
        for (const f of frames) ws.send('text' in f ? f.text : f.binary, { binary: !('text' in f) });
        tally.frames += frames.length;
        await pong(ws);
      } finally {
        ws.terminate();
      }
      assert.deepEqual(fuzz.unexpected, [], 'nothing was reported as unexpected');
    }),
    { numRuns: RUNS, interruptAfterTimeLimit: SECONDS * 1000 },
  );
  const info = await fetch(`${fuzz.server.url}/api/info`, {
    headers: { authorization: `Bearer ${fuzz.server.token}` },
  });
  assert.equal(info.status, 200, 'the server still answers HTTP');
  console.log(
    `[reliability] fuzz websocket: ${tally.clients} clients (${tally.refused} upgrades refused with a typed 4xx), ${tally.frames} random frames, ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
});
