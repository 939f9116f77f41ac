// One test per fake-CLI mode (the orphan and setsid modes are in transport-orphans.test.ts): each asserts
// how the stream ends (error class and code), that every frame written was delivered in order, and that
// no process is left.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  FrameTooLargeError,
  ProcessExitError,
  TransportClosedError,
  WardenError,
} from '../../src/protocol/errors.js';
import { spawnTransport } from '../../src/transport/index.js';
import {
  FAKE_CLI,
  assertContiguous,
  assertNoProcess,
  drain,
  startFake,
  within,
} from './transport-helpers.js';

const HANG = { timeout: 20_000 };

describe('ChildTransport against the fake CLI', () => {
  test('echo: frames written are echoed in order; stdin end → clean end', HANG, async (t) => {
    const { transport } = await startFake(t, 'echo');
    const sent = [{ n: 1 }, { text: 'two  spaces', n: 2 }, { unicode: 'é😀', n: 3 }];
    const reading = drain(transport, (_frame, index) => {
      if (index === sent.length - 1) transport.endInput();
    });
    for (const frame of sent) await transport.send(frame);
    const { frames, error } = await reading;
    assert.equal(error, undefined);
    assertContiguous(frames, sent.length);
    assert.deepEqual(
      frames.map((frame) => JSON.parse(frame['line'] as string) as unknown),
      sent,
    );
    assert.deepEqual(await transport.exited, { exitCode: 0, signal: null });
    assert.equal(transport.inputEnded, true);
    await assertNoProcess(transport.pid);
  });

  test('echo through the #! line: the script runs as the command itself', HANG, async (t) => {
    const transport = await spawnTransport({
      command: FAKE_CLI,
      args: ['--mode', 'echo'],
      env: { PATH: process.env['PATH'] },
    });
    t.after(() => transport.close());
    const reading = drain(transport, () => transport.endInput());
    await transport.send({ hello: 'world' });
    const { frames, error } = await reading;
    assert.equal(error, undefined);
    assert.deepEqual(frames, [{ type: 'echo', line: '{"hello":"world"}', seq: 0 }]);
    await assertNoProcess(transport.pid);
  });

  test(
    'crash-mid-line: complete frames first, then ProcessExitError with code 3 and stderr',
    HANG,
    async (t) => {
      const { transport, diagnostics } = await startFake(t, 'crash-mid-line', { FAKE_CLI_COUNT: '5' });
      const { frames, error } = await drain(transport);
      assertContiguous(frames, 5);
      assert.ok(error instanceof ProcessExitError);
      assert.equal(error.code, 'PROCESS_EXITED');
      assert.equal(error.exitCode, 3);
      assert.equal(error.signal, null);
      assert.match(error.stderrTail, /crashing mid-line/);
      assert.match(error.message, /exited with code 3/);
      const tails = diagnostics.filter((d) => d.kind === 'truncated_tail');
      assert.equal(tails.length, 1);
      assert.match(tails[0]?.kind === 'truncated_tail' ? tails[0].excerpt : '', /^\{"type":"partial"/);
      await assertNoProcess(transport.pid);
    },
  );

  test('garbage: non-JSON lines become diagnostics, every frame arrives', HANG, async (t) => {
    const { transport, diagnostics } = await startFake(t, 'garbage');
    const { frames, error } = await drain(transport);
    assert.equal(error, undefined);
    assertContiguous(frames, 11);
    const summary = frames.at(-1);
    assert.equal(summary?.['type'], 'summary');
    const nonJson = diagnostics.filter((d) => d.kind === 'non_json');
    assert.equal(nonJson.length, summary?.['nonJsonLines']);
    assert.equal(
      diagnostics.some((d) => d.kind === 'truncated_tail'),
      false,
    );
    await assertNoProcess(transport.pid);
  });

  test('flood: 20,000 frames arrive complete and in order', HANG, async (t) => {
    const { transport } = await startFake(t, 'flood', { FAKE_CLI_COUNT: '20000', FAKE_CLI_PAD: '100' });
    const { frames, error } = await drain(transport);
    assert.equal(error, undefined);
    assertContiguous(frames, 20_000);
    assert.match(transport.stderrTail(), /flood done/);
    await assertNoProcess(transport.pid);
  });

  test(
    'huge-line over the cap: FrameTooLargeError after the frames before it; child closed',
    HANG,
    async (t) => {
      const limit = 256 * 1024;
      const { transport } = await startFake(
        t,
        'huge-line',
        { FAKE_CLI_BYTES: String(4 * 1024 * 1024) },
        { maxFrameBytes: limit },
      );
      const { frames, error } = await drain(transport);
      assert.deepEqual(frames, [{ type: 'before', seq: 0 }]);
      assert.ok(error instanceof FrameTooLargeError);
      assert.equal(error.code, 'FRAME_TOO_LARGE');
      assert.equal(error.limit, limit);
      assert.ok(error.size > limit && error.size < limit + 128 * 1024, `size ${error.size}`);
      assert.ok(transport.bufferedBytes < 2 * limit);
      // The reader stopped and the child was closed: it is gone without anyone calling close().
      await transport.exited;
      await assertNoProcess(transport.pid);
      await assert.rejects(transport.send({}), TransportClosedError);
    },
  );

  test('huge-line under the cap: a 3 MiB line is delivered whole', HANG, async (t) => {
    const bytes = 3 * 1024 * 1024;
    const { transport } = await startFake(t, 'huge-line', { FAKE_CLI_BYTES: String(bytes) });
    const { frames, error } = await drain(transport);
    assert.equal(error, undefined);
    assertContiguous(frames, 3);
    assert.equal(JSON.stringify(frames[1]).length, bytes);
    await assertNoProcess(transport.pid);
  });

  test('split-utf8: characters split across writes arrive intact', HANG, async (t) => {
    const { transport, diagnostics } = await startFake(t, 'split-utf8');
    const { frames, error } = await drain(transport);
    assert.equal(error, undefined);
    assertContiguous(frames, 5);
    for (const frame of frames) {
      assert.equal(Buffer.from(frame['text'] as string).toString('hex'), frame['hex'], String(frame['text']));
    }
    assert.deepEqual(diagnostics, []);
    await assertNoProcess(transport.pid);
  });

  test('burst-exit with code 1: all frames, then ProcessExitError with code 1', HANG, async (t) => {
    const { transport } = await startFake(t, 'burst-exit', {
      FAKE_CLI_COUNT: '5000',
      FAKE_CLI_EXIT_CODE: '1',
    });
    const { frames, error } = await drain(transport);
    assertContiguous(frames, 5000);
    assert.ok(error instanceof ProcessExitError);
    assert.equal(error.code, 'PROCESS_EXITED');
    assert.equal(error.exitCode, 1);
    assert.equal(error.signal, null);
    assert.match(error.stderrTail, /burst-exit 1/);
    await assertNoProcess(transport.pid);
  });

  test('a write after the child died rejects with TransportClosedError', HANG, async (t) => {
    const { transport } = await startFake(t, 'burst-exit', { FAKE_CLI_COUNT: '1' });
    assert.deepEqual(await transport.exited, { exitCode: 0, signal: null });
    const rejection = await transport.send({ late: true }).catch((error: unknown) => error);
    assert.ok(rejection instanceof TransportClosedError);
    assert.equal(rejection.code, 'TRANSPORT_CLOSED');
    assert.match(rejection.message, /exited \(code 0\)/);
    const { frames, error } = await drain(transport);
    assert.equal(error, undefined);
    assertContiguous(frames, 1);
    await assertNoProcess(transport.pid);
  });

  test(
    'ignore-sigterm: close escalates to SIGKILL; close is idempotent and ends frames()',
    HANG,
    async (t) => {
      const { transport } = await startFake(
        t,
        'ignore-sigterm',
        {},
        { closeGrace: { stdinMs: 100, termMs: 100 } },
      );
      const frames = transport.frames();
      assert.deepEqual(await frames.next(), { done: false, value: { type: 'ready', seq: 0 } });
      const waiting = frames.next();
      const first = transport.close();
      const second = transport.close();
      assert.equal(first, second);
      await within(5000, Promise.all([first, second]), 'close()');
      assert.deepEqual(await waiting, { done: true, value: undefined });
      assert.deepEqual(await transport.exited, { exitCode: null, signal: 'SIGKILL' });
      assert.match(transport.stderrTail(), /ignoring SIGTERM/);
      await transport.close();
      await assertNoProcess(transport.pid);
    },
  );

  test('never-respond: close ends stdin, then SIGTERM ends it; frames() ends cleanly', HANG, async (t) => {
    const { transport } = await startFake(t, 'never-respond', {}, { closeGrace: { stdinMs: 100 } });
    const reading = drain(transport);
    await transport.send({ type: 'user', text: 'anyone there?' });
    await within(5000, transport.close(), 'close()');
    const { frames, error } = await reading;
    assert.deepEqual(frames, []);
    assert.equal(error, undefined);
    assert.deepEqual(await transport.exited, { exitCode: null, signal: 'SIGTERM' });
    await assert.rejects(transport.send({}), TransportClosedError);
    await assertNoProcess(transport.pid);
  });

  test('slow-reader: a blocked write rejects when the child is killed, not hang', HANG, async (t) => {
    const { transport } = await startFake(t, 'slow-reader');
    const frames = transport.frames();
    assert.deepEqual(await frames.next(), { done: false, value: { type: 'ready', seq: 0 } });
    // Far more than a pipe holds: the write cannot complete while nobody reads.
    const blocked = transport.send({ pad: 'p'.repeat(4 * 1024 * 1024) });
    let settled = false;
    blocked.then(
      () => (settled = true),
      () => (settled = true),
    );
    const pending = await Promise.race([transport.exited.then(() => 'exited'), Promise.resolve('pending')]);
    assert.equal(pending, 'pending');
    assert.equal(settled, false);
    process.kill(transport.pid, 'SIGKILL');
    const rejection = await within(
      5000,
      blocked.catch((error: unknown) => error),
      'the blocked send',
    );
    assert.ok(rejection instanceof TransportClosedError);
    assert.equal(rejection.code, 'TRANSPORT_CLOSED');
    // The death was not asked for, so frames() reports it.
    const end = await frames.next().catch((error: unknown) => error);
    assert.ok(end instanceof ProcessExitError);
    assert.equal(end.signal, 'SIGKILL');
    assert.equal(end.exitCode, null);
    assert.ok(WardenError.isWardenError(end));
    await assertNoProcess(transport.pid);
  });

  test('frames() has a single consumer', HANG, async (t) => {
    const { transport } = await startFake(t, 'burst-exit', { FAKE_CLI_COUNT: '2' });
    const { frames } = await drain(transport);
    assertContiguous(frames, 2);
    assert.throws(() => transport.frames(), TypeError);
    await assertNoProcess(transport.pid);
  });
});
