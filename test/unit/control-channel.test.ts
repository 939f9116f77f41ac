// ControlChannel, the host's own requests: correlation, errors, timeouts, aborts, dispose, counts.
// Inbound requests are in control-channel-inbound.test.ts.
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { describe, it } from 'node:test';
import { ControlChannel } from '../../src/control/control-channel.js';
import type { ControlChannelOptions } from '../../src/control/control-channel.js';
import {
  AbortError,
  ControlChannelClosedError,
  ControlRequestError,
  ProtocolError,
  RequestTimeoutError,
  TransportClosedError,
} from '../../src/protocol/errors.js';
import type { WardenError } from '../../src/protocol/errors.js';
import { FrameRecorder, drainCallbacks, setupChannel as setup } from './helpers/frame-recorder.js';
import type { Frame } from './helpers/frame-recorder.js';

function success(requestId: string, response?: Frame, extra: Frame = {}): Frame {
  const body: Frame = { subtype: 'success', request_id: requestId, ...extra };
  if (response !== undefined) body.response = response;
  return { type: 'control_response', response: body };
}

function lastRequest(recorder: FrameRecorder): Frame {
  const frame = recorder.ofType('control_request').at(-1);
  assert.ok(frame, 'a control_request was written');
  return frame;
}

describe('ControlChannel.request', () => {
  it('writes the envelope the official SDK writes and resolves with the response payload', async () => {
    const { recorder, channel } = setup();
    const reply = channel.request('set_permission_mode', { mode: 'acceptEdits' });
    const frame = lastRequest(recorder);
    assert.deepEqual(Object.keys(frame), ['request_id', 'type', 'request']);
    assert.deepEqual(frame.request, { subtype: 'set_permission_mode', mode: 'acceptEdits' });
    assert.equal(channel.receive(success(frame.request_id, { ok: 1 })), true);
    assert.deepEqual(await reply, { ok: 1 });
  });

  it('resolves with {} when the success has no payload', async () => {
    const { recorder, channel } = setup();
    const reply = channel.request('interrupt');
    channel.receive(success(lastRequest(recorder).request_id));
    assert.deepEqual(await reply, {});
  });

  it('requestEnvelope keeps the pending_* lists of an initialize reply', async () => {
    const { recorder, channel } = setup();
    const reply = channel.requestEnvelope('initialize', { systemPrompt: [''] });
    const pending = [{ type: 'control_request', request_id: 'p1', request: { subtype: 'can_use_tool' } }];
    channel.receive(
      success(lastRequest(recorder).request_id, { commands: [] }, { pending_permission_requests: pending }),
    );
    const envelope = await reply;
    assert.deepEqual(envelope.response, { commands: [] });
    assert.deepEqual(envelope.pending_permission_requests, pending);
  });

  it('correlates concurrent requests answered out of order', async () => {
    const { recorder, channel } = setup();
    const first = channel.request('mcp_status');
    const second = channel.request('get_usage');
    const [a, b] = recorder.ofType('control_request');
    channel.receive(success(b?.request_id, { n: 2 }));
    channel.receive(success(a?.request_id, { n: 1 }));
    assert.deepEqual(await Promise.all([first, second]), [{ n: 1 }, { n: 2 }]);
  });

  it('uses ids in the official SDK format, unique within the channel and across channels', () => {
    const { recorder, channel } = setup();
    const other = setup();
    for (let i = 0; i < 200; i++) {
      void channel.request('interrupt').catch(() => {});
      void other.channel.request('interrupt').catch(() => {});
    }
    const ids = [...recorder.frames, ...other.recorder.frames].map((frame) => String(frame.request_id));
    assert.equal(new Set(ids).size, 400);
    for (const id of ids) assert.match(id, /^[0-9a-z]{7,13}$/);
    channel.dispose(new ControlChannelClosedError('test over'));
    other.channel.dispose(new ControlChannelClosedError('test over'));
  });

  it('an error reply rejects ControlRequestError with the CLI message and error_code', async () => {
    const { recorder, channel } = setup();
    const reply = channel.request('set_model', { model: 'bad' });
    const id = lastRequest(recorder).request_id;
    channel.receive({
      type: 'control_response',
      response: { subtype: 'error', request_id: id, error: 'bad model', error_code: 'bad_model' },
    });
    await assert.rejects(reply, (error: unknown) => {
      assert.ok(error instanceof ControlRequestError);
      assert.equal(error.code, 'CONTROL_REQUEST_FAILED');
      assert.equal(error.subtype, 'set_model');
      assert.equal(error.errorCode, 'bad_model');
      assert.match(error.message, /bad model/);
      return true;
    });
  });

  it('times out with RequestTimeoutError, withdraws the request, and ignores the late reply', async () => {
    const { recorder, errors, channel } = setup();
    const reply = channel.request('mcp_status', {}, { timeoutMs: 5 });
    const id = lastRequest(recorder).request_id;
    await assert.rejects(reply, (error: unknown) => {
      assert.ok(error instanceof RequestTimeoutError);
      assert.equal(error.code, 'REQUEST_TIMEOUT');
      assert.equal(error.timeoutMs, 5);
      return true;
    });
    assert.deepEqual(recorder.ofType('control_cancel_request'), [
      { type: 'control_cancel_request', request_id: id },
    ]);
    assert.equal(channel.pendingOutbound, 0);
    assert.equal(channel.receive(success(id, { late: true })), true);
    assert.deepEqual(errors, []);
  });

  it('abort rejects AbortError (code ABORTED), tells the CLI, and removes its listener', async () => {
    const { recorder, channel } = setup();
    const controller = new AbortController();
    const reply = channel.request('side_question', { question: 'q' }, { signal: controller.signal });
    const id = lastRequest(recorder).request_id;
    assert.equal(getEventListeners(controller.signal, 'abort').length, 1);
    controller.abort('user changed their mind');
    await assert.rejects(reply, (error: unknown) => {
      assert.ok(error instanceof AbortError);
      assert.equal(error.code, 'ABORTED');
      assert.equal(error.cause, 'user changed their mind');
      return true;
    });
    assert.deepEqual(recorder.ofType('control_cancel_request'), [
      { type: 'control_cancel_request', request_id: id },
    ]);
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
  });

  it('an already aborted signal rejects at once and writes nothing', async () => {
    const { recorder, channel } = setup();
    await assert.rejects(channel.request('interrupt', {}, { signal: AbortSignal.abort() }), AbortError);
    assert.deepEqual(recorder.frames, []);
    assert.equal(channel.pendingOutbound, 0);
  });

  it('a settled request removes its abort listener and clears its timer', async () => {
    const { recorder, channel } = setup();
    const controller = new AbortController();
    const reply = channel.request('mcp_status', {}, { signal: controller.signal, timeoutMs: 60_000 });
    channel.receive(success(lastRequest(recorder).request_id, {}));
    await reply;
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
    controller.abort();
    assert.equal(recorder.ofType('control_cancel_request').length, 0);
  });

  it('a failing write is reported and leaves the request to the close that follows, as the official SDK does', async () => {
    const { recorder, channel, errors } = setup();
    recorder.failWrites(() => new Error('EPIPE'));
    const reply = channel.request('interrupt');
    const outcome = reply.then(
      () => 'resolved',
      (error: unknown) => error,
    );
    await drainCallbacks();
    assert.equal(channel.pendingOutbound, 1);
    assert.equal(errors.length, 1);
    assert.ok(errors[0] instanceof TransportClosedError);
    assert.equal((errors[0].cause as Error).message, 'EPIPE');
    // The CLI's exit settles it like any other pending request: with the exit's error.
    const cause = new ControlChannelClosedError('the CLI exited');
    channel.dispose(cause);
    assert.equal(await outcome, cause);
    assert.equal(cause.message, 'Query closed before response received');
    assert.equal(channel.pendingOutbound, 0);
  });

  it('a malformed reply to a pending request rejects it with ProtocolError instead of hanging', async () => {
    const { recorder, channel } = setup();
    const reply = channel.request('mcp_status');
    const id = lastRequest(recorder).request_id;
    channel.receive({ type: 'control_response', response: { subtype: 'maybe', request_id: id } });
    await assert.rejects(reply, ProtocolError);
  });

  it('ControlChannelClosedError has exactly the official text; why is in reason and cause', () => {
    const exit = new Error('exit 0');
    const error = new ControlChannelClosedError('the CLI exited', { cause: exit });
    assert.equal(error.message, 'Query closed before response received');
    assert.equal(error.reason, 'the CLI exited');
    assert.equal(error.cause, exit);
    assert.equal(error.code, 'CONTROL_CHANNEL_CLOSED');
  });

  it('a response for an unknown id goes to onError and is otherwise ignored', () => {
    const { errors, channel } = setup();
    assert.equal(channel.receive(success('nobody-asked', { x: 1 })), true);
    assert.equal(errors.length, 1);
    assert.ok(errors[0] instanceof ProtocolError);
    assert.match(errors[0].message, /nobody-asked/);
  });

  it('bad arguments throw TypeError at once', () => {
    const { channel } = setup();
    assert.throws(() => channel.request(''), TypeError);
    assert.throws(() => channel.request('x', [] as unknown as Frame), TypeError);
    assert.throws(() => channel.request('x', { subtype: 'y' }), TypeError);
    assert.throws(() => channel.request('x', {}, { timeoutMs: 0 }), TypeError);
    assert.throws(() => channel.request('x', {}, { timeoutMs: Number.NaN }), TypeError);
    assert.throws(() => channel.request('x', {}, { signal: {} as AbortSignal }), TypeError);
    assert.throws(() => new ControlChannel({} as ControlChannelOptions), TypeError);
    assert.throws(
      () => new ControlChannel({ write: () => Promise.resolve(), onError: 1 } as never),
      TypeError,
    );
    assert.throws(() => channel.dispose(new Error('plain') as WardenError), TypeError);
  });
});

