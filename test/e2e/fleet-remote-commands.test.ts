// Commands made on a host that does not run the thread: host B records them, host A (the owner) runs them
// on its CLI when it folds them in. Real CLI on A, the mock model, one PostgreSQL database: a send on B
// reaches A's CLI once (and B's answer names the run A starts); an interrupt, a mode change and a stop
// from B reach A; a send recorded while A was down runs once when A opens, and not again after another restart.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';

import type { FleetHostOptions } from '../../src/store/host-registry.js';
import { createServer } from '../../src/server/index.js';
import { Supervisor, type RunRecord } from '../../src/supervisor/index.js';
import { scenario, type Scratch } from '../../src/testing/index.js';
import { postgresAvailable } from '../../src/testing/postgres-cluster.js';
import { freshDatabase, testCluster } from '../helpers/store-backends.js';
import { startFleetWorld } from './helpers/fleet-world.js';
import { waitForEvent, waitForNoProcess } from './helpers/supervisor-session.js';

interface Fleet {
  scratch: Scratch;
  url: string;
  /** Main-conversation requests whose latest user text contains `text`: how often the model was asked it. */
  seen: (text: string) => number;
  /** Resolves with the time the mock first saw `text` as the latest user text. */
  firstSeen: (text: string) => Promise<number>;
  open(name: string, host?: Partial<FleetHostOptions>): Promise<Supervisor>;
}

