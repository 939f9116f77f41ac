// `warden agents` on a data dir whose agents a closed Supervisor left running detached (real CLI): the list
// says which is idle and until when it lives with no server, which waits for one; `agents stop THREAD`
// ends one (recorded as a stop: its next message resumes it); while `warden serve` holds the directory,
// both go through the server's API, and `agents stop --all` ends what it runs.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';

import { Supervisor } from '../../src/supervisor/index.js';
import { scenario } from '../../src/testing/index.js';
import { isAlive } from '../../src/transport/exit-watch.js';
import { spawnWarden, startCommandSession, type CommandSession } from './helpers/server-command.js';
import { freePort, pollFor, runCompleted, startServe, type Json } from './helpers/serve-process.js';
import { assertNoProcessLeft, waitForEvent, waitForNoProcess } from './helpers/supervisor-session.js';

async function agents(session: CommandSession, args: string[] = []) {
  const command = spawnWarden(['agents', '--data-dir', session.dataDir, ...args], session.env, {
    closeStdin: true,
  });
  const { code } = await command.exited;
  return { code, stdout: command.stdout(), stderr: command.stderr() };
}

describe('warden agents', { timeout: 240_000 }, () => {
  it('lists the detached agents, stops one without a server and the rest through it', async (t) => {
    const session = await startCommandSession(
      t,
      scenario()
        .on('ask')
        .callTool('Bash', { command: 'touch agents.txt', description: 'Create a file' })
        .thenAnswer('Created.')
        .on('hello')
        .thenAnswer('Hello.')
        .on('again')
        .thenAnswer((ctx) => (ctx.firstUserText.includes('[[hello]]') ? 'Resumed.' : 'Forgot.'))
        .build(),
    );
    const { dataDir, scratch, world } = session;
    const none = await agents(session);
    assert.equal(none.code, 0, none.stderr);
    assert.match(none.stdout, /No agent process on record\./);

    const sup = await Supervisor.open({ dataDir, claudePath: world.claudePath, env: world.env });
    const idle = await sup.createThread({ cwd: scratch.cwd, mode: 'supervised' });
    const hello = await sup.send(idle.id, '[[hello]] hi');
    await waitForEvent(sup, 'run.ended', (e) => e.data.runId === hello.id);
    const busy = await sup.createThread({ cwd: scratch.cwd, mode: 'supervised' });
    await sup.send(busy.id, '[[ask]] make a file');
    const asked = await waitForEvent(sup, 'approval.requested', (e) => e.threadId === busy.id);
    const { leftRunning } = await sup.close();
    const pidOf = (threadId: string): number =>
      leftRunning.find((left) => left.threadId === threadId)?.pid ?? 0;
    for (const { pid } of leftRunning) world.track(pid);

    const listed = await agents(session);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /Server: none holds the data directory; its agents run detached/);
    assert.match(
      listed.stdout,
      new RegExp(
        `thread ${idle.id} {2}pid ${pidOf(idle.id)} {2}running, idle: ends by itself at \\S+Z \\(in 30 min\\) unless a server re-attaches it {2}0 pending approvals {2}`,
      ),
    );
    assert.ok(
      listed.stdout.includes(
        `thread ${busy.id}  pid ${pidOf(busy.id)}  running, waits for the next server (it was busy when let go)  1 pending approval  ${scratch.cwd}`,
      ),
      listed.stdout,
    );
    const json = await agents(session, ['--json']);
    type Row = { threadId: string; state: string; alive: boolean; idleUntil: string | null };
    const rows = (JSON.parse(json.stdout) as { agents: Row[] }).agents;
    assert.deepEqual(
      rows.map((row): unknown[] => [row.threadId, row.state, row.alive, typeof row.idleUntil]),
      [
        [idle.id, 'idle', true, 'string'],
        [busy.id, 'waiting', true, 'object'],
      ],
    );

    const usage = await agents(session, ['stop']);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /needs a thread id/);
    const unknown = await agents(session, ['stop', 'no-such-thread']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no agent of thread "no-such-thread"/);

    const stopped = await agents(session, ['stop', idle.id.slice(0, 8)]);
    assert.equal(stopped.code, 0, stopped.stderr);
    assert.match(
      stopped.stdout,
      new RegExp(`Stopped the agent of thread ${idle.id} \\(pid ${pidOf(idle.id)}\\)`),
    );
    assert.equal(isAlive({ pid: pidOf(idle.id), startTicks: undefined }), false, 'that agent is gone');
    assert.ok(isAlive({ pid: pidOf(busy.id), startTicks: undefined }), 'the other runs on');
    const after = await agents(session);
    assert.ok(!after.stdout.includes(idle.id), after.stdout);

    // A server takes the directory over: it re-attaches the busy agent, and the command asks it.
    const port = await freePort();
    const serve = await startServe(world, dataDir, session.env, { port });
    assert.match(serve.process.stderr(), /re-attached to 1 agent/);
    const held = await agents(session, ['--port', String(port)]);
    assert.equal(held.code, 0, held.stderr);
    assert.match(held.stdout, /Server: running, holds the data directory .*its agents are attached to it/);
    assert.ok(
      held.stdout.includes(`thread ${busy.id}  pid ${pidOf(busy.id)}  running, attached to the server`),
    );
    const all = await agents(session, ['stop', '--all', '--port', String(port)]);
    assert.equal(all.code, 0, all.stderr);
    assert.match(all.stdout, new RegExp(`Stopped the agent of thread ${busy.id} .* through the server`));
    const { approvals } = (await serve.api(`/api/threads/${busy.id}`)) as { approvals: Json[] };
    const approval = approvals.find((a) => a.id === asked.data.approvalId);
    assert.deepEqual([approval?.status, approval?.reason], ['cancelled', 'thread_stopped']);

    // The thread stopped without a server resumes its conversation on its next message.
    const { run } = await serve.api(`/api/threads/${idle.id}/messages`, { text: '[[again]] still there?' });
    await runCompleted(serve, idle.id, String(run.id));
    const { runs } = await serve.api(`/api/threads/${idle.id}`);
    assert.equal((runs as Json[]).at(-1)?.result.text, 'Resumed.');
    await pollFor('the thread stopped', async () => {
      const { thread } = await serve.api(`/api/threads/${busy.id}`);
      return thread.cliProcess === null ? true : undefined;
    });
    assert.ok(!existsSync(`${dataDir}/cli/${busy.id}.1`), 'its spool is removed');
    serve.process.child.kill('SIGTERM');
    assert.deepEqual(await serve.process.exited, { code: 0, signal: null });
    assert.match(serve.process.stderr(), /left 1 agent\(s\) running detached: 1 idle/);
    const last = await agents(session, ['stop', '--all']);
    assert.equal(last.code, 0, last.stderr);
    await waitForNoProcess(scratch.home);
    assertNoProcessLeft(scratch.home);
  });
});
