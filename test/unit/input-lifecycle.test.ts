import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InputLifecycle } from '../../src/session/input-lifecycle.js';

const result = (extra: Record<string, unknown> = {}) => ({ type: 'result', subtype: 'success', ...extra });
const system = (subtype: string, extra: Record<string, unknown> = {}) => ({
  type: 'system',
  subtype,
  ...extra,
});
const assistant = (parent: string | null = null) => ({
  type: 'assistant',
  parent_tool_use_id: parent,
  message: {},
});

/** The reasons input stays open, checked against the allocation-free isSettled() the hot path uses. */
function reasonsOf(lifecycle: InputLifecycle, inFlight: number): string[] {
  const { reasons } = lifecycle.openReasons(inFlight);
  assert.equal(
    lifecycle.isSettled(inFlight),
    reasons.length === 0,
    `isSettled disagrees with ${JSON.stringify(reasons)}`,
  );
  return reasons;
}

function promptSent(lifecycle: InputLifecycle): void {
  lifecycle.inputOpened();
  lifecycle.userMessageWritten();
  lifecycle.inputClosed();
}

describe('InputLifecycle', () => {
  it('keeps input open until the turn has its result', () => {
    const lifecycle = new InputLifecycle();
    promptSent(lifecycle);
    assert.deepEqual(reasonsOf(lifecycle, 0), ['1 turn(s) await a result']);
    lifecycle.observe(system('init'));
    lifecycle.observe(assistant());
    lifecycle.observe(result());
    assert.deepEqual(reasonsOf(lifecycle, 0), []);
  });

  it('keeps input open while the caller input is open, whatever else happened', () => {
    const lifecycle = new InputLifecycle();
    lifecycle.inputOpened();
    lifecycle.userMessageWritten();
    lifecycle.observe(result());
    assert.deepEqual(reasonsOf(lifecycle, 0), ['the caller input is open']);
  });

  it('keeps input open while a control request is in flight', () => {
    const lifecycle = new InputLifecycle();
    promptSent(lifecycle);
    lifecycle.observe(result());
    assert.deepEqual(reasonsOf(lifecycle, 2), ['2 control request(s) in flight']);
  });

  it('waits for a background task after the root result, without state frames', () => {
    let now = 1000;
    const lifecycle = new InputLifecycle({ now: () => now, notificationTurnGraceMs: 500 });
    promptSent(lifecycle);
    lifecycle.observe(system('background_tasks_changed', { tasks: [{ task_id: 't1' }] }));
    lifecycle.observe(system('task_started', { task_id: 't1' }));
    lifecycle.observe(result());
    assert.deepEqual(reasonsOf(lifecycle, 0), ['1 background task(s) running']);
    // The subagent's own messages carry a parent tool use id: they do not open a root turn.
    lifecycle.observe(assistant('toolu_agent'));
    lifecycle.observe(system('task_notification', { task_id: 't1', status: 'completed' }));
    lifecycle.observe(system('background_tasks_changed', { tasks: [] }));
    const waiting = lifecycle.openReasons(0);
    assert.equal(waiting.reasons.length, 1);
    assert.match(waiting.reasons[0]!, /may start a turn/);
    assert.equal(waiting.recheckAt, 1500);
    assert.equal(lifecycle.graceEndsAt, 1500);
    assert.equal(lifecycle.isSettled(0), false);
    // The CLI starts its own turn to report the task: input stays open until that turn's result.
    lifecycle.observe(system('init'));
    now = 2000;
    assert.deepEqual(reasonsOf(lifecycle, 0), ['a turn started by the CLI awaits its result']);
    lifecycle.observe(result({ origin: { kind: 'task-notification', runId: 'r1' } }));
    assert.deepEqual(reasonsOf(lifecycle, 0), []);
  });

  it('closes after the notification grace when no turn follows', () => {
    let now = 0;
    const lifecycle = new InputLifecycle({ now: () => now, notificationTurnGraceMs: 100 });
    promptSent(lifecycle);
    lifecycle.observe(system('task_started', { task_id: 't1' }));
    lifecycle.observe(result());
    lifecycle.observe(system('task_notification', { task_id: 't1' }));
    assert.equal(reasonsOf(lifecycle, 0).length, 1);
    now = 101;
    assert.deepEqual(reasonsOf(lifecycle, 0), []);
  });

  it('treats background_tasks_changed as the full current list', () => {
    const lifecycle = new InputLifecycle();
    promptSent(lifecycle);
    lifecycle.observe(system('task_started', { task_id: 'a' }));
    lifecycle.observe(system('task_started', { task_id: 'b' }));
    lifecycle.observe(result());
    lifecycle.observe(system('background_tasks_changed', { tasks: [{ task_id: 'b' }] }));
    assert.deepEqual(reasonsOf(lifecycle, 0), ['1 background task(s) running']);
  });

  it('also requires idle once the CLI sends state frames', () => {
    const lifecycle = new InputLifecycle();
    promptSent(lifecycle);
    lifecycle.observe(system('session_state_changed', { state: 'running' }));
    lifecycle.observe(result());
    assert.deepEqual(reasonsOf(lifecycle, 0), ['the CLI reports running']);
    lifecycle.observe(system('session_state_changed', { state: 'idle' }));
    assert.deepEqual(reasonsOf(lifecycle, 0), []);
    assert.equal(lifecycle.sawStateFrames, true);
  });

  it('counts results of turns the CLI started apart from user turns', () => {
    const lifecycle = new InputLifecycle();
    promptSent(lifecycle);
    lifecycle.observe(result());
    lifecycle.inputOpened();
    lifecycle.userMessageWritten();
    // A CLI-started result arriving while the second user turn runs must not count as its result.
    lifecycle.observe(result({ origin: { kind: 'task-notification' } }));
    lifecycle.inputClosed();
    assert.deepEqual(reasonsOf(lifecycle, 0), ['1 turn(s) await a result']);
    lifecycle.observe(result({ origin: { kind: 'human' } }));
    assert.deepEqual(reasonsOf(lifecycle, 0), []);
  });
});
