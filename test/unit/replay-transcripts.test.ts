// Replays the control traffic of real Claude Code 2.1.328 sessions (driven by the official SDK 0.3.328)
// through a ControlChannel and checks that every line the channel writes is the line the official SDK
// wrote, request ids aside. The host policy below plays the part of the session's canUseTool glue: the
// channel itself knows nothing about permissions.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Frame } from './helpers/frame-recorder.js';
import { hostFrames, loadTranscript, replayTranscript, withoutRequestIds } from './helpers/transcript.js';
import type { ReplayReport } from './helpers/transcript.js';

const allow = (request: Frame): Frame => ({
  behavior: 'allow',
  updatedInput: request.input,
  toolUseID: request.tool_use_id,
});
const denyWith =
  (message: string) =>
  (request: Frame): Frame => ({ behavior: 'deny', message, toolUseID: request.tool_use_id });

/** Every written reply equals the recorded one, byte for byte (same keys, same order). */
function assertRepliesMatch(report: ReplayReport): void {
  for (const exchange of report.inbound) {
    if (exchange.withdrawn) continue;
    assert.ok(exchange.recordedReply, `the transcript answers ${exchange.requestId}`);
    assert.equal(JSON.stringify(exchange.reply), JSON.stringify(exchange.recordedReply));
    assert.equal(exchange.reply?.response.response.toolUseID, exchange.request.tool_use_id);
  }
}

/** Every request the channel wrote is the recorded line with a fresh id in the official SDK's format. */
function assertRequestsMatch(report: ReplayReport): void {
  for (const exchange of report.outbound) {
    assert.equal(
      JSON.stringify(withoutRequestIds(exchange.frame)),
      JSON.stringify(withoutRequestIds(exchange.recordedFrame)),
    );
    assert.match(String(exchange.frame.request_id), /^[0-9a-z]{7,13}$/);
    assert.ok(exchange.recordedResponse, `the CLI answered ${exchange.subtype}`);
    assert.equal(exchange.outcome.status, 'fulfilled');
    if (exchange.outcome.status === 'fulfilled') {
      assert.deepEqual(exchange.outcome.value, exchange.recordedResponse.response.response ?? {});
    }
  }
}

function assertClean(report: ReplayReport): void {
  assert.deepEqual(report.unclaimedControlFrames, []);
  assert.deepEqual(report.errors, []);
  assert.ok(report.passedOn.length > 0);
  assert.ok(report.passedOn.every((frame) => !String(frame.type).startsWith('control_')));
}

describe('replaying real transcripts', () => {
  it('S1: allow — initialize resolves with the CLI payload, the allow reply matches the recorded line', async () => {
    const report = await replayTranscript(loadTranscript('S1'), { answer: allow });
    assertClean(report);
    assert.equal(report.inbound.length, 1);
    assert.equal(report.inbound[0]?.request.subtype, 'can_use_tool');
    assertRepliesMatch(report);
    assert.deepEqual(
      report.outbound.map((exchange) => exchange.subtype),
      ['initialize'],
    );
    assertRequestsMatch(report);
    const init = report.outbound[0]?.outcome;
    assert.ok(init?.status === 'fulfilled' && Array.isArray(init.value.commands));
  });

  it('S2: deny — the deny reply with its message and toolUseID matches the recorded line', async () => {
    const report = await replayTranscript(loadTranscript('S2'), {
      answer: denyWith('Denied by S2 test policy'),
    });
    assertClean(report);
    assertRepliesMatch(report);
    assertRequestsMatch(report);
    assert.equal(report.inbound[0]?.reply?.response.response.behavior, 'deny');
  });

  it('S3-close: two permission requests from a background subagent after the root result', async () => {
    const entries = loadTranscript('S3-close');
    const report = await replayTranscript(entries, { answer: allow });
    assertClean(report);
    assert.equal(report.inbound.length, 2);
    assert.ok(report.inbound.every((exchange) => typeof exchange.request.agent_id === 'string'));
    assertRepliesMatch(report);
    assertRequestsMatch(report);
    // The channel's replies went out in the recorded order, after the initialize request.
    const replies = report.written.filter((frame) => frame.type === 'control_response');
    const recorded = hostFrames(entries).filter((frame) => frame.type === 'control_response');
    assert.deepEqual(
      replies.map((frame): unknown => frame.response.request_id),
      recorded.map((frame): unknown => frame.response.request_id),
    );
  });

  it('S4: interrupt while a prompt is pending — the withdrawn prompt gets no reply, interrupt resolves', async () => {
    const report = await replayTranscript(loadTranscript('S4'), { answer: denyWith('aborted') });
    assertClean(report);
    const [prompt] = report.inbound;
    assert.ok(prompt?.withdrawn);
    // The official SDK still wrote its late deny after the cancel. The CLI ignores answers to a request it
    // withdrew (in Q1 the subagent's tool result is the CLI's own rejection, not the host's message), so
    // the channel does not write one.
    assert.ok(prompt.recordedReply);
    assert.equal(prompt.reply, undefined);
    assert.deepEqual(
      report.outbound.map((exchange) => exchange.subtype),
      ['initialize', 'interrupt'],
    );
    assertRequestsMatch(report);
    const interrupt = report.outbound[1]?.outcome;
    assert.deepEqual(interrupt?.status === 'fulfilled' && interrupt.value, { still_queued: [] });
  });

  it('Q1: stop_task withdraws a subagent prompt; stop_task resolves with {}', async () => {
    const report = await replayTranscript(loadTranscript('Q1'), { answer: denyWith('host: aborted') });
    assertClean(report);
    assert.equal(report.inbound.length, 1);
    assert.ok(report.inbound[0]?.withdrawn);
    assert.equal(report.inbound[0]?.reply, undefined);
    assert.deepEqual(
      report.outbound.map((exchange) => exchange.subtype),
      ['initialize', 'stop_task'],
    );
    assertRequestsMatch(report);
    const stop = report.outbound[1]?.outcome;
    assert.deepEqual(stop?.status === 'fulfilled' && stop.value, {});
  });
});
