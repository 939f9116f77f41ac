// PostgreSQL restarted under a fleet (real CLI on host A, the mock model; two hosts in this process on a
// server of the test's own): with an approval pending on A, the server restarts; both hosts reconnect,
// the approval stays answerable from B, its decision reaches A's CLI once, and the log has every event
// once (seq contiguous) while each host's projections equal a fresh fold of the log.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { Supervisor } from '../../src/supervisor/index.js';
import { startTestWorld, until } from '../../src/testing/index.js';
import { postgresBinDir, startThrowawayCluster } from '../../src/testing/postgres-cluster.js';
import { askingScript } from './helpers/asking-model.js';
import { processesUsingHome } from './helpers/sdk-session.js';
import { killProcesses } from '../../src/testing/world-processes.js';
import { assertNoProcessLeft, waitForNoProcess } from './helpers/supervisor-session.js';

/** Polls `probe` until it gives something (a probe that throws means the server is still coming back). */
const untilBack = <T>(probe: () => T | undefined, what: string): Promise<T> =>
  until(probe, { what, retryErrors: true });

const skip = postgresBinDir() === undefined ? 'no PostgreSQL server binaries to restart' : false;

describe('PostgreSQL restarted under a fleet (real CLI)', { timeout: 180_000, skip }, () => {
  it('a pending approval stays answerable, its decision reaches the CLI once, no event lost or repeated', async (t) => {
    const { script, toolResults } = askingScript('restarted.txt');
    const world = await startTestWorld(t, { prefix: 'warden-pg-restart-', script });
    const { scratch } = world;
    const cluster = await startThrowawayCluster();
    world.defer(() => cluster.stop());
    const url = await cluster.createDatabase();
    const sups: Supervisor[] = [];
    world.defer(async () => {
      for (const sup of sups) await sup.close({ stopAgents: true }).catch(() => undefined);
    });
    world.defer(() => {
      killProcesses(processesUsingHome(scratch.home));
    });
    const common = { store: url, claudePath: world.claudePath, env: world.env };
    const hostA = await Supervisor.open({
      ...common,
      dataDir: join(scratch.dir, 'data-a'),
      host: { name: 'host-a', sweepMs: 200 },
    });
    sups.push(hostA);
    const hostB = await Supervisor.open({
      ...common,
      dataDir: join(scratch.dir, 'data-b'),
      host: { name: 'host-b', sweepMs: 200 },
    });
    sups.push(hostB);
    const thread = await hostA.createThread({ cwd: scratch.cwd, mode: 'supervised' });
    await hostA.send(thread.id, '[[ask]] make a file');
    const approval = await untilBack(
      () => hostB.listApprovals({ status: 'pending' })[0],
      'the approval never showed on B',
    );

    await cluster.restart();

    // Both hosts reconnect on their next call; the approval is still pending and answerable from B.
    const pending = await untilBack(
      () => (hostB.getApproval(approval.id).status === 'pending' ? true : undefined),
      'B never read the log again',
    );
    assert.equal(pending, true);
    await untilBack(
      () => (hostA.getApproval(approval.id).status === 'pending' ? true : undefined),
      'A never read the log again',
    );
    const decided = await hostB.decide(approval.id, { behavior: 'allow' });
    assert.equal(decided.status, 'allowed');
    const run = await untilBack(() => {
      const found = hostA.getThread(thread.id).runs[0];
      return found?.status === 'completed' ? found : undefined;
    }, "A's run never completed");
    assert.equal(run.status, 'completed');
    assert.equal(toolResults(), 1, "A's CLI got one answer");

    // Every event once, in order; every host's projections equal a fresh fold of the log.
    const events = hostB.readEvents({ limit: 10_000 });
    assert.deepEqual(
      events.map((e) => e.seq),
      events.map((_, i) => i + 1),
    );
    assert.equal(events.filter((e) => e.type === 'approval.decided').length, 1);
    const fresh = PostgresStore.open(url);
    try {
      for (const host of [hostA, hostB]) {
        assert.deepEqual(host.listApprovals(), fresh.listApprovals());
        assert.deepEqual(host.getThread(thread.id).thread, fresh.getThread(thread.id));
        assert.deepEqual(host.getThread(thread.id).runs, fresh.listRuns(thread.id));
      }
    } finally {
      fresh.close();
    }

    for (const sup of sups.splice(0)) await sup.close({ stopAgents: true });
    await waitForNoProcess(scratch.home);
    assertNoProcessLeft(scratch.home);
  });
});
