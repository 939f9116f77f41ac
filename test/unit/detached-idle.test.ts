// The idle limit of a detached CLI with no host: the option's validation, the deadline a host leaves for
// the watchdog (whole seconds, rounded up), the marker files and who wins the race between a host taking
// the CLI back and the watchdog ending it, and what open() makes of each recorded CLI: joined again,
// parked (let go of idle and ended, or not joined here), or left to the recovery of a crash.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';

import type { EventDraft } from '../../src/store/index.js';
import { openStore } from '../../src/store/open-store.js';
import { spoolRoot } from '../../src/supervisor/durable/detached-cli.js';
import {
  DEFAULT_DETACHED_IDLE_MS,
  idleDeadline,
  validateDetachedIdleMs,
} from '../../src/supervisor/durable/detached-idle.js';
import { recoverLeftovers } from '../../src/supervisor/durable/host-restart.js';
import { findDetachedProcesses } from '../../src/supervisor/durable/reattach.js';
import { Supervisor } from '../../src/supervisor/index.js';
import {
  ENDED_IDLE,
  IDLE_MARKER,
  claimFromWatchdog,
  markIdleUntil,
  readLifetime,
} from '../../src/transport/detached-lifetime.js';
import { startTicksOf } from '../../src/transport/process-tree.js';

describe('validateDetachedIdleMs', () => {
  it('defaults to thirty minutes; 0 and Infinity never end an idle CLI', () => {
    assert.equal(validateDetachedIdleMs(undefined), DEFAULT_DETACHED_IDLE_MS);
    assert.equal(DEFAULT_DETACHED_IDLE_MS, 1_800_000);
    assert.equal(validateDetachedIdleMs(0), Infinity);
    assert.equal(validateDetachedIdleMs(Infinity), Infinity);
    assert.equal(validateDetachedIdleMs(1), 1);
    assert.equal(validateDetachedIdleMs(2 ** 31 - 1), 2 ** 31 - 1);
  });

  it('refuses anything else with a TypeError, at open', () => {
    for (const bad of [-1, 1.5, Number.NaN, -Infinity, 2 ** 31, '30m', null, true])
      assert.throws(() => validateDetachedIdleMs(bad), TypeError, String(bad));
    assert.throws(
      () => Supervisor.open({ dataDir: join(tmpdir(), 'never-made'), detachedIdleMs: -5 }),
      (error: unknown) => error instanceof TypeError && /detachedIdleMs/.test(error.message),
    );
  });
});

describe('idleDeadline', () => {
  it('is now plus the period, rounded up to a whole second, for an idle CLI', () => {
    assert.equal(idleDeadline(true, 1000, 10_000), 11_000);
    assert.equal(idleDeadline(true, 1000, 10_001), 12_000);
    assert.equal(idleDeadline(true, 1, 10_000), 11_000, 'never before the period is over');
  });

  it('is none for a busy CLI, or when the period is never', () => {
    assert.equal(idleDeadline(false, 1000, 10_000), null);
    assert.equal(idleDeadline(true, Infinity, 10_000), null);
  });
});

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'warden-idle-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('the idle marker', () => {
  it('is written whole, read back, and taken away by a host before the watchdog acts', (t) => {
    const dir = tempDir(t);
    assert.deepEqual(readLifetime(dir), { idleUntil: null, periodMs: null, endedIdle: false });
    markIdleUntil(dir, 1_700_000_000_500, 1500);
    assert.equal(readFileSync(join(dir, IDLE_MARKER), 'utf8'), '1700000001 2\n', 'whole seconds, up');
    assert.deepEqual(readLifetime(dir), { idleUntil: 1_700_000_001_000, periodMs: 2000, endedIdle: false });
    assert.equal(claimFromWatchdog(dir), 'claimed');
    assert.equal(existsSync(join(dir, IDLE_MARKER)), false);
    assert.equal(claimFromWatchdog(dir), 'claimed', 'no marker: nothing to take back');
  });

  it('tells a host it came too late once the watchdog renamed it', (t) => {
    const dir = tempDir(t);
    writeFileSync(join(dir, ENDED_IDLE), '1700000001 60\n');
    assert.equal(claimFromWatchdog(dir), 'ending');
    assert.deepEqual(readLifetime(dir), { idleUntil: 1_700_000_001_000, periodMs: 60_000, endedIdle: true });
  });

  it('gives no deadline for a marker that is not two numbers (the watchdog ignores it too)', (t) => {
    const dir = tempDir(t);
    writeFileSync(join(dir, IDLE_MARKER), 'soon\n');
    assert.deepEqual(readLifetime(dir), { idleUntil: null, periodMs: null, endedIdle: false });
  });
});

