// ControlChannel, requests from the CLI: handler replies, errors, cancellation, duplicates, failed writes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ControlChannel } from '../../src/control/control-channel.js';
import type { InboundHandler } from '../../src/control/control-channel.js';
import {
  AbortError,
  CallbackError,
  ControlChannelClosedError,
  ProtocolError,
  TransportClosedError,
} from '../../src/protocol/errors.js';
import type { WardenError } from '../../src/protocol/errors.js';
import { FrameRecorder, deferred, drainCallbacks, setupChannel as setup } from './helpers/frame-recorder.js';
import type { Frame } from './helpers/frame-recorder.js';

// As the CLI sent it in transcripts/S1.jsonl.
const canUseTool = {
  subtype: 'can_use_tool',
  tool_name: 'Bash',
  display_name: 'Bash',
  input: { command: 'echo hi', description: 'Print hi' },
  permission_suggestions: [
    {
      type: 'addRules',
      rules: [{ toolName: 'Bash', ruleContent: 'echo hi *' }],
      behavior: 'allow',
      destination: 'localSettings',
    },
  ],
  tool_use_id: 'toolu_mock_0001',
};

function inbound(requestId: string, request: Frame = canUseTool): Frame {
  return { type: 'control_request', request_id: requestId, request };
}

describe('ControlChannel inbound requests', () => {
  it('passes the request untouched to the handler and writes the success reply', async () => {
    const { recorder, channel } = setup();
    let seen: { request: unknown; requestId: string; aborted: boolean } | undefined;
    channel.handle('can_use_tool', (request, ctx) => {
      seen = { request, requestId: ctx.requestId, aborted: ctx.signal.aborted };
      return Promise.resolve({
        behavior: 'allow',
        updatedInput: request.input as Frame,
        toolUseID: 'toolu_mock_0001',
      });
    });
    const frame = inbound('5a3283d2');
    assert.equal(channel.receive(frame), true);
    const reply = await recorder.waitForReplyTo('5a3283d2');
    assert.equal(seen?.request, frame.request);
    assert.equal(seen?.requestId, '5a3283d2');
    assert.equal(seen?.aborted, false);
    assert.equal(
      JSON.stringify(reply),
      JSON.stringify({
        type: 'control_response',
        response: {
          subtype: 'success',
          request_id: '5a3283d2',
          response: { behavior: 'allow', updatedInput: canUseTool.input, toolUseID: 'toolu_mock_0001' },
        },
      }),
    );
  });

  it('a handler that resolves undefined sends an empty success payload', async () => {
    const { recorder, channel } = setup();
    channel.handle('hook_callback', () => Promise.resolve(undefined));
    channel.receive(inbound('h1', { subtype: 'hook_callback', callback_id: 'hook_0', input: {} }));
    assert.deepEqual((await recorder.waitForReplyTo('h1')).response, {
      subtype: 'success',
      request_id: 'h1',
      response: {},
    });
  });

  it('a handler that throws sends an error reply with its message and reports CallbackError', async () => {
    const { recorder, errors, channel } = setup();
    const thrown = new Error('policy store is down');
    channel.handle('can_use_tool', () => Promise.reject(thrown));
    channel.receive(inbound('r1'));
    const reply = await recorder.waitForReplyTo('r1');
    assert.deepEqual(reply.response, { subtype: 'error', request_id: 'r1', error: 'policy store is down' });
    assert.equal(errors.length, 1);
    assert.ok(errors[0] instanceof CallbackError);
    assert.equal(errors[0].cause, thrown);
    assert.match(errors[0].message, /r1/);
  });

  it('a handler that throws synchronously or resolves a non-object is treated the same way', async () => {
    const { recorder, errors, channel } = setup();
    channel.handle('sync_throw', () => {
      throw new Error('sync');
    });
    channel.handle('bad_value', (() => Promise.resolve('yes')) as unknown as InboundHandler);
    channel.receive(inbound('s1', { subtype: 'sync_throw' }));
    channel.receive(inbound('s2', { subtype: 'bad_value' }));
    assert.equal((await recorder.waitForReplyTo('s1')).response.error, 'sync');
    assert.equal((await recorder.waitForReplyTo('s2')).response.subtype, 'error');
    assert.equal(errors.length, 2);
  });

  it('an unknown subtype gets the unsupported_request error reply the CLI expects', async () => {
    const { recorder, errors, channel } = setup();
    channel.receive(inbound('u1', { subtype: 'future_thing', x: 1 }));
    const reply = await recorder.waitForReplyTo('u1');
    assert.equal(
      JSON.stringify(reply),
      JSON.stringify({
        type: 'control_response',
        response: {
          subtype: 'error',
          request_id: 'u1',
          error: 'Unsupported control request subtype: future_thing',
          error_code: 'unsupported_request',
        },
      }),
    );
    assert.deepEqual(errors, []);
  });

  it('control_cancel_request aborts the handler signal, and no reply is written', async () => {
    const { recorder, errors, channel } = setup();
    const answer = deferred<Frame>();
    let signal: AbortSignal | undefined;
    channel.handle('can_use_tool', (_request, ctx) => {
      signal = ctx.signal;
      return answer.promise;
    });
    channel.receive(inbound('c1'));
    assert.equal(channel.inFlightInbound, 1);
    assert.equal(channel.receive({ type: 'control_cancel_request', request_id: 'c1' }), true);
    assert.equal(signal?.aborted, true);
    assert.ok(signal?.reason instanceof AbortError);
    assert.equal(channel.inFlightInbound, 0);
    answer.resolve({ behavior: 'deny', message: 'aborted', toolUseID: 'toolu_mock_0001' });
    await drainCallbacks();
    assert.equal(recorder.replyTo('c1'), undefined);
    assert.deepEqual(recorder.frames, []);
    assert.deepEqual(errors, []);
  });

  it('a handler that rejects because it was withdrawn is not reported', async () => {
    const { recorder, errors, channel } = setup();
    channel.handle('can_use_tool', (_request, { signal }) => {
      return new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason as Error)),
      );
    });
    channel.receive(inbound('c2'));
    channel.receive({ type: 'control_cancel_request', request_id: 'c2' });
    await drainCallbacks();
    assert.deepEqual(recorder.frames, []);
    assert.deepEqual(errors, []);
  });

  it('a cancel for an id that is not in flight is ignored (it crossed our reply)', () => {
    const { recorder, errors, channel } = setup();
    assert.equal(channel.receive({ type: 'control_cancel_request', request_id: 'gone' }), true);
    assert.deepEqual(recorder.frames, []);
    assert.deepEqual(errors, []);
  });

  it('a duplicate request id while the first is in flight is ignored and reported', async () => {
    const { recorder, errors, channel } = setup();
    const answer = deferred<Frame>();
    let calls = 0;
    channel.handle('can_use_tool', () => {
      calls += 1;
      return answer.promise;
    });
    channel.receive(inbound('d1'));
    channel.receive(inbound('d1'));
    assert.equal(calls, 1);
    assert.equal(channel.inFlightInbound, 1);
    assert.ok(errors[0] instanceof ProtocolError);
    answer.resolve({ behavior: 'allow' });
    await recorder.waitForReplyTo('d1');
    await drainCallbacks();
    assert.equal(recorder.ofType('control_response').length, 1);
  });

  it('our reply echoed back by the CLI (--replay-user-messages) is ignored without a warning', async () => {
    const { recorder, channel, errors } = setup();
    channel.handle('can_use_tool', () => Promise.resolve({ behavior: 'allow', updatedInput: {} }));
    channel.receive(inbound('e1'));
    const reply = await recorder.waitForReplyTo('e1');
    assert.equal(channel.receive(reply), true);
    assert.equal(errors.length, 0);
    // A second copy, or a reply to an id nobody asked about, is still reported.
    channel.receive(reply);
    assert.equal(errors.length, 1);
    assert.ok(errors[0] instanceof ProtocolError);
  });

  it('a reply whose write fails is reported as TransportClosedError, and the request stops counting', async () => {
    const recorder = new FrameRecorder();
    recorder.failWrites(() => new Error('EPIPE'));
    const reported = deferred<WardenError>();
    const channel = new ControlChannel({ write: recorder.write, onError: reported.resolve });
    channel.handle('can_use_tool', () => Promise.resolve({ behavior: 'allow' }));
    channel.receive(inbound('w1'));
    const error = await reported.promise;
    assert.ok(error instanceof TransportClosedError);
    assert.equal(error.code, 'TRANSPORT_CLOSED');
    assert.match(error.message, /can_use_tool \(w1\)/);
    assert.equal((error.cause as Error).message, 'EPIPE');
    await drainCallbacks();
    assert.equal(channel.inFlightInbound, 0);
  });

  it('inFlightInbound counts until the reply is written, with onActivity on each change', async () => {
    const counts: number[] = [];
    const { recorder, channel } = setup({ onActivity: () => counts.push(channel.inFlightInbound) });
    const first = deferred<Frame>();
    const second = deferred<Frame>();
    const answers = [first, second];
    channel.handle('can_use_tool', () => answers.shift()!.promise);
    channel.receive(inbound('a1'));
    channel.receive(inbound('a2'));
    assert.equal(channel.inFlightInbound, 2);
    second.resolve({ behavior: 'allow' });
    await recorder.waitForReplyTo('a2');
    await drainCallbacks();
    assert.equal(channel.inFlightInbound, 1);
    first.resolve({ behavior: 'allow' });
    await recorder.waitForReplyTo('a1');
    await drainCallbacks();
    assert.equal(channel.inFlightInbound, 0);
    assert.deepEqual(counts, [1, 2, 1, 0]);
  });

  it('dispose aborts every handler signal with the cause; their replies are not written', async () => {
    const { recorder, channel, errors } = setup();
    const answer = deferred<Frame>();
    const signals: AbortSignal[] = [];
    channel.handle('can_use_tool', (_request, { signal }) => {
      signals.push(signal);
      return answer.promise;
    });
    channel.receive(inbound('x1'));
    channel.receive(inbound('x2'));
    const cause = new ControlChannelClosedError('the CLI exited');
    channel.dispose(cause);
    assert.equal(channel.inFlightInbound, 0);
    assert.deepEqual(
      signals.map((signal): unknown => signal.reason),
      [cause, cause],
    );
    answer.resolve({ behavior: 'allow' });
    await drainCallbacks();
    assert.deepEqual(recorder.frames, []);
    // A request that arrives after dispose gets no reply, and the caller hears about it.
    channel.receive(inbound('x3'));
    assert.ok(errors.at(-1) instanceof ControlChannelClosedError);
    assert.deepEqual(recorder.frames, []);
  });

  it('a malformed request that names its id gets an error reply; one without an id is only reported', async () => {
    const { recorder, errors, channel } = setup();
    assert.equal(
      channel.receive({ type: 'control_request', request_id: 'm1', request: { tool_name: 'Bash' } }),
      true,
    );
    const reply = await recorder.waitForReplyTo('m1');
    assert.equal(reply.response.subtype, 'error');
    assert.match(reply.response.error, /Invalid control_request/);
    assert.equal(channel.receive({ type: 'control_request', request: { subtype: 'can_use_tool' } }), true);
    assert.equal(errors.length, 2);
    assert.ok(errors.every((error) => error instanceof ProtocolError));
  });

  it('handle() returns an unregister function and refuses a second handler for a subtype', async () => {
    const { recorder, channel } = setup();
    const off = channel.handle('can_use_tool', () => Promise.resolve({ behavior: 'allow' }));
    assert.throws(() => channel.handle('can_use_tool', () => Promise.resolve(undefined)), TypeError);
    assert.throws(() => channel.handle('', () => Promise.resolve(undefined)), TypeError);
    assert.throws(() => channel.handle('x', 'nope' as unknown as InboundHandler), TypeError);
    off();
    channel.receive(inbound('after-off'));
    assert.equal((await recorder.waitForReplyTo('after-off')).response.error_code, 'unsupported_request');
  });

  it('receive() claims control frames only, and never throws on any input', () => {
    const { channel } = setup();
    for (const type of ['assistant', 'user', 'result', 'system', 'keep_alive', 'stream_event', undefined]) {
      assert.equal(channel.receive({ type }), false);
    }
    fc.assert(
      fc.property(
        fc.constantFrom('control_request', 'control_response', 'control_cancel_request'),
        fc.anything(),
        fc.anything(),
        (type, a, b) => {
          const claimed = channel.receive({ type, request_id: a, request: b, response: b });
          assert.equal(claimed, true);
        },
      ),
      { numRuns: 300 },
    );
    channel.dispose(new ControlChannelClosedError('test over'));
  });
});
