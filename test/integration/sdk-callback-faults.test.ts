// canUseTool that throws or returns garbage: the CLI must still get a valid answer (a deny that says what
// happened), and the caller must hear about it through onWarning. The fake CLI (permission-flood) checks
// every reply the way the real CLI validates it and reports the count.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { CallbackError, query, type CanUseTool, type PermissionResult } from '../../src/index.js';
import { assertError, collect, fakeReportMessage, fakeRun, ofType, type Frame } from './helpers/sdk-fake.js';
import { assertNoProcess } from './transport-helpers.js';

const HANG = { timeout: 20_000 };

/** The replies Warden wrote to the fake's can_use_tool requests, in order. */
function permissionReplies(received: readonly { frame: Frame }[]): Frame[] {
  return received
    .map(({ frame }) => frame)
    .filter((frame) => frame.type === 'control_response')
    .map((frame) => frame.response as Frame);
}

/** The tool_result blocks the fake wrote after each decision. */
function toolResults(messages: readonly Frame[]): Frame[] {
  return ofType(messages, 'user').map((m) => m.message.content[0] as Frame);
}

describe('query() with a canUseTool that fails', () => {
  test('a throwing canUseTool: the CLI gets a deny saying so, onWarning a CallbackError', HANG, async (t) => {
    const fake = fakeRun(t, 'permission-flood', { FAKE_CLI_COUNT: '2' });
    let calls = 0;
    const canUseTool: CanUseTool = (toolName) => {
      calls += 1;
      // Once synchronously, once as a rejected promise: both are a callback that failed.
      if (calls === 1) throw new Error(`policy store offline (${toolName})`);
      return Promise.reject(new Error('policy store offline (async)'));
    };
    const { messages, error } = await collect(
      query({ prompt: 'go', options: { ...fake.options, canUseTool } }),
    );

    assert.equal(error, undefined);
    assert.equal(calls, 2);
    const summary = fakeReportMessage(messages);
    assert.equal(summary.requested, 2);
    assert.equal(summary.valid_replies, 2, JSON.stringify(summary.first_invalid));
    const results = toolResults(messages);
    assert.deepEqual(
      results.map((r): unknown[] => [r.is_error, r.content]),
      [
        [true, 'Permission callback failed: policy store offline (Bash)'],
        [true, 'Permission callback failed: policy store offline (async)'],
      ],
    );
    const report = fake.report();
    assert.deepEqual(
      permissionReplies(report.received).map((r): unknown[] => [
        r.subtype,
        r.response.behavior,
        r.response.toolUseID,
      ]),
      [
        ['success', 'deny', 'toolu_fake_0'],
        ['success', 'deny', 'toolu_fake_1'],
      ],
    );
    const callbackErrors = fake.warnings.filter((w) => w instanceof CallbackError);
    assert.equal(callbackErrors.length, 2);
    for (const warning of callbackErrors) {
      assertError(warning, CallbackError, 'CALLBACK_FAILED');
      assert.equal(warning.callback, 'canUseTool');
      assert.match(warning.message, /policy store offline/);
    }
    await assertNoProcess(report.pid);
  });

  test('canUseTool returning garbage: each request is denied and reported', HANG, async (t) => {
    const garbage: unknown[] = [{ behavior: 'maybe' }, undefined, 'allow'];
    const fake = fakeRun(t, 'permission-flood', { FAKE_CLI_COUNT: String(garbage.length) });
    let calls = 0;
    const canUseTool: CanUseTool = () => Promise.resolve(garbage[calls++] as PermissionResult);
    const { messages, error } = await collect(
      query({ prompt: 'go', options: { ...fake.options, canUseTool } }),
    );

    assert.equal(error, undefined);
    const summary = fakeReportMessage(messages);
    assert.equal(summary.valid_replies, garbage.length, JSON.stringify(summary.first_invalid));
    const replies = permissionReplies(fake.report().received);
    assert.deepEqual(
      replies.map((r): unknown[] => [r.response.behavior, r.response.toolUseID]),
      garbage.map((_, i) => ['deny', `toolu_fake_${i}`]),
    );
    for (const reply of replies) assert.match(reply.response.message, /canUseTool returned/);
    assert.ok(toolResults(messages).every((r) => r.is_error === true));
    const callbackErrors = fake.warnings.filter((w) => w instanceof CallbackError);
    assert.equal(callbackErrors.length, garbage.length);
    assert.ok(callbackErrors.every((w) => w.code === 'CALLBACK_FAILED'));
    await assertNoProcess(fake.report().pid);
  });
});
