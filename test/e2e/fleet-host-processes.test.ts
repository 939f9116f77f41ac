// Three hosts of a fleet on one PostgreSQL database — two in processes of their own, one in the test —
// with the real CLI on host A answered by the mock model. Host C starting up leaves A's pending approval
// alone; 50 decisions on that approval made at once from B's process and C: one wins, 49 are
// ConflictErrors; A's CLI gets one answer (the mock sees one tool result) and its run ends; B's event
// stream saw every event of the log once, in order, the ones A committed included.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { ConflictError } from '../../src/protocol/errors.js';
import { Supervisor } from '../../src/supervisor/index.js';
import { postgresAvailable } from '../../src/testing/postgres-cluster.js';
import { freshDatabase } from '../helpers/store-backends.js';
import { startHostProcess, type HostProcess as GenericHostProcess } from './helpers/host-process.js';
import { askingScript } from './helpers/asking-model.js';
import { startFleetWorld } from './helpers/fleet-world.js';
import { assertNoProcessLeft, waitForNoProcess } from './helpers/supervisor-session.js';

const HOST = fileURLToPath(new URL('../fixtures/fleet-host.ts', import.meta.url));

interface Reported {
  event?: { seq: number; threadId: string; type: string; data: Record<string, unknown> };
  ready?: { threadId: string; approvalId: string };
  opened?: { host: string };
  decided?: { won: number; conflicts: number; other: string[] };
}

type HostProcess = GenericHostProcess<Reported>;
const startHost = (config: Record<string, unknown>): HostProcess => startHostProcess<Reported>(HOST, config);

const skip = postgresAvailable() ? false : 'PostgreSQL is not available';

describe('a fleet of three hosts, two in their own processes (real CLI)', { timeout: 180_000, skip }, () => {
  it('50 decisions at once from two hosts: one wins, 49 conflict, the CLI on the third gets one answer', async (t) => {
    const { script, toolResults } = askingScript('fleet.txt');
    const fleet = await startFleetWorld<HostProcess>(t, { prefix: 'warden-fleet-', script });
    const { scratch, hosts, supervisors } = fleet;
    const url = await freshDatabase(t);
    const common = { store: url, claudePath: fleet.claudePath, env: fleet.env };
    const hostA = startHost({
      ...common,
      hostName: 'host-a',
      dataDir: join(scratch.dir, 'data-a'),
      cwd: scratch.cwd,
      prompt: '[[ask]] make a file',
    });
    hosts.push(hostA);
    const hostB = startHost({ ...common, hostName: 'host-b', dataDir: join(scratch.dir, 'data-b') });
    hosts.push(hostB);
    const ready = (await hostA.waitFor((line) => line.ready !== undefined)).ready;
    assert.ok(ready !== undefined);
    await hostB.waitFor((line) => line.opened !== undefined);

    // Host C starts while A waits on its CLI's request: A's approval is not C's to expire.
    const hostC = await Supervisor.open({
      ...common,
      dataDir: join(scratch.dir, 'data-c'),
      host: { name: 'host-c' },
    });
    supervisors.push(hostC);
    assert.equal(hostC.recovered.approvalsExpired, 0);
    assert.equal(hostC.getApproval(ready.approvalId).status, 'pending');

    hostB.child.stdin.write(`${JSON.stringify({ decide: { approvalId: ready.approvalId, count: 25 } })}\n`);
    const fromC = await Promise.allSettled(
      Array.from({ length: 25 }, () => hostC.decide(ready.approvalId, { behavior: 'allow' })),
    );
    const fromB = (await hostB.waitFor((line) => line.decided !== undefined)).decided;
    assert.ok(fromB !== undefined);
    assert.deepEqual(fromB.other, [], 'every losing decision on B is a ConflictError');
    const wonOnC = fromC.filter((o) => o.status === 'fulfilled').length;
    const conflictsOnC = fromC.filter(
      (o) => o.status === 'rejected' && o.reason instanceof ConflictError,
    ).length;
    assert.equal(wonOnC + fromB.won, 1, 'one decision won');
    assert.equal(conflictsOnC + fromB.conflicts, 49, '49 ConflictErrors');

    const ended = await hostA.waitFor((line) => line.event?.type === 'run.ended');
    assert.equal(ended.event?.data.status, 'completed');
    assert.ok(existsSync(join(scratch.cwd, 'fleet.txt')), 'the tool ran on host A');
    assert.equal(toolResults(), 1, "A's CLI got one answer");
    assert.equal(hostC.getApproval(ready.approvalId).status, 'allowed');

    // B followed the whole log live: every event once, in order, up to A's run.ended.
    const endSeq = ended.event?.seq ?? 0;
    await hostB.waitFor((line) => line.event?.seq === endSeq);
    const seqsOnB = hostB.lines.flatMap((line) => (line.event === undefined ? [] : [line.event.seq]));
    assert.deepEqual(
      seqsOnB.slice(0, endSeq),
      Array.from({ length: endSeq }, (_, i) => i + 1),
    );

    for (const host of hosts) {
      const exited = once(host.child, 'exit');
      host.child.stdin.end();
      assert.deepEqual(await exited, [0, null], `the host exits cleanly; stderr: ${host.stderr()}`);
    }
    await hostC.close({ stopAgents: true });
    await waitForNoProcess(scratch.home);
    assertNoProcessLeft(scratch.home);
  });
});
