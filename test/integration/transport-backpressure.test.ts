// Backpressure, not loss: a slow consumer slows the CLI down, memory stays bounded, and a burst written
// just before exit is delivered whole.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { assertContiguous, assertNoProcess, drain, startFake } from './transport-helpers.js';

const HANG = { timeout: 60_000 };

describe('backpressure', () => {
  test(
    'burst: 100,000 lines written just before exit all arrive, in order, to a pausing consumer',
    HANG,
    async (t) => {
      const { transport } = await startFake(t, 'burst-exit', { FAKE_CLI_COUNT: '100000' });
      const { frames, error } = await drain(transport, async (_frame, index) => {
        if (index % 1000 === 999) await delay(1);
      });
      assert.equal(error, undefined);
      assertContiguous(frames, 100_000);
      assert.deepEqual(await transport.exited, { exitCode: 0, signal: null });
      await assertNoProcess(transport.pid);
    },
  );

  test('flood of 50 MB: a paused consumer blocks the CLI; everything arrives on resume', HANG, async (t) => {
    const count = 50_000;
    const { transport } = await startFake(t, 'flood', {
      FAKE_CLI_COUNT: String(count),
      FAKE_CLI_PAD: '1000',
    });
    const frames = transport.frames();
    const first = await frames.next();
    assert.equal(first.value?.['seq'], 0);

    // The consumer now stops pulling. Without backpressure the transport would swallow all 50 MB in well
    // under this window and the CLI would exit; with it, the CLI stays blocked on a full pipe.
    let exited = false;
    void transport.exited.then(() => (exited = true));
    let peak = 0;
    for (let i = 0; i < 10; i += 1) {
      await delay(50);
      peak = Math.max(peak, transport.bufferedBytes);
    }
    assert.equal(exited, false, 'the CLI finished writing while the consumer was paused');
    assert.doesNotMatch(transport.stderrTail(), /flood done/);
    assert.ok(peak < 1024 * 1024, `the transport buffered ${peak} bytes`);

    let next = 1;
    for await (const frame of frames) {
      if (frame['seq'] !== next) assert.fail(`frame ${next} has seq ${String(frame['seq'])}`);
      next += 1;
      peak = Math.max(peak, transport.bufferedBytes);
    }
    assert.equal(next, count);
    assert.ok(peak < 1024 * 1024, `the transport buffered ${peak} bytes`);
    assert.match(transport.stderrTail(), /flood done/);
    assert.deepEqual(await transport.exited, { exitCode: 0, signal: null });
    await assertNoProcess(transport.pid);
  });
});
