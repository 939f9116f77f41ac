// A host killed with SIGKILL leaves its CLI running (it leads its own process group). The log records each
// CLI's pid and start time, so the next open() of the same dataDir stops a piped CLI that is still running
// and says so, and re-attaches to a detached one instead; a pid that now names another process (its start
// time differs) is never signalled.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

import { SqliteStore } from '../../src/store/index.js';
import { DATABASE_FILE, Supervisor, type StoredEvent } from '../../src/supervisor/index.js';
import {
  createScratch,
  offlineClaudeEnv,
  pinnedClaudePath,
  scenario,
  startMockModel,
} from '../../src/testing/index.js';
import { signalGroup, startTicksOf } from '../../src/transport/process-tree.js';
import { processesUsingHome } from '../e2e/helpers/sdk-session.js';
import { killProcesses } from '../../src/testing/world-processes.js';
import { allEvents, waitForNoProcess } from '../e2e/helpers/supervisor-session.js';
import { fakeQueries } from '../fixtures/supervisor-fake-query.js';
import { exists } from '../helpers/process-exists.js';

const HOST = fileURLToPath(new URL('../fixtures/supervisor-host.ts', import.meta.url));

/** Polls (bounded) until the pid names no process at all; true when it does not. */
async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (exists(pid)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

function leftoverEvents(events: readonly StoredEvent[]) {
  return events.flatMap((e) => (e.type === 'session.leftover_process' ? [e.data] : []));
}

/** The CLI asks to run one command, then answers. */
function askOnce() {
  return scenario()
    .on('ask')
    .callTool('Bash', { command: 'touch left.txt', description: 'Create a file' })
    .thenAnswer('done')
    .build();
}

describe('supervisor: CLI processes a crashed host left', { timeout: 120_000 }, () => {
  it('piped ones are stopped by the next open of the same dataDir, and the log says so', async (t) => {
    const scratch = createScratch('warden-sec-');
    const mock = await startMockModel({ script: askOnce() });
    const dataDir = join(scratch.dir, 'data');
    const env = offlineClaudeEnv({ mockUrl: mock.url, home: scratch.home, tmpdir: scratch.tmpdir });
    const config = {
      dataDir,
      claudePath: pinnedClaudePath(),
      env,
      cwd: scratch.cwd,
      prompt: '[[ask]] go',
      detached: false,
    };
    const host = spawn(process.execPath, ['--import', 'tsx', HOST, JSON.stringify(config)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const state: { sup?: Supervisor } = {};
    t.after(async () => {
      if (host.exitCode === null && host.signalCode === null) host.kill('SIGKILL');
      killProcesses(processesUsingHome(scratch.home));
      await state.sup?.close({ stopAgents: true });
      await mock.close();
      await waitForNoProcess(scratch.home);
      scratch.cleanup();
    });

    let spawned: { pid: number; startTime: number | null; generation: number } | undefined;
    for await (const line of createInterface({ input: host.stdout })) {
      const message = JSON.parse(line) as { event?: { type: string; data: never }; ready?: unknown };
      if (message.event?.type === 'session.process_started') spawned = message.event.data;
      if (message.ready !== undefined) break;
    }
    assert.ok(spawned !== undefined, 'the host recorded its CLI process');
    const { pid } = spawned;
    assert.equal(spawned.startTime, startTicksOf(pid), 'with the start time /proc gives for it');

    const exited = once(host, 'exit');
    host.kill('SIGKILL');
    await exited;
    assert.ok(exists(pid), 'the CLI outlives its SIGKILLed host');
    assert.ok(processesUsingHome(scratch.home).includes(pid));

    const sup = await Supervisor.open({ dataDir, claudePath: pinnedClaudePath(), env, detached: false });
    state.sup = sup;
    assert.ok(await goneWithin(pid, 5000), 'the leftover CLI is gone (ESRCH) soon after open()');
    assert.equal(sup.recovered.processesStopped, 1);
    const events = await allEvents(sup);
    assert.deepEqual(
      leftoverEvents(events).map(({ pid: p, startTime, outcome }) => ({ p, startTime, outcome })),
      [{ p: pid, startTime: spawned.startTime, outcome: 'stopped' }],
    );
    const recordedSignal = leftoverEvents(events)[0]?.signal;
    assert.ok(recordedSignal === 'SIGTERM' || recordedSignal === 'SIGKILL');
    assert.deepEqual(
      sup.listThreads().map((thread) => thread.cliProcess),
      [null],
      'the record is cleared once the process is known gone',
    );
    await waitForNoProcess(scratch.home);
    assert.deepEqual(processesUsingHome(scratch.home), [], 'nothing of the CLI is left');
  });

  it('detached ones are re-attached, not stopped, and end with stopAgents', async (t) => {
    const scratch = createScratch('warden-sec-');
    const mock = await startMockModel({ script: askOnce() });
    const dataDir = join(scratch.dir, 'data');
    const env = offlineClaudeEnv({ mockUrl: mock.url, home: scratch.home, tmpdir: scratch.tmpdir });
    const config = { dataDir, claudePath: pinnedClaudePath(), env, cwd: scratch.cwd, prompt: '[[ask]] go' };
    const host = spawn(process.execPath, ['--import', 'tsx', HOST, JSON.stringify(config)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const state: { sup?: Supervisor; pid?: number } = {};
    t.after(async () => {
      if (host.exitCode === null && host.signalCode === null) host.kill('SIGKILL');
      if (state.pid !== undefined) signalGroup(state.pid, 'SIGKILL');
      killProcesses(processesUsingHome(scratch.home));
      await state.sup?.close({ stopAgents: true });
      await mock.close();
      await waitForNoProcess(scratch.home);
      scratch.cleanup();
    });

    let spawned: { pid: number; startTime: number | null; spoolDir?: string } | undefined;
    let approvalId: string | undefined;
    for await (const line of createInterface({ input: host.stdout })) {
      const message = JSON.parse(line) as {
        event?: { type: string; data: never };
        ready?: { approvalId: string };
      };
      if (message.event?.type === 'session.process_started') spawned = message.event.data;
      if (message.ready !== undefined) {
        approvalId = message.ready.approvalId;
        break;
      }
    }
    assert.ok(spawned !== undefined && approvalId !== undefined);
    state.pid = spawned.pid;
    const { spoolDir } = spawned;
    assert.ok(spoolDir !== undefined && existsSync(spoolDir), 'a detached CLI, with its spool');
    const exited = once(host, 'exit');
    host.kill('SIGKILL');
    await exited;

    const sup = await Supervisor.open({ dataDir, claudePath: pinnedClaudePath(), env });
    state.sup = sup;
    assert.equal(sup.recovered.processesStopped, 0);
    assert.equal(sup.recovered.processesReattached, 1);
    assert.ok(exists(spawned.pid), 'the detached CLI was not signalled');
    assert.deepEqual(leftoverEvents(await allEvents(sup)), [], 'it is no leftover');
    assert.equal(sup.getApproval(approvalId).status, 'pending');
    await sup.close({ stopAgents: true });
    assert.ok(await goneWithin(spawned.pid, 5000), 'stopAgents ends it');
    assert.equal(existsSync(spoolDir), false, 'and removes its spool');
  });

  it('never signals a process whose pid was reused; forgets one that is gone', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-sec-leftover-'));
    const children: ChildProcess[] = [];
    t.after(() => {
      for (const child of children)
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    });
    const sleeper = (): ChildProcess & { pid: number } => {
      const child = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
      children.push(child);
      assert.ok(child.pid !== undefined);
      return child as ChildProcess & { pid: number };
    };
    const unrelated = sleeper();
    const ours = sleeper();
    const finished = spawn('true', { stdio: 'ignore' });
    await once(finished, 'exit');
    const started = (pid: number): number => {
      const ticks = startTicksOf(pid);
      assert.ok(ticks !== undefined);
      return ticks;
    };

    const dataDir = join(dir, 'data');
    const store = SqliteStore.open(join(dataDir, DATABASE_FILE));
    const record = (threadId: string, pid: number, startTime: number): void => {
      store.commit(threadId, [
        {
          type: 'thread.created',
          data: { cwd: dir, mode: 'supervised', model: null, rules: { allow: [], deny: [] } },
        },
        { type: 'session.started', data: { generation: 1, resume: null } },
        { type: 'session.process_started', data: { generation: 1, pid, startTime } },
      ]);
    };
    // The same pid, but a process that started at another time: not the CLI that was recorded.
    record('reused', unrelated.pid, started(unrelated.pid) + 1);
    record('ours', ours.pid, started(ours.pid));
    record('gone', finished.pid ?? 0, 1);
    store.close();

    const sup = await Supervisor.open({ dataDir, query: fakeQueries().query });
    t.after(() => sup.close());
    assert.ok(exists(unrelated.pid), 'the process that reused the pid was left alone');
    assert.equal(unrelated.signalCode, null);
    assert.ok(await goneWithin(ours.pid, 5000), 'the recorded process was stopped');
    assert.equal(sup.recovered.processesStopped, 1);
    const outcomes = Object.fromEntries(
      (await allEvents(sup)).flatMap((e) =>
        e.type === 'session.leftover_process' ? [[e.threadId, [e.data.outcome, e.data.signal]]] : [],
      ),
    );
    assert.deepEqual(outcomes, {
      reused: ['reused', null],
      ours: ['stopped', 'SIGTERM'],
      gone: ['gone', null],
    });
    assert.deepEqual(
      sup.listThreads().map((thread) => thread.cliProcess),
      [null, null, null],
    );
  });
});
