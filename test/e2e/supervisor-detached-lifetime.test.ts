// How long a detached CLI lives once its host let go of it (real CLI, mock model): close() says what it
// left running and until when; removing the data directory ends every process of the world within
// seconds, idle and busy CLIs alike; an idle CLI let go of ends by itself after `detachedIdleMs`, and the
// next open() parks its thread, whose next send resumes the conversation; a CLI with an approval waiting
// at close has no deadline and is re-attached by the next open().
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';

import type { WardenError } from '../../src/index.js';
import { Supervisor, type SupervisorOptions } from '../../src/supervisor/index.js';
import { poll, scenario, startTestWorld, type MockScript, type TestWorld } from '../../src/testing/index.js';
import { ENDED_IDLE } from '../../src/transport/detached-lifetime.js';
import { isAlive } from '../../src/transport/exit-watch.js';
import { waitForEvent } from './helpers/supervisor-session.js';

/** Lets time pass for a check that something did NOT happen (never to order events). */
const elapse = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function openWorld(
  t: TestContext,
  script: MockScript,
  extra: Partial<SupervisorOptions> = {},
): Promise<{ world: TestWorld; options: SupervisorOptions; warnings: WardenError[] }> {
  const world = await startTestWorld(t, { prefix: 'warden-lifetime-', script });
  const warnings: WardenError[] = [];
  const options: SupervisorOptions = {
    dataDir: world.dataDir,
    claudePath: world.claudePath,
    env: world.env,
    onWarning: (warning) => warnings.push(warning),
    ...extra,
  };
  return { world, options, warnings };
}

/** Sends `text` and waits for its run to complete. */
async function turn(sup: Supervisor, threadId: string, text: string): Promise<void> {
  const run = await sup.send(threadId, text);
  const ended = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === run.id);
  assert.equal(ended.data.status, 'completed');
}

