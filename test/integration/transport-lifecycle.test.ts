// How the caller ends things: leaving the loop early, closing while a write is blocked, and what the
// callbacks hear on the way.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ProcessExitError, TransportClosedError } from '../../src/protocol/errors.js';
import { assertContiguous, assertNoProcess, drain, startFake, within } from './transport-helpers.js';

const HANG = { timeout: 20_000 };

describe('ChildTransport lifecycle', () => {
  test('breaking out of frames() closes the CLI', HANG, async (t) => {
    const { transport } = await startFake(t, 'flood', { FAKE_CLI_COUNT: '100000', FAKE_CLI_PAD: '100' });
    let seen = 0;
    for await (const frame of transport.frames()) {
      assert.equal(frame['seq'], seen);
      seen += 1;
      if (seen === 10) break;
    }
    await within(10_000, transport.close(), 'close()');
    await transport.exited;
    await assertNoProcess(transport.pid);
  });

  test('close() while a write is blocked rejects the write and ends frames() cleanly', HANG, async (t) => {
    const { transport } = await startFake(
      t,
      'slow-reader',
      {},
      { closeGrace: { stdinMs: 50, termMs: 1000 } },
    );
    const frames = transport.frames();
    assert.deepEqual(await frames.next(), { done: false, value: { type: 'ready', seq: 0 } });
    const blocked = transport.send({ pad: 'p'.repeat(4 * 1024 * 1024) }).catch((error: unknown) => error);
    const waiting = frames.next();
    await within(5000, transport.close(), 'close()');
    const rejection = await blocked;
    assert.ok(rejection instanceof TransportClosedError);
    assert.equal(rejection.code, 'TRANSPORT_CLOSED');
    assert.deepEqual(await waiting, { done: true, value: undefined });
    assert.deepEqual(await transport.exited, { exitCode: null, signal: 'SIGTERM' });
    const late = await transport.send({}).catch((error: unknown) => error);
    assert.ok(late instanceof TransportClosedError);
    assert.match(late.message, /closed/);
    await assertNoProcess(transport.pid);
  });

  test('endInput() is idempotent and later writes reject', HANG, async (t) => {
    const { transport } = await startFake(t, 'echo');
    await transport.send({ n: 1 });
    transport.endInput();
    transport.endInput();
    assert.equal(transport.inputEnded, true);
    await assert.rejects(transport.send({ n: 2 }), TransportClosedError);
    const { frames, error } = await drain(transport);
    assert.equal(error, undefined);
    assertContiguous(frames, 1);
    await assertNoProcess(transport.pid);
  });

  test(
    'onStderr hears stderr as it comes; a throwing callback becomes a warning, not a failure',
    HANG,
    async (t) => {
      const heard: string[] = [];
      const warnings: Error[] = [];
      const onWarning = (warning: Error): void => void warnings.push(warning);
      process.on('warning', onWarning);
      t.after(() => process.off('warning', onWarning));
      const { transport } = await startFake(
        t,
        'crash-mid-line',
        {},
        {
          onStderr: (text) => heard.push(text),
          onDiagnostic: () => {
            throw new Error('a buggy diagnostic handler');
          },
        },
      );
      const { frames, error } = await drain(transport);
      assertContiguous(frames, 3);
      assert.ok(error instanceof ProcessExitError);
      assert.match(heard.join(''), /crashing mid-line/);
      // The throwing handler met the truncated last line; the stream went on to its proper end.
      assert.ok(warnings.some((warning) => warning.message === 'a buggy diagnostic handler'));
      await assertNoProcess(transport.pid);
    },
  );
});
