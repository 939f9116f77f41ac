// Group commit under the supervisor and the server: a decision's HTTP 200 and the CLI's answer leave only
// after the fsync that makes the decision durable, decisions made while an fsync runs share the next one,
// a failed fsync fails the decision with a 503 (StoreError) and the CLI hears nothing, and a host killed
// right after a 200 has the decision on disk. The fsync is the only stand-in (held or failed through the
// walSync seam); the supervisor, its store and the server are real.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, it, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';

import type { PermissionResult } from '../../src/protocol/control.js';
import { StoreError } from '../../src/protocol/errors.js';
import { createServer } from '../../src/server/index.js';
import { SqliteStore } from '../../src/store/index.js';
import { walSync } from '../../src/store/wal-barrier.js';
import { DATABASE_FILE, type Supervisor } from '../../src/supervisor/index.js';
import { until } from '../../src/testing/index.js';
import { openFakeSupervisor, startTurn } from '../fixtures/supervisor-fake-query.js';

const realSync = walSync.sync;
const HOST = fileURLToPath(new URL('../fixtures/group-commit-host.ts', import.meta.url));
const BOUND_MS = 20_000;

/** Polls `check` until it holds (bounded: a hang fails the test, the machine's load does not). */
const untilBounded = (check: () => boolean, what: string): Promise<true> =>
  until(check, { what, timeoutMs: BOUND_MS, intervalMs: 5 });

/** A few turns of the event loop: time for anything already able to run to run. */
async function turns(count = 20): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** The fsync held at a gate (counted), or failing once released. */
function gateSyncs(error?: Error): { calls: () => number; release(): void } {
  let calls = 0;
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  walSync.sync = async (fd) => {
    calls += 1;
    await gate;
    if (error !== undefined) throw error;
    return realSync(fd);
  };
  return { calls: () => calls, release: () => open() };
}

interface Settled<T> {
  value: T | undefined;
  done: boolean;
}

function watch<T>(promise: Promise<T>): Settled<T> {
  const settled: Settled<T> = { value: undefined, done: false };
  void promise.then((value) => Object.assign(settled, { value, done: true }));
  return settled;
}

async function serverFor(t: TestContext, sup: Supervisor, dataDir: string) {
  const server = await createServer({ supervisor: sup, dataDir });
  t.after(() => server.close());
  const decide = (approvalId: string) =>
    fetch(`${server.url}/api/approvals/${approvalId}/decision`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ behavior: 'allow' }),
    }).then(async (response) => ({
      status: response.status,
      body: (await response.json()) as { error?: { code: string } },
    }));
  return { decide };
}

/** The approval.requested events readers are shown (they are on disk). */
function visibleRequests(sup: Supervisor, threadId: string): number {
  return sup.readEvents({ threadId }).filter((event) => event.type === 'approval.requested').length;
}

function pendingIds(sup: Supervisor, threadId: string): string[] {
  return sup.listApprovals({ threadId, status: 'pending' }).map((approval) => approval.id);
}

