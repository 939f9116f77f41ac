// `warden status` on a data dir whose agent runs detached: asked while `warden serve` holds the directory
// (it goes through the server's API), after the server was SIGKILLed (it reads the store read-only and
// does not take the directory over: the next serve starts), and after the CLI itself was killed (reported
// gone, judged by pid and start time). A thread whose CLI `serve --park-after` parked is listed parked.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { scenario } from '../../src/testing/index.js';
import { isAlive } from '../../src/transport/exit-watch.js';
import { signalGroup } from '../../src/transport/process-tree.js';
import { spawnWarden, startCommandSession, type CommandSession } from './helpers/server-command.js';
import {
  freePort,
  pollFor,
  startServe,
  createThread,
  pendingApproval,
  runCompleted,
  threadEvents,
  trackedCli,
} from './helpers/serve-process.js';
import { assertNoProcessLeft, waitForNoProcess } from './helpers/supervisor-session.js';

async function status(session: CommandSession, args: string[] = []) {
  const command = spawnWarden(['status', '--data-dir', session.dataDir, ...args], session.env, {
    closeStdin: true,
  });
  const { code } = await command.exited;
  return { code, stdout: command.stdout(), stderr: command.stderr() };
}

describe('warden status', { timeout: 180_000 }, () => {
  it('lists the CLI process with or without the server, and reports it gone once killed', async (t) => {
    const session = await startCommandSession(
      t,
      scenario()
        .on('ask')
        .callTool('Bash', { command: 'touch status.txt', description: 'Create a file' })
        .thenAnswer('done')
        .build(),
    );

    const empty = await status(session);
    assert.equal(empty.code, 0, empty.stderr);
    assert.match(empty.stdout, /No store here yet/);

    const port = await freePort();
    const first = await startServe(session.world, session.dataDir, session.env, { port });
    const { threadId } = await createThread(first, session.scratch.cwd, '[[ask]] go');
    await pendingApproval(first);
    const { pid, startTicks } = await trackedCli(first, threadId, session.world);
    const identity = { pid, startTicks };
    const running = `thread ${threadId}  pid ${identity.pid}  running  detached  1 pending approval  ${session.scratch.cwd}`;

    const held = await status(session, ['--port', String(port)]);
    assert.equal(held.code, 0, held.stderr);
    assert.match(held.stdout, new RegExp(`Server: running, holds the data directory \\(${first.url}\\)`));
    assert.ok(held.stdout.includes(running), held.stdout);

    const elsewhere = await status(session, ['--port', String(await freePort())]);
    assert.equal(elsewhere.code, 1, 'held, and no server answers where it was told to look');
    assert.match(elsewhere.stderr, /another process holds the data directory/);

    await first.kill();
    const free = await status(session);
    assert.equal(free.code, 0, free.stderr);
    assert.match(free.stdout, /Server: none holds the data directory/);
    assert.ok(free.stdout.includes(running), free.stdout);

    signalGroup(identity.pid, 'SIGKILL');
    await pollFor('the CLI is gone', () => Promise.resolve(isAlive(identity) ? undefined : true), 10_000);
    const gone = await status(session);
    assert.ok(
      gone.stdout.includes(
        `thread ${threadId}  pid ${identity.pid}  gone (the next start closes it out)  detached  1 pending approval`,
      ),
      gone.stdout,
    );

    // Status took nothing over: the next serve opens the directory and closes the dead CLI out.
    const second = await startServe(session.world, session.dataDir, session.env, { port });
    assert.match(second.process.stderr(), /1 approval\(s\) expired/);
    const after = await status(session, ['--port', String(port)]);
    assert.match(after.stdout, /Server: running/);
    assert.match(after.stdout, /No CLI process on record\./);
    second.process.child.kill('SIGTERM');
    assert.deepEqual(await second.process.exited, { code: 0, signal: null });
    await waitForNoProcess(session.scratch.home);
    assertNoProcessLeft(session.scratch.home);
  });

  it('lists a thread parked by serve --park-after, which the next message resumes', async (t) => {
    const session = await startCommandSession(
      t,
      scenario()
        .on('hi')
        .thenAnswer('Hello.')
        .on('again')
        .thenAnswer((ctx) => (ctx.firstUserText.includes('[[hi]]') ? 'Resumed.' : 'Forgot.'))
        .build(),
    );
    const port = await freePort();
    const serve = await startServe(session.world, session.dataDir, session.env, {
      port,
      args: ['--park-after', '1s'],
    });
    const { threadId, runId } = await createThread(serve, session.scratch.cwd, '[[hi]] hello');
    await runCompleted(serve, threadId, runId);
    await pollFor('the thread is parked', async () => {
      const { thread } = await serve.api(`/api/threads/${threadId}`);
      return thread.status === 'parked' && thread.cliProcess === null ? true : undefined;
    });
    // The parked CLI is gone (the server itself runs with the same HOME, so it is looked up by identity).
    const events = await threadEvents(serve, threadId);
    const spawned = events.find((e) => e.type === 'session.process_started');
    const identity = { pid: Number(spawned?.data.pid), startTicks: Number(spawned?.data.startTime) };
    assert.ok(events.some((e) => e.type === 'thread.parked'));
    assert.equal(isAlive(identity), false, 'the parked CLI is gone');

    const listed = await status(session, ['--port', String(port)]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /No CLI process on record\./);
    assert.ok(
      listed.stdout.includes(
        `Parked (no CLI while idle; the next message resumes it):\n  thread ${threadId}  ${session.scratch.cwd}`,
      ),
      listed.stdout,
    );

    const { run } = await serve.api(`/api/threads/${threadId}/messages`, { text: '[[again]] still there?' });
    await runCompleted(serve, threadId, String(run.id));
    const { runs } = await serve.api(`/api/threads/${threadId}`);
    assert.equal((runs as { id: string; result: { text: string } }[]).at(-1)?.result.text, 'Resumed.');
    // Idle again, parked again: the server then leaves no agent behind when it stops.
    await pollFor('the thread is parked again', async () => {
      const { thread } = await serve.api(`/api/threads/${threadId}`);
      return thread.status === 'parked' && thread.generation === 2 && thread.cliProcess === null
        ? true
        : undefined;
    });
    serve.process.child.kill('SIGTERM');
    assert.deepEqual(await serve.process.exited, { code: 0, signal: null });
    await waitForNoProcess(session.scratch.home);
    assertNoProcessLeft(session.scratch.home);
  });
});