const threadCreated: EventDraft = {
  type: 'thread.created',
  data: { cwd: '/w', mode: 'supervised', model: null, rules: { allow: [], deny: [] } },
};

/** A thread whose live session's detached CLI is `pid`, spooling in `<root>/<id>.1`. */
function recordCli(
  store: ReturnType<typeof openStore>,
  root: string,
  threadId: string,
  pid: number,
  startTime: number,
): string {
  const spoolDir = join(root, `${threadId}.1`);
  mkdirSync(spoolDir, { recursive: true });
  writeFileSync(join(spoolDir, 'output'), '');
  store.commit(threadId, [
    threadCreated,
    { type: 'session.started', data: { generation: 1, resume: null } },
    {
      type: 'session.process_started',
      data: { generation: 1, pid, startTime, spoolDir, marker: `m-${threadId}` },
    },
  ]);
  return spoolDir;
}

/** A process that runs until the test ends, leading its own group (as a detached CLI does). */
function runningProcess(t: TestContext): { pid: number; startTime: number } {
  const child = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
  child.unref();
  t.after(() => {
    try {
      process.kill(-(child.pid ?? 0), 'SIGKILL');
    } catch {
      // Gone.
    }
  });
  const pid = child.pid ?? 0;
  return { pid, startTime: startTicksOf(pid) ?? 0 };
}

describe('open(): the detached CLIs an earlier host left', () => {
  it('joins running ones again, parks those let go of idle that are not, leaves the rest to recovery', async (t) => {
    const dataDir = tempDir(t);
    const root = spoolRoot(dataDir);
    const store = openStore(dataDir);
    t.after(() => store.close());
    const gone = { pid: 2 ** 22 + 1, startTime: 1 }; // no such process
    const running = runningProcess(t);
    const ending = runningProcess(t);
    const spools = {
      joined: recordCli(store, root, 'joined', running.pid, running.startTime),
      endedIdle: recordCli(store, root, 'ended-idle', gone.pid, gone.startTime),
      ending: recordCli(store, root, 'ending', ending.pid, ending.startTime),
      crashed: recordCli(store, root, 'crashed', gone.pid, gone.startTime),
    };
    markIdleUntil(spools.joined, Date.now() + 60_000, 60_000);
    writeFileSync(join(spools.endedIdle, ENDED_IDLE), '1700000001 1800\n');
    writeFileSync(join(spools.ending, ENDED_IDLE), '1700000001 1800\n');

    const notHere = findDetachedProcesses(store, root, { attach: false, owned: () => true });
    assert.deepEqual([...notHere.attachable.keys()], [], 'a host that does not re-attach joins nothing');
    assert.deepEqual([...notHere.parkable.keys()].sort(), ['ended-idle', 'ending', 'joined']);
    assert.ok(existsSync(join(spools.joined, IDLE_MARKER)), 'and takes nothing from the watchdog');

    const { recovered, attachable } = await recoverLeftovers(store, {
      dataDir,
      detached: true,
      owned: () => true,
    });
    assert.deepEqual([...attachable.keys()], ['joined']);
    assert.equal(existsSync(join(spools.joined, IDLE_MARKER)), false, 'taken back from its watchdog');
    assert.equal(recovered.threadsParked, 2);
    assert.equal(recovered.processesReattached, 1);
    assert.equal(recovered.threads, 1, 'only the crashed one is recovered as after a crash');
    const status = (id: string) => store.getThread(id)?.status;
    assert.deepEqual(['joined', 'ended-idle', 'ending', 'crashed'].map(status), [
      'live',
      'parked',
      'parked',
      'idle',
    ]);
    const parked = store
      .readEvents({ after: 0, limit: 1000 })
      .filter((event) => event.type === 'thread.parked');
    assert.deepEqual(
      parked.map((event) => [event.threadId, event.data]),
      [
        ['ended-idle', { generation: 1, reason: 'detached_idle', idleMs: 1_800_000 }],
        ['ending', { generation: 1, reason: 'detached_idle', idleMs: 1_800_000 }],
      ],
    );
    assert.equal(store.getThread('ending')?.cliProcess, null, 'the CLI being ended was stopped');
    assert.deepEqual(
      [spools.joined, spools.endedIdle, spools.ending, spools.crashed].map((dir) => existsSync(dir)),
      [true, false, false, false],
      'only the joined CLI keeps its spool',
    );
  });
});
