// The permission gate with a scripted CLI: which requests are honoured, where they are routed, and how a
// pending approval ends when no one can answer it any more. The real-CLI versions are in test/e2e.
import assert from 'node:assert/strict';
import { it } from 'node:test';

import { frames, openFakeSupervisor, startTurn } from '../fixtures/supervisor-fake-query.js';
import { waitForEvent } from '../e2e/helpers/supervisor-session.js';
import { describeEachStore } from '../helpers/store-backends.js';

const BASH = { command: 'touch f', description: 'touch' };

describeEachStore('supervisor permission gate', () => {
  it('denies a request from a CLI process the thread has replaced, and records why', async (t) => {
    const { sup, made, thread } = await openFakeSupervisor(t);
    const first = await startTurn(sup, made, thread.id, 'one');
    first.fake.die();
    const ended = await waitForEvent(sup, 'session.ended');
    assert.equal(ended.data.reason, 'process_exited');
    assert.equal(sup.getThread(thread.id).runs[0]?.status, 'interrupted');

    const second = await startTurn(sup, made, thread.id, 'two');
    assert.notEqual(second.fake, first.fake);
    assert.equal(second.fake.options.resume, 'session-1', 'the new process resumes the session');
    const stale = await first.fake.ask('Bash', BASH).result;
    assert.equal(stale.behavior, 'deny');
    assert.match(stale.behavior === 'deny' ? stale.message : '', /replaced/);
    const rejected = await waitForEvent(sup, 'permission.rejected');
    assert.equal(rejected.data.condition, 'stale_process');
    assert.equal(rejected.data.generation, 1);
    assert.deepEqual(sup.listApprovals(), [], 'no approval is made for a stale request');
  });

  it('denies requests while the thread is stopping, and ones withdrawn before they were handled', async (t) => {
    const { sup, made, thread } = await openFakeSupervisor(t);
    const { fake } = await startTurn(sup, made, thread.id, 'one');
    const ghost = fake.ask('Read', { file_path: '/x' }, { agentID: 'not-yet-known' });
    ghost.withdraw();
    assert.equal((await ghost.result).behavior, 'deny');
    assert.equal((await waitForEvent(sup, 'permission.rejected')).data.condition, 'aborted');

    const stopping = sup.stop(thread.id);
    const late = await fake.ask('Bash', BASH).result;
    assert.deepEqual(late, { behavior: 'deny', message: 'Denied: the thread is stopping' });
    await stopping;
    assert.ok(fake.calls.includes('close'));
  });

  it('routes a subagent request to its completed run, then releases the run when the subagent ends', async (t) => {
    const { sup, made, thread } = await openFakeSupervisor(t);
    const { fake, runId, uuid } = await startTurn(sup, made, thread.id, 'launch');
    fake.emit(frames.agentCall('toolu_agent'));
    fake.emit(frames.taskStarted('task-a', 'toolu_agent'));
    fake.emit(frames.result([uuid]));
    assert.equal((await waitForEvent(sup, 'run.ended')).data.status, 'completed');

    const asked = fake.ask('Read', { file_path: '/etc/hostname' }, { agentID: 'task-a' });
    const requested = await waitForEvent(sup, 'approval.requested');
    assert.deepEqual([requested.data.runId, requested.data.subagentId], [runId, 'task-a']);
    assert.equal(sup.getThread(thread.id).runs[0]?.releasedAt, null);
    await sup.decide(requested.data.approvalId, { behavior: 'allow' });
    assert.deepEqual(await asked.result, { behavior: 'allow', updatedInput: { file_path: '/etc/hostname' } });

    fake.emit(frames.taskNotification('task-a'));
    await waitForEvent(sup, 'run.released', (e) => e.data.runId === runId);
    const after = await fake.ask('Read', { file_path: '/etc/hostname' }, { agentID: 'task-a' }).result;
    assert.equal(after.behavior, 'deny');
    assert.equal((await waitForEvent(sup, 'permission.rejected')).data.condition, 'subagent_not_running');
  });

  it('cancels pending approvals when the CLI withdraws, the subagent ends, or the process dies', async (t) => {
    const { sup, made, thread } = await openFakeSupervisor(t);
    const { fake, uuid } = await startTurn(sup, made, thread.id, 'launch');
    fake.emit(frames.agentCall('toolu_a'));
    fake.emit(frames.taskStarted('task-a', 'toolu_a'));
    fake.emit(frames.agentCall('toolu_b'));
    fake.emit(frames.taskStarted('task-b', 'toolu_b'));
    fake.emit(frames.result([uuid]));
    await waitForEvent(sup, 'run.ended');

    const root = fake.ask('Bash', BASH, { agentID: 'task-a' });
    const fromB = fake.ask('Read', { file_path: '/etc/hostname' }, { agentID: 'task-b' });
    const third = fake.ask('Bash', { command: 'ls /root', description: 'ls' }, { agentID: 'task-b' });
    await waitForEvent(
      sup,
      'approval.requested',
      (e) => e.data.toolName === 'Bash' && e.data.subagentId === 'task-b',
    );
    root.withdraw();
    assert.equal((await root.result).behavior, 'deny');
    fake.emit(frames.taskNotification('task-a', 'stopped'));
    await waitForEvent(sup, 'subagent.ended', (e) => e.data.subagentId === 'task-a');
    fake.die();
    await waitForEvent(sup, 'session.ended');
    await Promise.all([fromB.result, third.result]);

    const reasons = sup.listApprovals().map((a) => [a.toolName, a.subagentId, a.status, a.reason]);
    assert.deepEqual(reasons, [
      ['Bash', 'task-a', 'cancelled', 'withdrawn'],
      ['Read', 'task-b', 'cancelled', 'process_exited'],
      ['Bash', 'task-b', 'cancelled', 'process_exited'],
    ]);
    const subagents = sup.getThread(thread.id).subagents.map((s) => [s.id, s.status]);
    assert.deepEqual(subagents, [
      ['task-a', 'stopped'],
      ['task-b', 'lost'],
    ]);
  });

  it('interrupt cancels the running run’s approval and answers it once the CLI has acted', async (t) => {
    const { sup, made, thread } = await openFakeSupervisor(t);
    const { fake, uuid, runId } = await startTurn(sup, made, thread.id, 'work');
    const asked = fake.ask('Bash', BASH);
    const requested = await waitForEvent(sup, 'approval.requested');
    await sup.interrupt(thread.id);
    assert.deepEqual(fake.calls, ['interrupt']);
    assert.equal(sup.getApproval(requested.data.approvalId).reason, 'interrupted');
    assert.deepEqual(await asked.result, {
      behavior: 'deny',
      message: 'The permission request was cancelled (interrupted)',
    });
    fake.emit(frames.result([uuid], { subtype: 'error_during_execution', is_error: true }));
    const ended = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === runId);
    assert.deepEqual([ended.data.status, ended.data.reason], ['interrupted', 'interrupted']);
  });

  it('an interrupt or a subagent stop the CLI dies under succeeds: the process’s end closes out', async (t) => {
    const { sup, made, thread } = await openFakeSupervisor(t);
    const first = await startTurn(sup, made, thread.id, 'work');
    const asked = first.fake.ask('Bash', BASH);
    const requested = await waitForEvent(sup, 'approval.requested');
    first.fake.dieOnNextControl();
    await sup.interrupt(thread.id);
    assert.equal(sup.getApproval(requested.data.approvalId).reason, 'interrupted');
    assert.equal((await asked.result).behavior, 'deny');
    const ended = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === first.runId);
    assert.equal(ended.data.status, 'interrupted');
    await waitForEvent(sup, 'session.ended');

    const second = await startTurn(sup, made, thread.id, 'launch');
    second.fake.emit(frames.agentCall('toolu_agent'));
    second.fake.emit(frames.taskStarted('task-a', 'toolu_agent'));
    await waitForEvent(sup, 'subagent.started');
    second.fake.dieOnNextControl();
    await sup.stopSubagent('task-a');
    assert.deepEqual(second.fake.calls, ['stopTask:task-a']);
    const subagentEnded = await waitForEvent(sup, 'subagent.ended', (e) => e.data.subagentId === 'task-a');
    assert.deepEqual([subagentEnded.data.status, subagentEnded.data.reason], ['lost', 'process_exited']);
  });

  it('the policy decides first: a deny rule, an allow rule, and a mode change that settles what waits', async (t) => {
    const { sup, made, thread } = await openFakeSupervisor(t, {
      rules: { allow: ['Bash(git status:*)'], deny: ['Bash(rm:*)'] },
    });
    const { fake } = await startTurn(sup, made, thread.id, 'work');
    const denied = await fake.ask('Bash', { command: 'rm -rf build' }).result;
    assert.equal(denied.behavior, 'deny');
    const allowed = await fake.ask('Bash', { command: 'git status --short' }).result;
    assert.equal(allowed.behavior, 'allow');
    const decided = await waitForEvent(sup, 'permission.decided', (e) => e.data.behavior === 'allow');
    assert.equal(decided.data.rule, 'Bash(git status:*)');

    const waiting = fake.ask('Bash', { command: 'make' });
    const requested = await waitForEvent(sup, 'approval.requested');
    await sup.setMode(thread.id, 'full-access');
    assert.equal((await waiting.result).behavior, 'allow');
    assert.equal(sup.getApproval(requested.data.approvalId).decision?.by, 'policy');
    assert.equal((await fake.ask('Bash', { command: 'make install' }).result).behavior, 'allow');
    assert.equal(sup.listApprovals().length, 1, 'full-access asks nobody');
  });

  it('a write the CLI calls sensitive is asked in full-access, and a mode change does not settle it', async (t) => {
    const { sup, made, thread } = await openFakeSupervisor(t);
    const { fake } = await startTurn(sup, made, thread.id, 'work');
    const decisionReason = 'Claude requested permissions to edit /w/.ripgreprc which is a sensitive file.';
    const waiting = fake.ask(
      'Write',
      { file_path: '/w/.ripgreprc', content: '--pre=sh' },
      { decisionReason },
    );
    const requested = await waitForEvent(sup, 'approval.requested');
    await sup.setMode(thread.id, 'full-access');
    assert.equal(sup.getApproval(requested.data.approvalId).status, 'pending', 'the mode change leaves it');
    const again = fake.ask('Write', { file_path: '/w/.ripgreprc', content: '--pre=sh' }, { decisionReason });
    await waitForEvent(sup, 'approval.requested', (e) => e.data.approvalId !== requested.data.approvalId);
    assert.equal(sup.listApprovals({ status: 'pending' }).length, 2, 'full-access asks too');
    for (const approval of sup.listApprovals({ status: 'pending' }))
      await sup.decide(approval.id, { behavior: 'deny' });
    assert.equal((await waiting.result).behavior, 'deny');
    assert.equal((await again.result).behavior, 'deny');
  });
});