describe('supervisor: the lifetime of a detached CLI with no host', { timeout: 240_000 }, () => {
  it('ends every process of the world within seconds once the data directory is removed', async (t) => {
    const script = scenario()
      .on('ask')
      .callTool('Bash', { command: 'touch never.txt', description: 'Create a file' })
      .thenAnswer('Created.')
      .on()
      .thenAnswer('Noted.')
      .build();
    const { world, options } = await openWorld(t, script);
    const sup = await Supervisor.open(options);
    const idle = [];
    for (let i = 0; i < 2; i += 1) {
      const thread = await sup.createThread({ cwd: world.scratch.cwd, mode: 'supervised' });
      await turn(sup, thread.id, `hello ${i}`);
      idle.push(thread.id);
    }
    const busy = await sup.createThread({ cwd: world.scratch.cwd, mode: 'supervised' });
    await sup.send(busy.id, '[[ask]] make a file');
    await waitForEvent(sup, 'approval.requested', (e) => e.threadId === busy.id);

    const closedAt = Date.now();
    const { leftRunning } = await sup.close();
    assert.deepEqual(leftRunning.map((left) => left.threadId).sort(), [...idle, busy.id].sort());
    for (const left of leftRunning) {
      assert.ok(isAlive({ pid: left.pid, startTicks: undefined }), `the CLI of ${left.threadId} runs on`);
      if (left.threadId === busy.id) {
        assert.equal(left.idleUntil, null, 'a CLI waiting for a person has no deadline');
        assert.match(left.busy ?? '', /a turn is running/, 'its turn waits on the approval');
      } else {
        assert.equal(left.busy, undefined);
        assert.ok(
          left.idleUntil !== null && left.idleUntil >= closedAt + 30 * 60_000 - 1000,
          'thirty minutes',
        );
      }
    }
    assert.ok(world.processes().length >= 3, 'three CLIs (and their watchdogs) run');

    const removedAt = performance.now();
    rmSync(world.dataDir, { recursive: true, force: true });
    const gone = await poll(() => world.processes().length === 0, { timeoutMs: 20_000 });
    const seconds = (performance.now() - removedAt) / 1000;
    assert.equal(gone, true, `processes still running: ${world.processes().join(', ')}`);
    t.diagnostic(`every process gone ${seconds.toFixed(1)} s after the data directory was removed`);
    assert.ok(seconds < 15, `gone within ${seconds.toFixed(1)} s`);
  });

  it('an idle CLI let go of ends after detachedIdleMs; the next open parks the thread and resumes it', async (t) => {
    const bodies: string[] = [];
    const inner = scenario()
      .on('first')
      .thenAnswer('First answer.')
      .on('second')
      .thenAnswer((ctx) => (ctx.firstUserText.includes('[[first]]') ? 'Remembered.' : 'Forgot.'))
      .build();
    const { world, options, warnings } = await openWorld(
      t,
      (ctx) => {
        if (ctx.lastUserText.includes('[[second]]')) bodies.push(JSON.stringify(ctx.body));
        return inner(ctx);
      },
      { detachedIdleMs: 1000 },
    );
    const sup = await Supervisor.open(options);
    const thread = await sup.createThread({ cwd: world.scratch.cwd, mode: 'supervised' });
    await turn(sup, thread.id, '[[first]] remember this');
    const { sessionId, cliProcess } = sup.getThread(thread.id).thread;
    assert.ok(sessionId !== null && cliProcess !== null && cliProcess.spoolDir !== null);
    const closing = Date.now();
    const { leftRunning } = await sup.close();
    const closed = Date.now();
    assert.equal(leftRunning.length, 1);
    const [left] = leftRunning;
    assert.ok(left !== undefined && left.idleUntil !== null);
    assert.ok(
      left.idleUntil >= closing + 1000 && left.idleUntil <= closed + 2000,
      'one second from the close, rounded up to whole seconds',
    );

    const identity = { pid: cliProcess.pid, startTicks: cliProcess.startTime ?? undefined };
    const gone = await poll(() => world.processes().length === 0, { timeoutMs: 20_000 });
    assert.equal(gone, true, 'the CLI and its watchdog ended by themselves');
    assert.equal(isAlive(identity), false);
    assert.ok(existsSync(join(cliProcess.spoolDir, ENDED_IDLE)), 'the watchdog said why');

    const reopened = await Supervisor.open(options);
    try {
      assert.equal(reopened.recovered.threadsParked, 1);
      assert.equal(reopened.recovered.threads, 0, 'no crash to recover');
      assert.equal(reopened.recovered.processesReattached, 0);
      const view = reopened.getThread(thread.id);
      assert.equal(view.thread.status, 'parked');
      assert.equal(view.thread.cliProcess, null);
      const parked = await waitForEvent(reopened, 'thread.parked', (e) => e.threadId === thread.id);
      assert.deepEqual([parked.data.reason, parked.data.idleMs], ['detached_idle', 1000]);
      assert.equal(existsSync(cliProcess.spoolDir), false, 'its spool is removed');

      const second = await reopened.send(thread.id, '[[second]] what did I ask first?');
      const resumed = await waitForEvent(reopened, 'session.started', (e) => e.data.generation === 2);
      assert.equal(resumed.data.resume, sessionId, 'the next session resumes the parked one');
      const answered = await waitForEvent(reopened, 'run.ended', (e) => e.data.runId === second.id);
      assert.equal(answered.data.result?.text, 'Remembered.');
      assert.ok(
        bodies.some((body) => body.includes('[[first]] remember this')),
        'the model sees the earlier messages',
      );
    } finally {
      await reopened.close({ stopAgents: true });
    }
    assert.deepEqual(warnings, []);
  });

  it('a CLI with an approval waiting at close has no deadline; the next open re-attaches it', async (t) => {
    const script = scenario()
      .on('ask')
      .callTool('Bash', { command: 'touch kept.txt', description: 'Create a file' })
      .thenAnswer('Created.')
      .build();
    const { world, options, warnings } = await openWorld(t, script, { detachedIdleMs: 1000 });
    const sup = await Supervisor.open(options);
    const thread = await sup.createThread({ cwd: world.scratch.cwd, mode: 'supervised' });
    const run = await sup.send(thread.id, '[[ask]] make a file');
    const asked = await waitForEvent(sup, 'approval.requested', (e) => e.threadId === thread.id);
    const { leftRunning } = await sup.close();
    assert.equal(leftRunning.length, 1);
    assert.equal(leftRunning[0]?.idleUntil, null);
    assert.match(leftRunning[0]?.busy ?? '', /a turn is running/);
    const pid = leftRunning[0]?.pid ?? 0;

    await elapse(6_000); // a negative check: the idle limit passes several times over
    assert.ok(isAlive({ pid, startTicks: undefined }), 'the CLI still waits for a person');

    const reopened = await Supervisor.open(options);
    try {
      assert.equal(reopened.recovered.processesReattached, 1);
      assert.equal(reopened.recovered.threadsParked, 0);
      await reopened.reattached;
      assert.equal(reopened.getApproval(asked.data.approvalId).status, 'pending');
      await reopened.decide(asked.data.approvalId, { behavior: 'allow' });
      const ended = await waitForEvent(reopened, 'run.ended', (e) => e.data.runId === run.id);
      assert.equal(ended.data.status, 'completed');
      assert.ok(existsSync(join(world.scratch.cwd, 'kept.txt')), 'the tool ran');
    } finally {
      await reopened.close({ stopAgents: true });
    }
    assert.deepEqual(warnings, []);
  });
});
