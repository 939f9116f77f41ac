// The message schemas the input lifecycle acts on, against real messages from the transcripts; and the
// SDKMessage types, used the way an application uses them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseLifecycleMessage } from '../../src/protocol/control.js';
import { ProtocolError } from '../../src/protocol/errors.js';
import type { AnySDKMessage, SDKMessage } from '../../src/protocol/messages.js';
import type { Frame } from './helpers/frame-recorder.js';
import { cliFrames, firstCliFrame, loadTranscript } from './helpers/transcript.js';

const S1 = loadTranscript('S1');
const S3 = loadTranscript('S3-close');
const Q1 = loadTranscript('Q1');
const Q2 = loadTranscript('Q2-noperm-pta');
const ALL = ['S1', 'S2', 'S3-close', 'S4', 'Q1', 'Q2-noperm-pta'].map(loadTranscript);

const system = (subtype: string) => (frame: Frame) => frame.type === 'system' && frame.subtype === subtype;

function parsed(frame: Frame) {
  const result = parseLifecycleMessage(frame);
  assert.ok(result !== undefined, 'a lifecycle message');
  assert.ok(!(result instanceof ProtocolError), result instanceof ProtocolError ? result.message : undefined);
  assert.equal(result, frame, 'the same object comes back');
  return result;
}

describe('lifecycle messages from real transcripts', () => {
  it('result/success (S1)', () => {
    const result = parsed(firstCliFrame(S1, (f) => f.type === 'result', 'result'));
    assert.ok(result.type === 'result');
    assert.equal(result.subtype, 'success');
    assert.equal(result.is_error, false);
    assert.equal(result.origin, undefined);
  });

  it('result/error_during_execution (Q2) carries errors', () => {
    const result = parsed(firstCliFrame(Q2, (f) => f.type === 'result', 'result'));
    assert.ok(result.type === 'result');
    assert.equal(result.subtype, 'error_during_execution');
    assert.equal(result.is_error, true);
    assert.equal(result.errors?.length, 1);
  });

  it('a result of a turn the CLI started by itself (Q1) has origin.kind task-notification', () => {
    const results = cliFrames(Q1).filter((f) => f.type === 'result');
    const last = parsed(results.at(-1)!);
    assert.ok(last.type === 'result');
    assert.equal(last.origin?.kind, 'task-notification');
    assert.equal(last.origin?.runId, firstCliFrame(Q1, system('task_started'), 'task_started').run_id);
  });

  it('system/init (S1): session id and capabilities', () => {
    const init = parsed(firstCliFrame(S1, system('init'), 'init'));
    assert.ok(init.type === 'system' && init.subtype === 'init');
    assert.match(init.session_id, /^[0-9a-f-]{36}$/);
    assert.ok(init.capabilities?.includes('interrupt_receipt_v1'));
    assert.equal(init.claude_code_version, '2.1.328');
  });

  it('task_started, task_updated and task_notification (Q1) name the same task', () => {
    const started = parsed(firstCliFrame(Q1, system('task_started'), 'task_started'));
    const updated = parsed(firstCliFrame(Q1, system('task_updated'), 'task_updated'));
    const notified = parsed(firstCliFrame(Q1, system('task_notification'), 'task_notification'));
    assert.ok(started.type === 'system' && started.subtype === 'task_started');
    assert.ok(updated.type === 'system' && updated.subtype === 'task_updated');
    assert.ok(notified.type === 'system' && notified.subtype === 'task_notification');
    assert.equal(started.is_backgrounded, true);
    assert.equal(updated.task_id, started.task_id);
    assert.equal(updated.patch.status, 'killed');
    assert.equal(notified.task_id, started.task_id);
    assert.equal(notified.status, 'stopped');
    assert.equal(notified.tool_use_id, started.tool_use_id);
  });

  it('task_notification completed (S3) keeps its extra fields', () => {
    const notified = parsed(firstCliFrame(S3, system('task_notification'), 'task_notification'));
    assert.ok(notified.type === 'system' && notified.subtype === 'task_notification');
    assert.equal(notified.status, 'completed');
    assert.equal(notified.summary_is_report, true);
  });

  it('background_tasks_changed (Q1): the full list, then empty', () => {
    const levels = cliFrames(Q1).filter(system('background_tasks_changed')).map(parsed);
    const tasks = levels.map((level) =>
      level.type === 'system' && level.subtype === 'background_tasks_changed' ? level.tasks : undefined,
    );
    assert.equal(tasks[0]?.length, 1);
    assert.equal(tasks[0]?.[0]?.task_id, firstCliFrame(Q1, system('task_started'), 'task_started').task_id);
    assert.deepEqual(tasks.at(-1), []);
  });

  it('session_state_changed, with sdk_host_only (S1) and without (Q1)', () => {
    const states = cliFrames(S1).filter(system('session_state_changed')).map(parsed);
    assert.deepEqual(
      states.map((s) => (s.type === 'system' && s.subtype === 'session_state_changed' ? s.state : undefined)),
      ['running', 'requires_action', 'running', 'idle'],
    );
    assert.ok(
      states.every((s) => s.type === 'system' && s.subtype === 'session_state_changed' && s.sdk_host_only),
    );
    const plain = parsed(firstCliFrame(Q1, system('session_state_changed'), 'state'));
    assert.ok(plain.type === 'system' && plain.subtype === 'session_state_changed');
    assert.equal(plain.sdk_host_only, undefined);
  });

  it('no message in any transcript is malformed, and every one comes back untouched', () => {
    let lifecycle = 0;
    for (const entries of ALL) {
      for (const frame of cliFrames(entries)) {
        const before = JSON.stringify(frame);
        const result = parseLifecycleMessage(frame);
        assert.ok(
          !(result instanceof ProtocolError),
          result instanceof ProtocolError ? result.message : undefined,
        );
        if (result !== undefined) lifecycle += 1;
        assert.equal(JSON.stringify(frame), before);
      }
    }
    assert.ok(lifecycle > 50, `saw ${lifecycle} lifecycle messages`);
  });
});

