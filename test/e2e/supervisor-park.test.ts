// Parking idle CLIs with the real CLI: a thread idle past the period has no CLI process and a
// `thread.parked` event, stays parked across a host restart, and the next send resumes it with its
// conversation; a pending approval or a background subagent still at work after the root result keeps
// the CLI for as long as it lasts.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';

import { Supervisor } from '../../src/supervisor/index.js';
import { scenario } from '../../src/testing/index.js';
import { processesUsingHome, signal } from './helpers/sdk-session.js';
import { startSupervisorSession, waitForEvent, waitForNoProcess } from './helpers/supervisor-session.js';

/** Lets time pass for a check that something did NOT happen (never to order events). */
function elapse(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe('supervisor: parking idle CLIs', { timeout: 180_000 }, () => {
  it('parks an idle CLI, keeps it parked across a restart, and resumes it with its conversation', async (t) => {
    const resumedBodies: string[] = [];
    const inner = scenario()
      .on('first')
      .thenAnswer('First answer.')
      .on('second')
      .thenAnswer((ctx) => (ctx.firstUserText.includes('[[first]]') ? 'Remembered.' : 'Forgot.'))
      .build();
    const { sup, scratch, thread, options, warnings } = await startSupervisorSession(
      t,
      (ctx) => {
        if (ctx.lastUserText.includes('[[second]]')) resumedBodies.push(JSON.stringify(ctx.body));
        return inner(ctx);
      },
      { idleParkMs: 1000 },
    );

    const first = await sup.send(thread.id, '[[first]] remember this');
    const spawned = await waitForEvent(sup, 'session.process_started', (e) => e.threadId === thread.id);
    assert.ok(spawned.data.spoolDir !== undefined, 'a detached CLI (the default)');
    const done = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === first.id);
    assert.equal(done.data.status, 'completed');
    const { sessionId } = sup.getThread(thread.id).thread;
    assert.ok(sessionId !== null);

    const parked = await waitForEvent(sup, 'thread.parked', (e) => e.threadId === thread.id);
    assert.equal(parked.data.reason, 'idle');
    assert.equal(parked.data.generation, 1);
    assert.ok(parked.data.idleMs >= 1000, `idle for ${parked.data.idleMs} ms`);
    await waitForEvent(sup, 'session.process_exited', (e) => e.data.pid === spawned.data.pid);
    await waitForNoProcess(scratch.home);
    assert.deepEqual(processesUsingHome(scratch.home), [], 'no CLI process while parked');
    assert.equal(existsSync(spawned.data.spoolDir ?? ''), false, 'its spool is removed');
    const view = sup.getThread(thread.id);
    assert.equal(view.thread.status, 'parked');
    assert.equal(view.thread.cliProcess, null);

    // A host restart: nothing to re-attach or close out; the thread is still parked.
    await sup.close();
    const reopened = await Supervisor.open(options);
    try {
      assert.equal(reopened.recovered.threads, 0);
      assert.equal(reopened.recovered.processesReattached, 0);
      assert.equal(reopened.getThread(thread.id).thread.status, 'parked');

      const second = await reopened.send(thread.id, '[[second]] what did I ask first?');
      const resumed = await waitForEvent(reopened, 'session.started', (e) => e.data.generation === 2);
      assert.equal(resumed.data.resume, sessionId, 'the next session resumes the parked one');
      const answered = await waitForEvent(reopened, 'run.ended', (e) => e.data.runId === second.id);
      assert.equal(answered.data.status, 'completed');
      assert.equal(answered.data.result?.text, 'Remembered.');
      assert.ok(
        resumedBodies.some((body) => body.includes('[[first]] remember this')),
        'the model sees the earlier messages',
      );
    } finally {
      await reopened.close({ stopAgents: true });
    }
    assert.deepEqual(warnings, []);
  });

  it('never parks a thread while an approval waits, and parks it once the turn is over', async (t) => {
    const script = scenario()
      .on('ask')
      .callTool('Bash', { command: 'touch parked.txt', description: 'Create a file' })
      .thenAnswer('Created.')
      .build();
    const { sup, scratch, thread } = await startSupervisorSession(t, script, { idleParkMs: 500 });
    const run = await sup.send(thread.id, '[[ask]] make a file');
    const asked = await waitForEvent(sup, 'approval.requested', (e) => e.threadId === thread.id);

    await elapse(8 * 500); // a negative check: eight periods pass while the approval waits
    assert.equal(sup.getThread(thread.id).thread.status, 'live');
    assert.ok(processesUsingHome(scratch.home).length > 0, 'the CLI still runs');
    assert.equal(sup.getApproval(asked.data.approvalId).status, 'pending');
    assert.ok(!sup.readEvents({ threadId: thread.id, limit: 1000 }).some((e) => e.type === 'thread.parked'));

    await sup.decide(asked.data.approvalId, { behavior: 'allow' });
    const ended = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === run.id);
    assert.equal(ended.data.status, 'completed');
    const parked = await waitForEvent(sup, 'thread.parked', (e) => e.threadId === thread.id);
    assert.ok(parked.seq > ended.seq);
    await waitForNoProcess(scratch.home);
    assert.deepEqual(processesUsingHome(scratch.home), []);
  });

  it('keeps the CLI while a background subagent works after the root result, parks it after', async (t) => {
    const release = signal();
    const script = scenario()
      .on('bg')
      .launchBackgroundAgent({ prompt: '[[sub]] take your time', description: 'Slow helper' })
      .thenAnswer('Launched a background agent.')
      .onTaskNotification()
      .thenAnswer('The background agent reported back.')
      .subagent('sub')
      .after(release.promise)
      .thenReport('Took my time.')
      .build();
    const { sup, scratch, thread } = await startSupervisorSession(t, script, { idleParkMs: 500 });
    const run = await sup.send(thread.id, '[[bg]] start a background agent');
    const rootEnded = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === run.id);
    assert.equal(rootEnded.data.status, 'completed');
    await waitForEvent(sup, 'subagent.started', (e) => e.threadId === thread.id);

    await elapse(8 * 500); // a negative check: eight periods pass while the subagent works
    assert.equal(sup.getThread(thread.id).thread.status, 'live');
    assert.ok(processesUsingHome(scratch.home).length > 0, 'the CLI still runs');
    assert.ok(!sup.readEvents({ threadId: thread.id, limit: 1000 }).some((e) => e.type === 'thread.parked'));

    release.fire();
    const subagentEnded = await waitForEvent(sup, 'subagent.ended', (e) => e.threadId === thread.id);
    assert.equal(subagentEnded.data.status, 'completed');
    const reported = await waitForEvent(
      sup,
      'run.ended',
      (e) => e.threadId === thread.id && e.data.origin?.kind === 'task-notification',
    );
    const parked = await waitForEvent(sup, 'thread.parked', (e) => e.threadId === thread.id);
    assert.ok(parked.seq > reported.seq, 'parked only after the turn the CLI started to report');
    await waitForNoProcess(scratch.home);
    assert.deepEqual(processesUsingHome(scratch.home), []);
  });
});