async function startFleet(t: TestContext): Promise<Fleet> {
  const texts: { text: string; at: number }[] = [];
  const wakers: (() => void)[] = [];
  const inner = scenario()
    .on('ask')
    .callTool('Bash', { command: 'touch remote.txt', description: 'Create a file' })
    .thenAnswer('The file is there.')
    .build();
  const fleet = await startFleetWorld(t, {
    prefix: 'warden-fleet-cmd-',
    script: (ctx) => {
      if (ctx.kind === 'main') {
        texts.push({ text: ctx.lastUserText, at: performance.now() });
        for (const wake of wakers.splice(0)) wake();
      }
      return inner(ctx);
    },
  });
  const url = await freshDatabase(t);
  const { scratch, supervisors: opened } = fleet;
  return {
    scratch,
    url,
    seen: (text) => texts.filter((entry) => entry.text.includes(text)).length,
    async firstSeen(text) {
      for (;;) {
        const hit = texts.find((entry) => entry.text.includes(text));
        if (hit !== undefined) return hit.at;
        await new Promise<void>((resolve) => wakers.push(resolve));
      }
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

const skip = postgresAvailable() ? false : 'PostgreSQL is not available';

describe('commands for another host’s thread (real CLI)', { timeout: 240_000, skip }, () => {
  it('a send on B runs on A’s CLI once; B answers with the queued run A starts', async (t) => {
    const fleet = await startFleet(t);
    const hostA = await fleet.open('cmd-owner');
    const hostB = await fleet.open('cmd-other');
    // Placed on A from B: A starts the CLI on the first send.
    const thread = await hostB.createThread({
      cwd: fleet.scratch.cwd,
      mode: 'supervised',
      host: 'cmd-owner',
    });
    assert.equal(hostB.commandHost(thread.id), 'cmd-owner');
    assert.equal(hostA.commandHost(thread.id), undefined);

    let started = performance.now();
    const run = await hostB.send(thread.id, 'remote hello one');
    assert.equal(run.status, 'queued');
    assert.equal(run.prompt, 'remote hello one');
    const remoteMs = (await fleet.firstSeen('remote hello one')) - started;
    const ended = await waitForEvent(hostA, 'run.ended', (e) => e.data.runId === run.id);
    assert.equal(ended.data.status, 'completed');
    assert.equal(hostB.getThread(thread.id).runs.find((r) => r.id === run.id)?.status, 'completed');
    assert.equal(fleet.seen('remote hello one'), 1, 'the model was asked once');

    // For comparison: the same on A itself, a new thread (its CLI started) and then with the CLI live.
    const own = await hostA.createThread({ cwd: fleet.scratch.cwd, mode: 'supervised' });
    started = performance.now();
    const ownRun = await hostA.send(own.id, 'local hello two');
    const localMs = (await fleet.firstSeen('local hello two')) - started;
    await waitForEvent(hostA, 'run.ended', (e) => e.data.runId === ownRun.id);
    const live = { remote: [] as number[], local: [] as number[] };
    for (let i = 0; i < 3; i += 1)
      for (const [where, sup, threadId] of [
        ['remote', hostB, thread.id],
        ['local', hostA, own.id],
      ] as const) {
        const text = `${where} live ${i}`;
        started = performance.now();
        const sent = await sup.send(threadId, text);
        live[where].push((await fleet.firstSeen(text)) - started);
        await waitForEvent(hostA, 'run.ended', (e) => e.data.runId === sent.id);
      }
    const events = hostA.readEvents({ threadId: thread.id, limit: 1000 });
    assert.equal(events.filter((e) => e.type === 'thread.command_requested').length, 4);
    assert.equal(events.filter((e) => e.type === 'run.created').length, 4);
    const ms = (values: number[]) => values.map((v) => v.toFixed(0)).join('/');
    t.diagnostic(
      `send → the model's first request, CLI started: remote ${remoteMs.toFixed(1)} ms, local ${localMs.toFixed(1)} ms; CLI live: remote ${ms(live.remote)} ms, local ${ms(live.local)} ms`,
    );
  });

  it('an interrupt, a mode change and a stop made on B reach A', async (t) => {
    const fleet = await startFleet(t);
    const hostA = await fleet.open('cmd-owner');
    const hostB = await fleet.open('cmd-other');
    const thread = await hostA.createThread({ cwd: fleet.scratch.cwd, mode: 'supervised' });
    await hostA.send(thread.id, '[[ask]] make a file');
    const asked = await waitForEvent(hostA, 'approval.requested');

    // The mode change: A's policy settles the pending approval by itself, and the tool runs.
    const unchanged = await hostB.setMode(thread.id, 'full-access');
    assert.equal(unchanged.mode, 'supervised', 'B answers before A has run it');
    const decided = await waitForEvent(
      hostA,
      'approval.decided',
      (e) => e.data.approvalId === asked.data.approvalId,
    );
    assert.equal(decided.data.by, 'policy');
    assert.equal(hostA.getThread(thread.id).thread.mode, 'full-access');
    await waitForEvent(hostA, 'run.ended', (e) => e.data.status === 'completed');

    // The interrupt: a turn held on an approval in supervised mode, interrupted from B.
    await hostB.setMode(thread.id, 'supervised');
    await waitForEvent(hostA, 'thread.mode_changed', (e) => e.data.mode === 'supervised');
    const run = await hostB.send(thread.id, '[[ask]] make it again');
    const again = await waitForEvent(hostA, 'approval.requested', (e) => e.data.runId === run.id);
    await hostB.interrupt(thread.id);
    const interrupted = await waitForEvent(hostA, 'run.ended', (e) => e.data.runId === run.id);
    assert.equal(interrupted.data.status, 'interrupted');
    assert.equal(hostA.getApproval(again.data.approvalId).status, 'cancelled');
    const done = hostA
      .readEvents({ threadId: thread.id, limit: 1000 })
      .filter((e) => e.type === 'thread.command_done');
    assert.equal(done.length, 3, 'two mode changes and an interrupt, each taken up once');

    // The stop: A's CLI process ends.
    await hostB.stop(thread.id);
    const stopping = await waitForEvent(hostA, 'session.stopping', (e) => e.data.reason === 'thread_stopped');
    await waitForEvent(hostA, 'session.ended', (e) => e.seq > stopping.seq);
    await waitForNoProcess(fleet.scratch.home);
    assert.equal(hostB.getThread(thread.id).thread.status, 'idle');
  });

  it('a send recorded while A was down runs once when A opens, and not again after a restart', async (t) => {
    const fleet = await startFleet(t);
    let hostA = await fleet.open('cmd-owner');
    const hostB = await fleet.open('cmd-other');
    const thread = await hostA.createThread({ cwd: fleet.scratch.cwd, mode: 'supervised' });
    await hostA.close({ stopAgents: true });
    // A's process is gone but its lease still runs (as for a host that died a moment ago).
    const cluster = await testCluster();
    await cluster.sql(
      `UPDATE warden_hosts SET heartbeat_at = now() WHERE name = 'cmd-owner'`,
      [],
      new URL(fleet.url).pathname.slice(1),
    );
    // Over B's HTTP API: 202 with the run A will start and the host that runs it.
    const dataDir = join(fleet.scratch.dir, 'data-cmd-other');
    const server = await createServer({ supervisor: hostB, dataDir, onError: () => undefined });
    t.after(() => server.close());
    const response = await fetch(`${server.url}/api/threads/${thread.id}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'while you were away' }),
    });
    assert.equal(response.status, 202);
    const body = (await response.json()) as { run: RunRecord; forwardedTo: string };
    assert.equal(body.forwardedTo, 'cmd-owner');
    const { run } = body;
    assert.equal(run.status, 'queued');
    assert.equal(run.prompt, 'while you were away');
    assert.equal(fleet.seen('while you were away'), 0);

    hostA = await fleet.open('cmd-owner');
    const ended = await waitForEvent(hostA, 'run.ended', (e) => e.data.runId === run.id);
    assert.equal(ended.data.status, 'completed');
    assert.equal(fleet.seen('while you were away'), 1);
    await hostA.close({ stopAgents: true });

    hostA = await fleet.open('cmd-owner');
    await hostA.send(thread.id, 'after the second restart');
    await waitForEvent(hostA, 'run.ended', (e) => e.data.runId !== run.id && e.data.status === 'completed');
    assert.equal(fleet.seen('while you were away'), 1, 'not sent again');
    const runs = hostA.getThread(thread.id).runs.filter((r) => r.prompt === 'while you were away');
    assert.equal(runs.length, 1);
  });
});