describe('unknown and malformed messages', () => {
  it('types and subtypes the lifecycle does not act on are none of its business', () => {
    for (const frame of [
      { type: 'assistant', message: {} },
      { type: 'command_lifecycle', state: 'queued' },
      { type: 'system', subtype: 'brand_new_subtype', anything: [1, 2] },
      { type: 'system' },
      { type: 'keep_alive' },
      'not an object',
      null,
    ]) {
      assert.equal(parseLifecycleMessage(frame), undefined);
    }
  });

  it('unknown fields on a known message pass through', () => {
    const frame = { type: 'result', subtype: 'success', is_error: false, brand_new: { nested: [1] } };
    assert.equal(parseLifecycleMessage(frame), frame);
    assert.deepEqual(frame.brand_new, { nested: [1] });
  });

  const malformed: [string, Frame][] = [
    ['task_started without task_id', { type: 'system', subtype: 'task_started', description: 'x' }],
    [
      'task_notification with a numeric task_id',
      { type: 'system', subtype: 'task_notification', task_id: 1, status: 'completed' },
    ],
    [
      'background_tasks_changed with tasks not a list',
      { type: 'system', subtype: 'background_tasks_changed', tasks: {} },
    ],
    [
      'background_tasks_changed with a task without id',
      { type: 'system', subtype: 'background_tasks_changed', tasks: [{}] },
    ],
    [
      'session_state_changed with an unknown state',
      { type: 'system', subtype: 'session_state_changed', state: 'asleep' },
    ],
    ['init without session_id', { type: 'system', subtype: 'init' }],
    ['result with a numeric subtype', { type: 'result', subtype: 1 }],
  ];
  for (const [name, frame] of malformed) {
    it(`${name} → ProtocolError, not a throw`, () => {
      const result = parseLifecycleMessage(frame);
      assert.ok(result instanceof ProtocolError);
      assert.equal(result.code, 'PROTOCOL_ERROR');
    });
  }

  it('never throws, whatever it is given', () => {
    const subtypes = fc.constantFrom(
      'init',
      'task_started',
      'task_notification',
      'background_tasks_changed',
      'x',
    );
    fc.assert(
      fc.property(fc.constantFrom('system', 'result'), subtypes, fc.anything(), (type, subtype, extra) => {
        const frame = { type, subtype, task_id: extra, tasks: extra, state: extra, session_id: extra };
        const result = parseLifecycleMessage(frame);
        assert.ok(result === undefined || result === frame || result instanceof ProtocolError);
      }),
      { numRuns: 500 },
    );
  });
});

describe('SDKMessage types', () => {
  // Narrowing on type/subtype must reach the fields, as with the official SDK's union.
  function summarise(message: SDKMessage): string | undefined {
    if (message.type === 'assistant')
      return message.message.content
        .map((block) => (block.type === 'text' ? block.text : block.type))
        .join(' ');
    if (message.type === 'result')
      return message.subtype === 'success'
        ? `result: ${message.result}`
        : `error: ${message.errors.join('; ')}`;
    if (message.type === 'system' && message.subtype === 'task_started') return `task ${message.task_id}`;
    if (message.type === 'system' && message.subtype === 'init') return `init ${message.model}`;
    return undefined;
  }

  it('read the transcripts as an application would', () => {
    const lines = cliFrames(S3)
      .filter((frame) => !String(frame.type).startsWith('control_'))
      .map((frame) => summarise(frame as AnySDKMessage as SDKMessage))
      .filter((line) => line !== undefined);
    assert.ok(lines.includes('init claude-opus-5-5'));
    assert.ok(lines.includes('tool_use'));
    assert.ok(lines.some((line) => line.startsWith('task ')));
    assert.ok(lines.includes('result: ROOT: subagent reported back.'));
  });
});
