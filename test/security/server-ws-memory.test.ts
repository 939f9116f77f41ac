// What a WebSocket client that never reads can make the server hold is bounded by the stream's limits, not
// by the log: its socket's buffer up to about the high-water mark (held more than once while a write is
// pending: the frames queued, their encoded bytes, the write in flight) plus one replay page. Twenty clients
// ask for a 31 MiB log from the start and never read while new events are committed; the server's memory
// grows by less than 20 × (4 × highWaterBytes + 2 × REPLAY_PAGE_BYTES) + 32 MiB = 122 MiB with the
// defaults (before, each such client pinned a whole 500-event replay page, parsed and serialised: some
// 30 MiB each here), and each client is told to go (4008) and cut off once it has not drained for
// `drainTimeoutMs`.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import WebSocket from 'ws';

import { createServer, DEFAULT_STREAM_LIMITS, WS_CLOSE } from '../../src/server/index.js';
import { REPLAY_PAGE_BYTES } from '../../src/server/ws-stream.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { Supervisor } from '../../src/supervisor/index.js';
import { createScratch, offlineClaudeEnv, pinnedClaudePath } from '../../src/testing/index.js';

const CLIENTS = 20;
const EVENTS = 1000;
const EVENT_TEXT_BYTES = 32 * 1024;
const MiB = 1024 * 1024;
/** The stated bound on the server's growth with CLIENTS stalled clients. */
const MAX_GROWTH_BYTES =
  CLIENTS * (4 * DEFAULT_STREAM_LIMITS.highWaterBytes + 2 * REPLAY_PAGE_BYTES) + 32 * MiB;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function memory(): { rss: number; heap: number } {
  const usage = process.memoryUsage();
  // Counted generously: on Node 20 `arrayBuffers` (the Buffers) is not all inside `external`.
  return { rss: usage.rss, heap: usage.heapUsed + usage.external + usage.arrayBuffers };
}

test(
  'clients that never read pin a bounded amount of memory and are closed',
  { timeout: 120_000 },
  async (t) => {
    const scratch = createScratch('warden-wsmem-');
    t.after(() => scratch.cleanup());
    const dataDir = join(scratch.dir, 'data');
    // A log far larger than a socket buffers: a thousand tool results of 32 KiB.
    const store = SqliteStore.open(join(dataDir, 'warden.db'));
    const threadId = 'memory-thread';
    store.commit(threadId, [
      {
        type: 'thread.created',
        data: { cwd: scratch.cwd, mode: 'supervised', model: null, rules: { allow: [], deny: [] } },
      },
    ]);
    for (let i = 0; i < EVENTS; i += 1)
      store.commit(threadId, [
        {
          type: 'tool.result',
          data: {
            runId: 'r',
            agentId: null,
            toolUseId: `t${i}`,
            isError: false,
            text: String(i % 10).repeat(EVENT_TEXT_BYTES),
            truncated: false,
          },
        },
      ]);
    store.close();

    const sup = await Supervisor.open({
      dataDir,
      claudePath: pinnedClaudePath(),
      env: offlineClaudeEnv({ mockUrl: 'http://127.0.0.1:9', home: scratch.home, tmpdir: scratch.tmpdir }),
    });
    t.after(() => sup.close());
    const server = await createServer({
      supervisor: sup,
      dataDir,
      onError: () => undefined,
      stream: { drainTimeoutMs: 1000 },
    });
    t.after(() => server.close());

    gc();
    const before = memory();
    let peak = before;
    const sample = (): void => {
      const now = memory();
      peak = { rss: Math.max(peak.rss, now.rss), heap: Math.max(peak.heap, now.heap) };
    };

    const clients = await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws?since=0`, {
          headers: { authorization: `Bearer ${server.token}` },
        });
        const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
        await new Promise<void>((resolve, reject) => {
          ws.once('open', () => {
            ws.pause(); // never read: everything stays in the kernel's buffers, then the server's
            resolve();
          });
          ws.once('error', reject);
        });
        return { ws, closed };
      }),
    );

    // New events keep coming while the clients stall.
    for (let i = 0; i < 20; i += 1) {
      await sup.createThread({ cwd: scratch.cwd, mode: 'supervised' });
      sample();
    }
    // Until the server has let every client go (bounded: the test's own timeout catches a hang).
    const deadline = Date.now() + 60_000;
    while (server.openSockets > 0 && Date.now() < deadline) {
      sample();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    sample();
    assert.equal(server.openSockets, 0, 'every stalled client was let go');
    const growth = { rss: peak.rss - before.rss, heap: peak.heap - before.heap };
    const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;
    t.diagnostic(
      `peak growth with ${CLIENTS} stalled clients: rss ${mib(growth.rss)}, heap ${mib(growth.heap)}`,
    );
    assert.ok(growth.heap < MAX_GROWTH_BYTES, `heap grew ${mib(growth.heap)}`);
    assert.ok(growth.rss < MAX_GROWTH_BYTES, `rss grew ${mib(growth.rss)}`);

    // Reading at last, each client finds the end of its stream: the close frame (4008) when it got out
    // before the connection was cut, else the cut itself (1006).
    for (const client of clients) client.ws.resume();
    const codes = await Promise.all(clients.map((client) => client.closed));
    for (const code of codes) assert.ok(code === WS_CLOSE.TOO_SLOW || code === 1006, `closed with ${code}`);
  },
);
