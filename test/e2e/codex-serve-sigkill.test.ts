// `warden serve` SIGKILLed while a Codex thread's command waits for approval, then started again on the
// same data dir: the app-server outlived it (it runs detached), the approval is pending under the same
// id, and answered over HTTP to the second server the command runs and the turn completes. One Codex
// process throughout, gone once the thread is stopped.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { isAlive } from '../../src/transport/exit-watch.js';
import { startCodexWorld } from './helpers/codex-world.js';
import {
  freePort,
  pendingApproval,
  pollFor,
  startServe,
  threadEvents,
  trackedCli,
} from './helpers/serve-process.js';
import { assertNoProcessLeft, waitForNoProcess } from './helpers/supervisor-session.js';

const COMMAND = 'echo after-the-restart > restarted.txt';

void test(
  'a Codex approval pending when warden serve is SIGKILLed is answered through the next serve',
  { timeout: 120_000 },
  async (t) => {
    const { world, env } = await startCodexWorld(
      t,
      (ctx) => {
        if (ctx.turnMarker !== 'go') return null;
        if (ctx.turnRounds === 0) return { items: [{ type: 'exec', cmd: COMMAND }] };
        return { items: [{ type: 'text', text: 'written after the restart' }] };
      },
      'warden-codex-serve-',
    );
    const { scratch } = world;
    const port = await freePort();
    const first = await startServe(world, world.dataDir, env, { port });
    const created = await first.api('/api/threads', {
      cwd: scratch.cwd,
      mode: 'supervised',
      agent: 'codex',
      prompt: '[[go]] write a file',
    });
    const threadId = String(created.thread.id);
    assert.equal(created.thread.agent, 'codex');
    const asked = await pendingApproval(first, 'Bash');
    assert.equal(asked.input.command, COMMAND);
    const codex = await trackedCli(first, threadId, world);
    const identity = { pid: codex.pid, startTicks: codex.startTicks };

    await first.kill();
    assert.ok(isAlive(identity), 'the app-server outlives the SIGKILLed server');
    assert.equal(existsSync(join(scratch.cwd, 'restarted.txt')), false);

    const second = await startServe(world, world.dataDir, env, { port });
    assert.match(second.process.stderr(), /re-attached to 1 agent/);
    const again = await pendingApproval(second, 'Bash');
    assert.equal(again.id, asked.id, 'the same approval id is pending');
    const allowed = await second.api(`/api/approvals/${String(asked.id)}/decision`, { behavior: 'allow' });
    assert.equal(allowed.approval.status, 'allowed');

    const events = await pollFor('the turn completed', async () => {
      const all = await threadEvents(second, threadId);
      return all.some((e) => e.type === 'run.ended' && e.data.status === 'completed') ? all : undefined;
    });
    assert.equal(readFileSync(join(scratch.cwd, 'restarted.txt'), 'utf8'), 'after-the-restart\n');
    assert.deepEqual(
      events.filter((e) => e.type === 'session.process_started').map((e) => Number(e.data.pid)),
      [identity.pid],
      'one app-server throughout',
    );
    assert.equal(
      events.filter((e) => e.type === 'approval.requested').length,
      1,
      'the request the spool asked again did not become a second approval',
    );
    assert.ok(
      events.some(
        (e) => e.type === 'message.assistant' && JSON.stringify(e.data).includes('after the restart'),
      ),
      'the model’s answer is in the thread',
    );

    await second.api(`/api/threads/${threadId}/stop`, {});
    second.process.child.kill('SIGTERM');
    assert.deepEqual(await second.process.exited, { code: 0, signal: null });
    await waitForNoProcess(scratch.home);
    assertNoProcessLeft(scratch.home);
  },
);
