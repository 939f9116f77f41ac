// A host of a fleet goes away (real CLI, mock model, one PostgreSQL). Host A runs in a process of its own
// with a short lease and is SIGKILLed; host B runs in the test. (1) With an approval pending on A: once
// A's lease expires, B's API (the approvals and thread JSON the server sends) says A is unreachable and a
// decision on B is refused with nothing recorded; A restarted re-attaches its CLI and the approval,
// answered on B, reaches that CLI once. (2) A never returns: a send on B adopts the thread (once: a second
// adoption is a conflict) and resumes the conversation from the transcript mirrored in PostgreSQL — the
// mock sees the earlier messages — and A, restarted afterwards, leaves the thread alone.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { ConflictError } from '../../src/protocol/errors.js';
import { approvalItems, listThreads } from '../../src/server/views.js';
import { Supervisor } from '../../src/supervisor/index.js';
import { scenario, until } from '../../src/testing/index.js';
import { postgresAvailable } from '../../src/testing/postgres-cluster.js';
import { freshDatabase } from '../helpers/store-backends.js';
import { startHostProcess, type HostProcess as GenericHostProcess } from './helpers/host-process.js';
import { askingScript } from './helpers/asking-model.js';
import { processesUsingHome } from './helpers/sdk-session.js';
import { killProcesses } from '../../src/testing/world-processes.js';
import { startFleetWorld } from './helpers/fleet-world.js';
import { assertNoProcessLeft, waitForNoProcess } from './helpers/supervisor-session.js';

const HOST = fileURLToPath(new URL('../fixtures/fleet-host.ts', import.meta.url));
const LEASE_MS = 1500;

interface Reported {
  event?: { seq: number; threadId: string; type: string; data: Record<string, unknown> };
  ready?: { threadId: string; approvalId: string };
  opened?: { host: string; recovered: { processesReattached: number; approvalsExpired: number } };
  thread?: { id: string };
}

type HostProcess = GenericHostProcess<Reported>;
const startHost = (config: Record<string, unknown>): HostProcess => startHostProcess<Reported>(HOST, config);

async function sigkill(host: HostProcess): Promise<void> {
  const exited = once(host.child, 'exit');
  host.child.kill('SIGKILL');
  await exited;
}

const skip = postgresAvailable() ? false : 'PostgreSQL is not available';

