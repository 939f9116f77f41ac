// A host killed with SIGKILL mid-run, its approval pending. Opening the same dataDir again: the run is
// `interrupted` (host_restart), the approval `expired`, the sequence numbers contiguous, every event the
// dead host reported is in the log, and send() resumes the CLI session so the model sees the history.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

import { Supervisor, type StoredEvent } from '../../src/supervisor/index.js';
import { scenario, startTestWorld } from '../../src/testing/index.js';
import { killProcessesUsingHome, processesUsingHome } from './helpers/sdk-session.js';
import { killProcesses } from '../../src/testing/world-processes.js';
import {
  allEvents,
  assertContiguous,
  assertNoProcessLeft,
  transcriptPath,
  waitForEvent,
  waitForNoProcess,
  waitForTranscript,
} from './helpers/supervisor-session.js';

const HOST = fileURLToPath(new URL('../fixtures/supervisor-host.ts', import.meta.url));

interface Reported {
  seq: number;
  threadSeq: number;
  type: StoredEvent['type'];
  data: Record<string, unknown>;
}

describe('supervisor: the host is killed with SIGKILL mid-run', { timeout: 120_000 }, () => {
  it('recovers the states from the log and continues the conversation', async (t) => {
    const resumedBodies: string[] = [];
    const inner = scenario()
      .on('ask')
      .callTool('Bash', { command: 'touch survived.txt', description: 'Create a file' })
      .thenAnswer('The host went away before I could finish.')
      .on('after')
      .thenAnswer((ctx) => (ctx.firstUserText.includes('[[ask]]') ? 'Resumed with history.' : 'No history.'))
      .build();
    const world = await startTestWorld(t, {
      prefix: 'warden-sup-',
      script: (ctx) => {
        if (ctx.lastUserText.includes('[[after]]')) resumedBodies.push(JSON.stringify(ctx.body));
        return inner(ctx);
      },
    });
    const { scratch, dataDir, env } = world;
    const config = {
      dataDir,
      claudePath: world.claudePath,
      env,
      cwd: scratch.cwd,
      prompt: '[[ask]] make a file',
    };
    const host = spawn(process.execPath, ['--import', 'tsx', HOST, JSON.stringify(config)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stderr: string[] = [];
    host.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    const state: { sup?: Supervisor } = {};
    world.defer(() => state.sup?.close({ stopAgents: true }));
    world.defer(() => {
      if (host.exitCode === null && host.signalCode === null) host.kill('SIGKILL');
      killProcesses(processesUsingHome(scratch.home));
    });
    world.track(host.pid);

    // Every line the host writes is kept until it dies, not only those before `ready`: an event it
    // commits just after the approval (the CLI's frames are not ordered against the request) is one it
    // reported, not one the recovery wrote.
    const reported: Reported[] = [];
    let ready: { threadId: string; runId: string; approvalId: string } | undefined;
    let announceReady: () => void = () => undefined;
    const readyReported = new Promise<void>((resolve) => (announceReady = resolve));
    const allRead = (async () => {
      for await (const line of createInterface({ input: host.stdout })) {
        const message = JSON.parse(line) as { event?: Reported; ready?: typeof ready };
        if (message.event !== undefined) reported.push(message.event);
        if (message.ready !== undefined && ready === undefined) {
          ready = message.ready;
          announceReady();
        }
      }
      announceReady();
    })();
    await readyReported;
    assert.ok(ready !== undefined, `the host reported a pending approval; stderr: ${stderr.join('')}`);
    const sessionId = reported.find((e) => e.type === 'session.initialized')?.data.sessionId;
    assert.equal(typeof sessionId, 'string', 'the host reported the CLI session id');
    // The CLI writes its transcript in batches a few ms after the request; what it never wrote cannot be
    // resumed (that case is tested in supervisor-resume-lost). Here the host dies once the CLI has it.
    await waitForTranscript(
      transcriptPath(scratch.home, scratch.cwd, String(sessionId)),
      'touch survived.txt',
    );
    const exited = once(host, 'exit');
    host.kill('SIGKILL');
    assert.deepEqual(await exited, [null, 'SIGKILL']);
    await allRead;
    // A SIGKILLed host cannot reap its CLI (it runs in its own process group): the crash leaves it to us.
    await killProcessesUsingHome(scratch.home);
    assertNoProcessLeft(scratch.home);

    const sup = await Supervisor.open({ dataDir, claudePath: world.claudePath, env });
    state.sup = sup;
    assert.deepEqual(sup.recovered, {
      threads: 1,
      runsInterrupted: 1,
      approvalsExpired: 1,
      subagentsLost: 0,
      processesStopped: 0,
      processesReattached: 0,
      threadsParked: 0,
    });
    const { thread, runs, approvals } = sup.getThread(ready.threadId);
    assert.equal(thread.status, 'idle');
    assert.deepEqual(
      runs.map((r) => [r.id, r.status, r.reason]),
      [[ready.runId, 'interrupted', 'host_restart']],
    );
    assert.deepEqual(
      approvals.map((a) => [a.id, a.status, a.reason]),
      [[ready.approvalId, 'expired', 'host_restart']],
    );

    const events = await allEvents(sup);
    assertContiguous(events);
    const last = reported.at(-1)?.seq ?? 0;
    assert.deepEqual(
      events.filter((e) => e.seq <= last).map((e) => [e.seq, e.threadSeq, e.type, e.data]),
      reported.map((e) => [e.seq, e.threadSeq, e.type, e.data]),
      'every event the host reported is in the log, unchanged',
    );
    assert.deepEqual(
      events.filter((e) => e.seq > last).map((e) => e.type),
      ['session.leftover_process', 'approval.expired', 'run.ended', 'run.released', 'session.ended'],
      'after the last reported event, only the recovery was written (the CLI was already gone)',
    );

    const next = await sup.send(ready.threadId, '[[after]] what happened before?');
    const ended = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === next.id);
    assert.equal(ended.data.result?.text, 'Resumed with history.');
    const resumed = await waitForEvent(sup, 'session.started', (e) => e.data.generation === 2);
    assert.equal(resumed.data.resume, sessionId);
    assert.ok(
      resumedBodies.some((body) => body.includes('[[ask]] make a file')),
      'the model sees the earlier prompt',
    );
    await sup.close({ stopAgents: true });
    await waitForNoProcess(scratch.home);
    assertNoProcessLeft(scratch.home);
  });
});
