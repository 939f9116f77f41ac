// Nothing stays pending with no one able to answer it: stop(), interrupt() and stopSubagent() while an
// approval waits, against the real CLI. The approval becomes `cancelled` with the reason, a decision on it
// conflicts, and the thread goes on (interrupt, stopSubagent: in the same process; stop: in a resumed one).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { ConflictError } from '../../src/supervisor/index.js';
import { scenario, type RequestContext } from '../../src/testing/index.js';
import { signal } from './helpers/sdk-session.js';
import {
  assertNoProcessLeft,
  startSupervisorSession,
  waitForEvent,
  waitForNoProcess,
} from './helpers/supervisor-session.js';

const TOUCH = { command: 'touch cancelled.txt', description: 'Create a file' };

/** The answer to the prompt sent after a stop: it proves the model saw the conversation before it. */
const resumedAnswer = (ctx: RequestContext): string =>
  ctx.firstUserText.includes('[[bg]]') ? 'Resumed with history.' : 'No history.';

function backgroundScenario(rootEnded: Promise<void>) {
  return (
    scenario()
      .on('bg')
      .launchBackgroundAgent({ prompt: '[[sub]] inspect the host', description: 'Inspect host' })
      .thenAnswer('Launched.')
      .onTaskNotification()
      // After a resume the stopped subagent's notification rides along with the next prompt.
      .thenAnswer((ctx) => (ctx.lastUserText.includes('[[again]]') ? resumedAnswer(ctx) : 'Noted.'))
      .subagent('sub')
      .after(rootEnded)
      .callTool('Read', { file_path: '/etc/hostname' })
      .thenReport('Host inspected.')
      .on('again')
      .thenAnswer(resumedAnswer)
      .build()
  );
}

