// Two hosts of a fleet in one process, on one PostgreSQL database, the real CLI on host A answered by the
// mock model: a decision made on host B reaches A's CLI (the tool runs, the run ends); B knows A runs the
// thread; a third host starting up leaves A's pending approval alone; 50 concurrent decisions from
// both hosts: one wins, 49 ConflictError, the CLI got one answer; with A's LISTEN connection killed, the
// sweep still delivers B's decision, within a bound.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';

import { ConflictError } from '../../src/index.js';
import type { FleetHostOptions } from '../../src/store/host-registry.js';
import { Supervisor, type StoredEvent } from '../../src/supervisor/index.js';
import { scenario, type Scratch } from '../../src/testing/index.js';
import { postgresAvailable } from '../../src/testing/postgres-cluster.js';
import { freshDatabase, testCluster } from '../helpers/store-backends.js';
import { startFleetWorld } from './helpers/fleet-world.js';
import { assertNoProcessLeft, waitForEvent, waitForNoProcess } from './helpers/supervisor-session.js';

type Requested = Extract<StoredEvent, { type: 'approval.requested' }>;

interface Fleet {
  scratch: Scratch;
  url: string;
  /** Requests the mock saw that carry a tool result (the CLI ran the tool and reports back). */
  toolResults: () => number;
  /** Resolves when the mock sees the `n`th request with a tool result (1-based), with the time it did. */
  toolResult: (n: number) => Promise<number>;
  open(name: string, host?: Partial<FleetHostOptions>): Promise<Supervisor>;
}

async function startFleet(t: TestContext): Promise<Fleet> {
  let toolResultRequests = 0;
  const toolResultAt: number[] = [];
  const toolResultWaiters: (() => void)[] = [];
  const inner = scenario()
    .on('ask')
    .callTool('Bash', { command: 'touch fleet.txt', description: 'Create a file' })
    .thenAnswer('The file is there.')
    .on('twice')
    .callTool('Bash', { command: 'touch first.txt', description: 'Create the first file' })
    .callTool('Bash', { command: 'touch fleet.txt', description: 'Create the second file' })
    .thenAnswer('The file is there.')
    .build();
  const fleet = await startFleetWorld(t, {
    prefix: 'warden-fleet-',
    script: (ctx) => {
      if (JSON.stringify(ctx.body).includes('"tool_result"')) {
        toolResultRequests += 1;
        toolResultAt.push(performance.now());
        for (const wake of toolResultWaiters.splice(0)) wake();
      }
      return inner(ctx);
    },
  });
  const url = await freshDatabase(t);
  const { scratch, supervisors: opened } = fleet;
  return {
    scratch,
    url,
    toolResults: () => toolResultRequests,
    async toolResult(n) {
      while (toolResultAt.length < n) await new Promise<void>((resolve) => toolResultWaiters.push(resolve));
      return toolResultAt[n - 1] ?? Number.NaN;
    },
    async open(name, host = {}) {
      const sup = await Supervisor.open({
        dataDir: join(scratch.dir, `data-${name}`),
        store: url,
        host: { name, ...host },
        claudePath: fleet.claudePath,
        env: fleet.env,
      });
      opened.push(sup);
      return sup;
    },
  };
}

/** Host A runs a thread whose CLI asks to run a command; resolves with the pending request. */
async function askOnA(fleet: Fleet, hostA: Supervisor, keyword = 'ask'): Promise<Requested> {
  const thread = await hostA.createThread({ cwd: fleet.scratch.cwd, mode: 'supervised' });
  await hostA.send(thread.id, `[[${keyword}]] make a file`);
  return waitForEvent(hostA, 'approval.requested');
}

const skip = postgresAvailable() ? false : 'PostgreSQL is not available';