describe('group commit: nothing is acknowledged before it is on disk', () => {
  afterEach(() => {
    walSync.sync = realSync;
  });

  it('holds every 200 and every CLI answer until the fsync completes; ten decisions share two fsyncs', async (t) => {
    const { sup, made, thread, dataDir } = await openFakeSupervisor(t);
    const { decide } = await serverFor(t, sup, dataDir);
    const { fake } = await startTurn(sup, made, thread.id, 'run the checks');
    const asks = Array.from({ length: 10 }, (_, i) => fake.ask('Bash', { command: `make check-${i}` }));
    await untilBounded(() => pendingIds(sup, thread.id).length === 10, 'ten approvals are pending');
    const ids = pendingIds(sup, thread.id);
    const answers = asks.map((ask) => watch<PermissionResult>(ask.result));
    // Every approval.requested is on disk and shown; from here the fsync waits at the gate.
    await untilBounded(() => visibleRequests(sup, thread.id) === 10, 'the requests are visible');
    const seqBefore = sup.lastSeq();
    const syncs = gateSyncs();

    const replies = ids.map((id) => watch(decide(id)));
    await untilBounded(
      () => ids.every((id) => sup.getApproval(id).status === 'allowed'),
      'all ten decisions are committed',
    );
    await turns();
    assert.equal(syncs.calls(), 1, 'one fsync under way, the rest wait to share the next');
    assert.equal(replies.filter((reply) => reply.done).length, 0, 'no 200 before the decision is on disk');
    assert.equal(answers.filter((answer) => answer.done).length, 0, 'no CLI answer before it either');
    assert.equal(sup.lastSeq(), seqBefore, 'readers of the log do not see the decisions yet');
    assert.deepEqual(
      sup.readEvents({ after: seqBefore }).map((event) => event.type),
      [],
      'nor do events() and the WebSocket stream',
    );

    syncs.release();
    await untilBounded(() => replies.every((reply) => reply.done), 'every decision is answered');
    for (const reply of replies) assert.equal(reply.value?.status, 200);
    await untilBounded(() => answers.every((answer) => answer.done), 'the CLI has every answer');
    for (const answer of answers) assert.equal(answer.value?.behavior, 'allow');
    assert.equal(syncs.calls(), 2, 'ten decisions, two fsyncs');
    assert.equal(
      sup.readEvents({ after: seqBefore }).filter((event) => event.type === 'approval.decided').length,
      10,
    );
  });

  it('fails the decision with a 503 when the fsync fails, and the CLI hears nothing', async (t) => {
    const { sup, made, thread, dataDir, warnings } = await openFakeSupervisor(t);
    const { decide } = await serverFor(t, sup, dataDir);
    const { fake } = await startTurn(sup, made, thread.id, 'deploy');
    const ask = fake.ask('Bash', { command: 'make deploy' });
    const answer = watch(ask.result);
    await untilBounded(() => pendingIds(sup, thread.id).length === 1, 'the approval is pending');
    const [approvalId] = pendingIds(sup, thread.id);
    assert.ok(approvalId !== undefined);
    await untilBounded(() => visibleRequests(sup, thread.id) === 1, 'the request is visible');
    const seqBefore = sup.lastSeq();
    const syncs = gateSyncs(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
    syncs.release();

    const refused = await decide(approvalId);
    assert.equal(refused.status, 503);
    assert.equal(refused.body.error?.code, 'STORE_UNAVAILABLE');
    await turns();
    assert.equal(answer.done, false, 'the CLI got no answer');
    assert.equal(sup.lastSeq(), seqBefore, 'nobody is shown the decision');
    assert.ok(
      warnings.some((warning) => warning instanceof StoreError && warning.code === 'STORE_UNAVAILABLE'),
      'the failure is reported',
    );
    // The store takes nothing more until it is opened again: a second try is a 503 too, never a 200.
    assert.equal((await decide(approvalId)).status, 503);
    await turns();
    assert.equal(answer.done, false);
    // The CLI withdraws its request (or dies): the waiting call ends with an answer nobody reads.
    ask.withdraw();
    await untilBounded(() => answer.done, 'the withdrawn request ends');
  });

  it('a host SIGKILLed right after a 200 has the decision on disk', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-group-commit-kill-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const child = spawn(process.execPath, ['--import', 'tsx', HOST, dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = once(child, 'exit');
    t.after(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
    const { url, token, approvalIds } = JSON.parse(line) as {
      url: string;
      token: string;
      approvalIds: string[];
    };
    const decided: string[] = [];
    for (const approvalId of approvalIds) {
      const response = await fetch(`${url}/api/approvals/${approvalId}/decision`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ behavior: 'deny', message: 'not now' }),
      });
      assert.equal(response.status, 200);
      decided.push(approvalId);
    }
    // Killed the moment the last 200 arrived: no close, no checkpoint.
    child.kill('SIGKILL');
    const [, signal] = (await exited) as [number | null, string | null];
    assert.equal(signal, 'SIGKILL');
    assert.throws(() => process.kill(child.pid ?? 0, 0), { code: 'ESRCH' });

    const store = SqliteStore.open(join(dir, 'data', DATABASE_FILE));
    try {
      for (const approvalId of decided) {
        const approval = store.getApproval(approvalId);
        assert.equal(approval?.status, 'denied', `approval ${approvalId} is decided after the kill`);
      }
      const decisions = store.readEvents({ limit: 10_000 }).filter((e) => e.type === 'approval.decided');
      assert.equal(decisions.length, decided.length);
    } finally {
      store.close();
    }
  });
});
