// A real `warden serve` SIGKILLed while a background subagent's approval waits in the inbox (its root run
// already completed), then started again on the same data dir and port: after a reload and a new login the
// inbox still shows the card, Approve answers it, the subagent finishes and the CLI's own follow-up run is
// recorded. The thread view says the CLI runs detached and was re-attached. One CLI process throughout.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { startTestWorld } from '../../src/testing/index.js';
import { isAlive } from '../../src/transport/exit-watch.js';
import { signal } from '../e2e/helpers/sdk-session.js';
import {
  freePort,
  pollFor,
  startServe,
  threadEvents,
  type ServeProcess,
  createThread,
  runCompleted,
  pendingApproval,
  trackedCli,
} from '../e2e/helpers/serve-process.js';
import { assertNoProcessLeft, waitForNoProcess } from '../e2e/helpers/supervisor-session.js';
import { whenActionable } from './helpers/actionable.js';
import { openBrowser } from './helpers/browser.js';
import { demoScript, DEMO_PROMPT, SUBAGENT_READ } from './helpers/scenarios.js';

const loginLinkOf = (serve: ServeProcess): string => {
  const link = /(http:\/\/127\.0\.0\.1:\d+\/login#\S+)/.exec(serve.process.stdout())?.[1];
  assert.ok(link !== undefined, serve.process.stdout());
  return link;
};

test(
  'the inbox card outlives a SIGKILLed warden serve and is answered after it restarts',
  { timeout: 180_000 },
  async (t) => {
    // Teardown (the test world's): the browser, the servers, every CLI this test started (by process
    // group), the mock and the scratch.
    const rootEnded = signal();
    const world = await startTestWorld(t, {
      prefix: 'warden-durable-ui-',
      script: demoScript(rootEnded.promise),
    });
    const { scratch, dataDir } = world;
    const env = { ...world.env, CLAUDE_CODE_EXECUTABLE: world.claudePath };
    const port = await freePort();
    const servers: ServeProcess[] = [];
    world.defer(async () => {
      for (const serve of servers)
        if (serve.process.child.exitCode === null) await serve.kill().catch(() => {});
    });

    const first = await startServe(world, dataDir, env, { port });
    servers.push(first);
    const { threadId, runId: rootRunId } = await createThread(first, scratch.cwd, DEMO_PROMPT);
    await runCompleted(first, threadId, rootRunId);
    rootEnded.fire();
    const asked = await pendingApproval(first);
    const { pid, startTicks } = await trackedCli(first, threadId, world);
    const identity = { pid, startTicks };

    const { page, screenshot } = await openBrowser(
      { scratch, beforeClose: (fn) => world.defer(fn), server: { loginLink: () => loginLinkOf(first) } },
      { link: loginLinkOf(first) },
    );
    const card = () => page.locator('.approval', { hasText: SUBAGENT_READ.file_path });
    await card().waitFor();
    await page.goto(`${first.url}/#/threads/${threadId}`);
    const processLine = page.locator('.cli-process');
    await processLine.filter({ hasText: `CLI pid ${identity.pid} · detached` }).waitFor();
    assert.doesNotMatch((await processLine.textContent()) ?? '', /re-attached/);
    await page.goto(`${first.url}/#/`);
    await card().waitFor();

    await first.kill();
    assert.ok(isAlive(identity), 'the CLI outlives the SIGKILLed server');
    const second = await startServe(world, dataDir, env, { port });
    servers.push(second);
    assert.match(second.process.stderr(), /re-attached to 1 agent/);
    // The restarted server knows no browser session: a reload asks to log in; the new link signs in.
    await page.reload();
    await page.getByRole('heading', { name: 'Not logged in' }).waitFor();
    const loggedInAt = Date.now();
    await page.goto(loginLinkOf(second));
    await page.locator('#connection[data-state="live"]').waitFor();
    await card().waitFor();
    assert.equal(await page.locator('.approval').count(), 1, 'one card: the same approval, not a second one');
    await whenActionable(card());
    t.diagnostic(
      `restarted serve: spawned -> banner ${second.readyAt - second.spawnedAt} ms, -> card answerable after reload and login ${Date.now() - second.spawnedAt} ms (from the login ${Date.now() - loggedInAt} ms)`,
    );
    await screenshot('durable-serve-restart-inbox');
    await card()
      .getByRole('button', { name: /Approve once/ })
      .click();
    await card().waitFor({ state: 'detached' });

    const events = await pollFor('the CLI-started follow-up run ended', async () => {
      const all = await threadEvents(second, threadId);
      return all.some((e) => e.type === 'run.ended' && e.data.origin?.kind === 'task-notification')
        ? all
        : undefined;
    });
    const decided = events.filter((e) => e.type === 'approval.decided' && e.data.by === 'user');
    assert.deepEqual(
      decided.map((e) => [String(e.data.approvalId), String(e.data.behavior)]),
      [[String(asked.id), 'allow']],
      'the same approval id was answered, once, by the page',
    );
    assert.deepEqual(
      events.filter((e) => e.type === 'subagent.ended').map((e) => String(e.data.status)),
      ['completed'],
    );
    assert.deepEqual(
      events.filter((e) => e.type === 'session.started').map((e) => Number(e.data.generation)),
      [1],
      'no second CLI was started',
    );
    assert.ok(isAlive(identity), 'the same CLI process carries on');

    await page.goto(`${second.url}/#/threads/${threadId}`);
    await processLine
      .filter({ hasText: `CLI pid ${identity.pid} · detached · re-attached after a restart` })
      .waitFor();
    await screenshot('durable-serve-restart-thread');

    await second.api(`/api/threads/${threadId}/stop`, {});
    await page.locator('.cli-process[hidden]').waitFor({ state: 'attached' });
    second.process.child.kill('SIGTERM');
    assert.deepEqual(await second.process.exited, { code: 0, signal: null });
    await waitForNoProcess(scratch.home);
    assertNoProcessLeft(scratch.home);
    const spools = join(dataDir, 'cli');
    assert.deepEqual(existsSync(spools) ? readdirSync(spools) : [], [], 'no spool left');
  },
);