describe('supervisor: stop and interrupt with an approval pending', { timeout: 120_000 }, () => {
  it('stop: the subagent approval on the completed run is cancelled; the next send resumes', async (t) => {
    const rootEnded = signal();
    const { sup, scratch, thread } = await startSupervisorSession(t, backgroundScenario(rootEnded.promise));
    const run = await sup.send(thread.id, '[[bg]] start a background agent');
    await waitForEvent(sup, 'run.ended', (e) => e.data.runId === run.id);
    rootEnded.fire();
    const asked = await waitForEvent(sup, 'approval.requested');
    assert.equal(asked.data.runId, run.id);

    await sup.stop(thread.id);
    const approval = sup.getApproval(asked.data.approvalId);
    assert.equal(approval.status, 'cancelled');
    assert.equal(approval.reason, 'thread_stopped');
    const view = sup.getThread(thread.id);
    assert.equal(view.thread.status, 'idle');
    assert.equal(view.subagents[0]?.status, 'stopped');
    assert.ok(
      view.runs.every((r) => r.releasedAt !== null),
      'every run context is released',
    );
    await assert.rejects(sup.decide(asked.data.approvalId, { behavior: 'allow' }), ConflictError);
    await waitForNoProcess(scratch.home);
    assertNoProcessLeft(scratch.home);

    const next = await sup.send(thread.id, '[[again]] are you there?');
    const ended = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === next.id);
    assert.equal(ended.data.result?.text, 'Resumed with history.');
    const restarted = await waitForEvent(sup, 'session.started', (e) => e.data.generation === 2);
    assert.equal(restarted.data.resume, view.thread.sessionId, 'the CLI session is resumed by id');
  });

  it('interrupt: the root approval is cancelled, the run interrupted, and the session goes on', async (t) => {
    const script = scenario()
      .on('ask')
      .callTool('Bash', TOUCH)
      // The CLI sends the interrupted call's error result and the next prompt in one user message.
      .thenAnswer((ctx) => (ctx.lastUserText.includes('[[next]]') ? 'Second turn answered.' : 'unexpected'))
      .build();
    const { sup, scratch, thread } = await startSupervisorSession(t, script);
    const run = await sup.send(thread.id, '[[ask]] make a file');
    const asked = await waitForEvent(sup, 'approval.requested');
    await sup.interrupt(thread.id);

    const cancelled = await waitForEvent(sup, 'approval.cancelled');
    assert.equal(cancelled.data.approvalId, asked.data.approvalId);
    assert.equal(cancelled.data.reason, 'interrupted');
    const ended = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === run.id);
    assert.equal(ended.data.status, 'interrupted');
    assert.equal(existsSync(join(scratch.cwd, 'cancelled.txt')), false);
    await assert.rejects(sup.decide(asked.data.approvalId, { behavior: 'allow' }), { code: 'CONFLICT' });

    const next = await sup.send(thread.id, '[[next]] carry on');
    const second = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === next.id);
    assert.equal(second.data.result?.text, 'Second turn answered.');
    assert.equal(sup.getThread(thread.id).thread.generation, 1, 'still the first CLI process');
  });

  it('interrupt: a completed run’s subagent approval is cancelled and the subagent stopped', async (t) => {
    const rootEnded = signal();
    const { sup, thread } = await startSupervisorSession(t, backgroundScenario(rootEnded.promise));
    const run = await sup.send(thread.id, '[[bg]] start a background agent');
    await waitForEvent(sup, 'run.ended', (e) => e.data.runId === run.id);
    rootEnded.fire();
    const asked = await waitForEvent(sup, 'approval.requested');
    await sup.interrupt(thread.id);

    assert.equal(sup.getApproval(asked.data.approvalId).reason, 'interrupted');
    const stopped = await waitForEvent(sup, 'subagent.ended');
    assert.equal(stopped.data.status, 'stopped');
    await waitForEvent(sup, 'run.released', (e) => e.data.runId === run.id);
    assert.equal(sup.getThread(thread.id).runs[0]?.status, 'completed', 'a completed run stays completed');
    assert.deepEqual(sup.listApprovals({ status: 'pending' }), []);
  });

  it('stopSubagent: its approval is cancelled, it is stopped, and the CLI tells the model', async (t) => {
    const rootEnded = signal();
    const { sup, mock, thread, warnings } = await startSupervisorSession(
      t,
      backgroundScenario(rootEnded.promise),
    );
    const run = await sup.send(thread.id, '[[bg]] start a background agent');
    await waitForEvent(sup, 'run.ended', (e) => e.data.runId === run.id);
    rootEnded.fire();
    const asked = await waitForEvent(sup, 'approval.requested');
    const subagentId = asked.data.subagentId;
    assert.ok(subagentId !== null, 'the request comes from the subagent');
    await sup.stopSubagent(subagentId);
    const subagent = sup.getThread(thread.id).subagents.find((a) => a.id === subagentId);
    assert.equal(subagent?.status, 'stopped', 'stopSubagent resolves once the end is recorded');

    const approval = sup.getApproval(asked.data.approvalId);
    assert.deepEqual([approval.status, approval.reason], ['cancelled', 'subagent_stopped']);
    await assert.rejects(sup.decide(asked.data.approvalId, { behavior: 'allow' }), ConflictError);
    const ended = await waitForEvent(sup, 'subagent.ended', (e) => e.data.subagentId === subagentId);
    assert.deepEqual([ended.data.status, ended.data.reason], ['stopped', 'subagent_stopped']);
    await waitForEvent(sup, 'run.released', (e) => e.data.runId === run.id);
    // CLI 2.1.328 starts a turn of its own to tell the model the subagent was killed.
    const told = await waitForEvent(sup, 'run.ended', (e) => e.data.origin?.kind === 'task-notification');
    assert.equal(told.data.result?.text, 'Noted.');
    assert.ok(
      mock.requests.some(
        (r) => r.isTaskNotification === true && (r.lastUserText ?? '').includes('<status>killed</status>'),
      ),
      'the model hears that the subagent was stopped',
    );
    await assert.rejects(sup.stopSubagent(subagentId), ConflictError, 'a stopped subagent cannot be stopped');
    assert.deepEqual(sup.listApprovals({ status: 'pending' }), []);
    assert.deepEqual(warnings, []);
  });
});