describe('ControlChannel.dispose', () => {
  it('rejects every pending request with the cause, and every later one', async () => {
    const { channel, recorder } = setup();
    const first = channel.request('mcp_status');
    const second = channel.request('interrupt', {}, { timeoutMs: 60_000 });
    const cause = new ControlChannelClosedError('the CLI exited');
    channel.dispose(cause);
    channel.dispose(new ControlChannelClosedError('a second reason is ignored'));
    await assert.rejects(first, (error: unknown) => error === cause);
    await assert.rejects(second, (error: unknown) => error === cause);
    await assert.rejects(channel.request('interrupt'), (error: unknown) => error === cause);
    assert.equal(channel.pendingOutbound, 0);
    // No cancel is sent for requests rejected by dispose: the transport is going away.
    assert.equal(recorder.ofType('control_cancel_request').length, 0);
  });

  it('late responses after dispose are ignored quietly', async () => {
    const { channel, recorder, errors } = setup();
    const reply = channel.request('mcp_status');
    channel.dispose(new ControlChannelClosedError('closed'));
    await assert.rejects(reply);
    channel.receive(success(lastRequest(recorder).request_id, {}));
    assert.deepEqual(errors, []);
  });
});

describe('ControlChannel counts and onActivity', () => {
  it('pendingOutbound goes up on request and down on response, with onActivity each time', async () => {
    const seen: number[] = [];
    const { recorder, channel } = setup({ onActivity: () => seen.push(channel.pendingOutbound) });
    const a = channel.request('mcp_status');
    const b = channel.request('get_usage');
    assert.equal(channel.pendingOutbound, 2);
    const [fa, fb] = recorder.ofType('control_request');
    channel.receive(success(fa?.request_id, {}));
    await a;
    assert.equal(channel.pendingOutbound, 1);
    channel.receive(success(fb?.request_id, {}));
    await b;
    assert.equal(channel.pendingOutbound, 0);
    assert.deepEqual(seen, [1, 2, 1, 0]);
  });

  it('a throwing onActivity is reported, and the request still completes', async () => {
    const { recorder, errors, channel } = setup({
      onActivity: () => {
        throw new Error('listener bug');
      },
    });
    const reply = channel.request('mcp_status');
    channel.receive(success(lastRequest(recorder).request_id, { fine: true }));
    assert.deepEqual(await reply, { fine: true });
    await drainCallbacks();
    assert.ok(errors.length >= 2);
    assert.ok(errors.every((error) => error.code === 'CALLBACK_FAILED'));
  });
});