describe('a fleet of two hosts on one PostgreSQL (real CLI)', { timeout: 180_000, skip }, () => {
  it('a decision made on host B reaches the CLI on host A; a host starting up leaves it pending', async (t) => {
    const fleet = await startFleet(t);
    const hostA = await fleet.open('host-a');
    const hostB = await fleet.open('host-b');
    // The same host first: A decides the first command (decision → the CLI's tool result at the mock).
    const first = await askOnA(fleet, hostA, 'twice');
    let started = performance.now();
    await hostA.decide(first.data.approvalId, { behavior: 'allow' });
    const sameHostMs = (await fleet.toolResult(1)) - started;
    const asked = await waitForEvent(
      hostA,
      'approval.requested',
      (e) => e.data.approvalId !== first.data.approvalId,
    );
    const { approvalId } = asked.data;
    const threadId = asked.threadId;

    // B sees the approval, but the CLI lives on A (a command made on B runs there: fleet-remote-commands).
    assert.equal(hostB.getApproval(approvalId).status, 'pending');
    assert.equal(hostB.commandHost(threadId), 'host-a');

    // A third host starting up recovers only its own threads: A's approval stays pending.
    const hostC = await fleet.open('host-c');
    assert.equal(hostC.recovered.approvalsExpired, 0);
    assert.equal(hostC.recovered.runsInterrupted, 0);
    assert.equal(hostA.getApproval(approvalId).status, 'pending');
    assert.deepEqual(
      hostC.listHosts().map((h) => [h.name, h.live]),
      [
        ['host-a', true],
        ['host-b', true],
        ['host-c', true],
      ],
    );

    started = performance.now();
    const decided = await hostB.decide(approvalId, { behavior: 'allow' });
    assert.equal(decided.status, 'allowed');
    const crossHostMs = (await fleet.toolResult(2)) - started;
    const ended = await waitForEvent(hostA, 'run.ended');
    assert.equal(ended.data.status, 'completed');
    assert.equal(ended.data.result?.text, 'The file is there.');
    assert.ok(existsSync(join(fleet.scratch.cwd, 'fleet.txt')), 'the tool ran on host A');
    assert.equal(fleet.toolResults(), 2, 'each decision answered once');
    t.diagnostic(
      `decision → the CLI's tool result: same host ${sameHostMs.toFixed(1)} ms, cross host ${crossHostMs.toFixed(1)} ms`,
    );
  });

  it('50 concurrent decisions from both hosts: one wins, 49 conflict, the CLI gets one answer', async (t) => {
    const fleet = await startFleet(t);
    const hostA = await fleet.open('host-a');
    const hostB = await fleet.open('host-b');
    const { data } = await askOnA(fleet, hostA);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        (i % 2 === 0 ? hostA : hostB).decide(
          data.approvalId,
          i % 3 === 0 ? { behavior: 'deny', message: `denied by decision ${i}` } : { behavior: 'allow' },
        ),
      ),
    );
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    assert.equal(won.length, 1);
    assert.equal(lost.length, 49);
    for (const { reason } of lost) assert.ok(reason instanceof ConflictError, String(reason));
    const ended = await waitForEvent(hostA, 'run.ended');
    assert.equal(ended.data.status, 'completed');
    const events = hostA.readEvents({ threadId: ended.threadId });
    assert.equal(events.filter((e) => e.type === 'approval.decided').length, 1);
    assert.equal(fleet.toolResults(), 1, 'the CLI got one answer and reported one tool result');
  });

  it("with host A's LISTEN connection killed, the sweep delivers B's decision", async (t) => {
    const fleet = await startFleet(t);
    // Shorter than the listener's reconnect (1 s): a delivery under a second is the sweep's.
    const sweepMs = 300;
    const hostA = await fleet.open('host-a', { sweepMs });
    const hostB = await fleet.open('host-b');
    const asked = await askOnA(fleet, hostA);
    const cluster = await testCluster();
    const killed = await cluster.sql(
      `SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity
        WHERE application_name = $1 AND datname = $2`,
      ['warden-listen:host-a', databaseOf(fleet.url)],
    );
    assert.equal(killed.length, 1, 'host A had one listener connection');
    const listeners = () =>
      // This database's only: other test files run hosts of the same names on databases of their own.
      cluster.sql(`SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = $2`, [
        'warden-listen:host-a',
        databaseOf(fleet.url),
      ]);
    while ((await listeners()).length > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const started = performance.now();
    await hostB.decide(asked.data.approvalId, { behavior: 'allow' });
    const deliveredMs = (await fleet.toolResult(1)) - started;
    const relistened = (await listeners()).length;
    t.diagnostic(
      `listener killed: decision on B → the CLI's tool result: ${deliveredMs.toFixed(1)} ms (sweep ${sweepMs} ms; listening again by then: ${relistened})`,
    );
    // The sweep (1 s by default) or the listener's reconnect (1 s) catches up; generous for a loaded machine.
    assert.ok(deliveredMs < 10_000, `delivered in ${deliveredMs} ms`);
    const ended = await waitForEvent(hostA, 'run.ended');
    assert.equal(ended.data.status, 'completed');
    await hostA.close({ stopAgents: true });
    await waitForNoProcess(fleet.scratch.home);
    assertNoProcessLeft(fleet.scratch.home);
  });
});

/** The database a connection URL names. */
function databaseOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1));
}