describe('a fleet host that goes away (real CLI)', { timeout: 240_000, skip }, () => {
  it('shows as unreachable once its lease expires; restarted, it re-attaches and a decision from B reaches its CLI', async (t) => {
    const { script, toolResults } = askingScript('gone.txt');
    const fleet = await startFleetWorld<HostProcess>(t, { prefix: 'warden-gone-', script });
    const { scratch, hosts, supervisors } = fleet;
    const url = await freshDatabase(t);
    const common = { store: url, claudePath: fleet.claudePath, env: fleet.env };
    const configA = {
      ...common,
      hostName: 'host-a',
      dataDir: join(scratch.dir, 'data-a'),
      leaseMs: LEASE_MS,
    };
    const hostA = startHost({ ...configA, cwd: scratch.cwd, prompt: '[[ask]] make a file' });
    hosts.push(hostA);
    const ready = (await hostA.waitFor((line) => line.ready !== undefined)).ready;
    assert.ok(ready !== undefined);
    const hostB = await Supervisor.open({
      ...common,
      dataDir: join(scratch.dir, 'data-b'),
      host: { name: 'host-b', leaseMs: LEASE_MS, heartbeatMs: 300, sweepMs: 200 },
    });
    supervisors.push(hostB);
    const live = approvalItems(hostB, { status: 'pending' });
    assert.deepEqual(
      live.map((a) => [a.id, a.host?.name, a.host?.reachable]),
      [[ready.approvalId, 'host-a', true]],
    );

    await sigkill(hostA);
    const killedAt = Date.now();
    const gone = await until(
      () => approvalItems(hostB, { status: 'pending' }).find((a) => a.host?.reachable === false),
      () => "B's approvals never said host-a is unreachable",
    );
    const shownAfterMs = Date.now() - killedAt;
    t.diagnostic(`lease ${LEASE_MS} ms: unreachable shown on B ${shownAfterMs} ms after the SIGKILL`);
    assert.equal(gone.id, ready.approvalId);
    assert.ok(gone.host?.lastSeen !== null && Date.parse(gone.host?.lastSeen ?? '') <= Date.now());
    const thread = listThreads(hostB).find((item) => item.id === ready.threadId);
    assert.deepEqual(thread?.host && [thread.host.name, thread.host.reachable], ['host-a', false]);
    // A decision nobody's CLI would hear is refused, and nothing is recorded.
    const seqBefore = lastSeq(hostB);
    await assert.rejects(
      hostB.decide(ready.approvalId, { behavior: 'allow' }),
      (error: unknown) => error instanceof ConflictError && /unreachable/.test(error.message),
    );
    assert.equal(lastSeq(hostB), seqBefore);
    assert.equal(hostB.getApproval(ready.approvalId).status, 'pending');

    // A is back: it re-attaches its detached CLI, the approval stays pending under its id.
    const restarted = startHost(configA);
    hosts.push(restarted);
    const opened = (await restarted.waitFor((line) => line.opened !== undefined)).opened;
    assert.equal(opened?.recovered.processesReattached, 1);
    assert.equal(opened?.recovered.approvalsExpired, 0);
    await until(
      () => (approvalItems(hostB, { status: 'pending' })[0]?.host?.reachable === true ? true : undefined),
      () => 'B never saw host-a reachable again',
    );
    await hostB.decide(ready.approvalId, { behavior: 'allow' });
    const ended = await restarted.waitFor((line) => line.event?.type === 'run.ended');
    assert.equal(ended.event?.data.status, 'completed');
    assert.equal(toolResults(), 1, "A's CLI got one answer");

    const exited = once(restarted.child, 'exit');
    restarted.child.stdin.end();
    assert.deepEqual(await exited, [0, null]);
    await hostB.close({ stopAgents: true });
    await waitForNoProcess(scratch.home);
    assertNoProcessLeft(scratch.home);
  });

  it('never returns: a send on B adopts the thread once and resumes its conversation from the mirror', async (t) => {
    const secondSawFirst: boolean[] = [];
    const inner = scenario()
      .on('first')
      .thenAnswer('Noted: the word is PELICAN.')
      .on('second')
      .thenAnswer('The word was PELICAN.')
      .build();
    const fleet = await startFleetWorld<HostProcess>(t, {
      prefix: 'warden-adopt-',
      script: (ctx) => {
        const body = JSON.stringify(ctx.body);
        if (body.includes('[[second]]') && ctx.kind === 'main') secondSawFirst.push(body.includes('PELICAN'));
        return inner(ctx);
      },
    });
    const { scratch, hosts, supervisors } = fleet;
    const url = await freshDatabase(t);
    const common = { store: url, claudePath: fleet.claudePath, env: fleet.env };
    const configA = {
      ...common,
      hostName: 'host-a',
      dataDir: join(scratch.dir, 'data-a'),
      leaseMs: LEASE_MS,
    };
    const hostA = startHost({ ...configA, cwd: scratch.cwd, prompt: '[[first]] remember the word PELICAN' });
    hosts.push(hostA);
    const threadId = (await hostA.waitFor((line) => line.thread !== undefined)).thread?.id ?? '';
    const first = await hostA.waitFor((line) => line.event?.type === 'run.ended');
    assert.equal(first.event?.data.status, 'completed');
    const hostB = await Supervisor.open({
      ...common,
      dataDir: join(scratch.dir, 'data-b'),
      host: { name: 'host-b', leaseMs: LEASE_MS, heartbeatMs: 300, sweepMs: 200 },
    });
    supervisors.push(hostB);
    const hostC = await Supervisor.open({
      ...common,
      dataDir: join(scratch.dir, 'data-c'),
      host: { name: 'host-c', leaseMs: LEASE_MS, heartbeatMs: 300, sweepMs: 200 },
    });
    supervisors.push(hostC);

    // A's machine is gone: the host and the CLI it ran.
    await sigkill(hostA);
    killProcesses(processesUsingHome(scratch.home));
    await waitForNoProcess(scratch.home);
    // Its disk too: the CLI's own transcript is gone, only the mirror in PostgreSQL has the conversation.
    const projects = join(scratch.home, '.claude', 'projects');
    assert.ok(existsSync(projects), 'the CLI wrote its transcript there');
    rmSync(projects, { recursive: true, force: true });
    await until(
      () => (hostB.listHosts().find((h) => h.name === 'host-a')?.live === false ? true : undefined),
      () => "host-a's lease never expired",
    );

    const sentAt = Date.now();
    const run = await hostB.send(threadId, '[[second]] what was the word?');
    const adoptedMs = Date.now() - sentAt;
    // B runs it now: a send on C goes to B (B's lease is live); it is no second adoption.
    const viaC = await hostC.send(threadId, '[[second]] again');
    const ended = await until(
      () => {
        const found = hostB.getThread(threadId).runs.find((r) => r.id === run.id);
        return found?.status === 'completed' || found?.status === 'failed' ? found : undefined;
      },
      () => 'the adopted thread never answered',
    );
    const firstReplyMs = Date.now() - sentAt;
    t.diagnostic(`adoption committed in ${adoptedMs} ms; send → run completed ${firstReplyMs} ms`);
    assert.equal(ended.status, 'completed');
    await until(
      () =>
        hostB.getThread(threadId).runs.find((r) => r.id === viaC.id)?.status === 'completed'
          ? true
          : undefined,
      () => 'the send made on C never completed on B',
    );
    assert.deepEqual(secondSawFirst, [true, true], 'the mock saw the earlier messages');
    const adopted = readAll(hostB, threadId).filter((e) => e.type === 'thread.adopted');
    assert.deepEqual(
      adopted.map((e) => e.data),
      [{ from: 'host-a', to: 'host-b' }],
    );
    assert.deepEqual(
      hostB.threadHosts([threadId]).get(threadId) && hostB.threadHosts([threadId]).get(threadId)?.name,
      'host-b',
    );

    // A comes back: the thread is not its own any more; it closes out nothing of it.
    const restarted = startHost(configA);
    hosts.push(restarted);
    const opened = (await restarted.waitFor((line) => line.opened !== undefined)).opened;
    assert.equal(opened?.recovered.processesReattached, 0);
    assert.equal(hostB.getThread(threadId).runs.filter((r) => r.status === 'interrupted').length, 0);
    const exited = once(restarted.child, 'exit');
    restarted.child.stdin.end();
    assert.deepEqual(await exited, [0, null]);

    await hostB.close({ stopAgents: true });
    await hostC.close({ stopAgents: true });
    await waitForNoProcess(scratch.home);
    assertNoProcessLeft(scratch.home);
  });
});

function lastSeq(sup: Supervisor): number {
  return readAll(sup).at(-1)?.seq ?? 0;
}

function readAll(sup: Supervisor, threadId?: string) {
  return sup.readEvents({ ...(threadId === undefined ? {} : { threadId }), limit: 10_000 });
}
