// query() against a CLI that misbehaves (the fake CLI's protocol fault modes). Each test asserts how the
// query ends (error class and code), that every message the CLI wrote before the fault was delivered in
// order, and that no process is left. State frames are turned off in the fake (FAKE_CLI_NO_STATE) so
// that the messages' seq numbers are contiguous: seq 0 is the initialize reply, the rest are messages.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  AbortError,
  ControlChannelClosedError,
  ErrorResultError,
  FrameTooLargeError,
  ProcessExitError,
  ProtocolError,
  query,
} from '../../src/index.js';
import { assertError, collect, fakeRun, ofType, seqs } from './helpers/sdk-fake.js';
import { assertNoProcess, assertNoProcesses, within } from './transport-helpers.js';

const HANG = { timeout: 20_000 };
const NO_STATE = { FAKE_CLI_NO_STATE: '1' };

/** seq 1 .. linesWritten - 1: every line after the initialize reply, none lost, none reordered. */
function allAfterInitialize(linesWritten: number): number[] {
  return Array.from({ length: linesWritten - 1 }, (_, i) => i + 1);
}

describe('query() when the CLI fails', () => {
  test('crash mid-turn → ProcessExitError (code 3, stderr) after every message', HANG, async (t) => {
    const fake = fakeRun(t, 'crash-mid-turn', { ...NO_STATE, FAKE_CLI_COUNT: '4' });
    const { messages, error } = await collect(query({ prompt: 'hi', options: fake.options }));

    assertError(error, ProcessExitError, 'PROCESS_EXITED');
    assert.equal(error.exitCode, 3);
    assert.equal(error.signal, null);
    assert.match(error.stderrTail, /fake-cli: fatal: the model stream broke mid-turn/);
    assert.match(error.message, /exited with code 3/);
    const report = fake.report();
    assert.deepEqual(seqs(messages), allAfterInitialize(report.linesWritten));
    assert.deepEqual(
      messages.map((m): unknown => m.message?.content?.[0]?.text ?? m.subtype),
      ['init', 'part 0', 'part 1', 'part 2', 'part 3'],
    );
    await assertNoProcess(report.pid);
  });

  test('an error result, then exit 1 → ErrorResultError with the CLI text', HANG, async (t) => {
    const fake = fakeRun(t, 'error-result-exit', NO_STATE);
    const { messages, error } = await collect(query({ prompt: 'hi', options: fake.options }));

    assertError(error, ErrorResultError, 'ERROR_RESULT');
    assert.equal(error.message, 'Claude Code returned an error result: boom happened');
    assert.deepEqual(error.errors, ['boom happened', '']);
    assert.equal(error.exitCode, 1);
    assert.match(error.stderrTail, /exiting after an error result/);
    assert.ok(error.cause instanceof ProcessExitError);
    const report = fake.report();
    assert.deepEqual(seqs(messages), allAfterInitialize(report.linesWritten));
    assert.deepEqual(
      messages.map((m): unknown => m.type),
      ['system', 'assistant', 'result'],
    );
    assert.equal(messages.at(-1)?.is_error, true);
    await assertNoProcess(report.pid);
  });

  test('garbage lines in a turn: messages intact, each bad line a ProtocolError warning', HANG, async (t) => {
    const fake = fakeRun(t, 'garbage-in-turn', NO_STATE);
    const { messages, error } = await collect(query({ prompt: 'hi', options: fake.options }));

    assert.equal(error, undefined);
    const report = fake.report();
    assert.deepEqual(seqs(messages), allAfterInitialize(report.linesWritten));
    assert.deepEqual(
      messages.map((m): unknown => m.type),
      ['system', 'assistant', 'assistant', 'assistant', 'result'],
    );
    const protocolErrors = fake.warnings.filter((w) => w instanceof ProtocolError);
    assert.equal(protocolErrors.length, 4, fake.warnings.map((w) => w.message).join('\n'));
    for (const warning of protocolErrors) assert.equal(warning.code, 'PROTOCOL_ERROR');
    assert.ok(protocolErrors.some((w) => w.message.includes('this is not json')));
    await assertNoProcess(report.pid);
  });

  test('a message over maxFrameBytes → FrameTooLargeError; the query ends, nothing left', HANG, async (t) => {
    const fake = fakeRun(t, 'huge-message', { ...NO_STATE, FAKE_CLI_BYTES: String(1024 * 1024) });
    const q = query({ prompt: 'hi', options: { ...fake.options, maxFrameBytes: 64 * 1024 } });
    const { messages, error } = await within(10_000, collect(q), 'the query');

    assertError(error, FrameTooLargeError, 'FRAME_TOO_LARGE');
    assert.equal(error.limit, 64 * 1024);
    assert.deepEqual(seqs(messages), [1], 'system/init, the only line before the huge one');
    // Not wedged: the iterator stays finished and control calls fail at once.
    assert.deepEqual(await q.next(), { value: undefined, done: true });
    await assert.rejects(q.interrupt(), ControlChannelClosedError);
    await assertNoProcess(await fake.pid);
  });

  test(
    'a grandchild holding stdout after the CLI exits 0: the query ends promptly, the orphan is killed',
    HANG,
    async (t) => {
      const fake = fakeRun(t, 'orphan-after-result', NO_STATE);
      let resultAt = 0;
      const { messages, error } = await collect(query({ prompt: 'hi', options: fake.options }), (m) => {
        if (m.type === 'result') resultAt = performance.now();
      });
      const afterResult = performance.now() - resultAt;

      assert.equal(error, undefined);
      assert.deepEqual(
        messages.map((m): unknown => m.type),
        ['system', 'assistant', 'result'],
      );
      // An upper bound that only catches waiting for the grandchild (it sleeps for days).
      assert.ok(afterResult < 1000, `the query ended ${Math.round(afterResult)} ms after the result`);
      const grandchild = await fake.grandchildPid;
      assert.ok(
        fake.warnings.some((w) => w.message.includes(`Killed`) && w.message.includes(String(grandchild))),
        'Warden reports the leftover it killed',
      );
      await assertNoProcesses([await fake.pid, grandchild]);
    },
  );

  test(
    'a CLI that never answers initialize + close(): iteration ends, initializationResult() rejects',
    HANG,
    async (t) => {
      const fake = fakeRun(t, 'never-initialize');
      const q = query({ prompt: 'hi', options: fake.options });
      const initialization = q.initializationResult();
      initialization.catch(() => undefined);
      const iterating = collect(q);
      const pid = await fake.pid;
      q.close();

      const { messages, error } = await within(5000, iterating, 'iteration after close()');
      assert.deepEqual(messages, []);
      assert.equal(error, undefined);
      await assert.rejects(initialization, (e: unknown) => {
        assertError(e, ControlChannelClosedError, 'CONTROL_CHANNEL_CLOSED');
        return true;
      });
      await assertNoProcess(pid, { deadNow: false });
      const report = fake.report();
      assert.equal(report.received[0]?.frame.request?.subtype, 'initialize');
      assert.equal(report.linesWritten, 0);
    },
  );

  test('abortController.abort() mid-turn → AbortError after the messages so far', HANG, async (t) => {
    const fake = fakeRun(t, 'hang-mid-turn', { ...NO_STATE, FAKE_CLI_COUNT: '3' });
    const abortController = new AbortController();
    const q = query({ prompt: 'hi', options: { ...fake.options, abortController } });
    const { messages, error } = await collect(q, (m) => {
      if (m.message?.content?.[0]?.text === 'part 2') abortController.abort();
    });

    assertError(error, AbortError, 'ABORTED');
    assert.deepEqual(seqs(messages), [1, 2, 3, 4]);
    assert.deepEqual(ofType(messages, 'assistant').length, 3);
    await assertNoProcess(await fake.pid, { deadNow: false });
  });
});
