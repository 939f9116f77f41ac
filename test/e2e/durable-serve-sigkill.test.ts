// `warden serve` SIGKILLed (no graceful stop) while a background subagent's approval is pending after its
// root run completed, then started again on the same data dir: the approval is still pending under the
// same id, routed to the same completed run; answered over HTTP, the subagent finishes and the CLI-started
// follow-up run is recorded. The CLI is one process throughout: never killed, never started twice, and
// gone once the test stops the thread.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { BACKGROUND_AGENT_PROMPT, backgroundSubagentScenario } from '../../src/testing/index.js';
import { isAlive } from '../../src/transport/exit-watch.js';
import { signal } from './helpers/sdk-session.js';
import { startCommandSession } from './helpers/server-command.js';
import {
  freePort,
  pollFor,
  startServe,
  threadEvents,
  createThread,
  runCompleted,
  pendingApproval,
  trackedCli,
} from './helpers/serve-process.js';
import { assertNoProcessLeft, waitForNoProcess } from './helpers/supervisor-session.js';

describe('warden serve SIGKILLed with a late subagent approval pending', { timeout: 180_000 }, () => {
  it('keeps it pending under its id for the next serve, which answers it over HTTP', async (t) => {
    const rootEnded = signal();
    const session = await startCommandSession(t, backgroundSubagentScenario({ askAfter: rootEnded.promise }));
    const port = await freePort();
    const first = await startServe(session.world, session.dataDir, session.env, { port });
    const { threadId, runId: rootRunId } = await createThread(
      first,
      session.scratch.cwd,
      BACKGROUND_AGENT_PROMPT,
    );
    await runCompleted(first, threadId, rootRunId);
    rootEnded.fire();
    const asked = await pendingApproval(first, 'Read');
    assert.equal(asked.runId, rootRunId, 'the request is routed to the completed run');
    const cli = await trackedCli(first, threadId, session.world);
    assert.equal(typeof cli.spoolDir, 'string', 'the CLI runs detached');
    const identity = { pid: cli.pid, startTicks: cli.startTicks };

    await first.kill();
    assert.ok(isAlive(identity), 'the CLI outlives the SIGKILLed server');

    const second = await startServe(session.world, session.dataDir, session.env, { port });
    assert.match(second.process.stderr(), /re-attached to 1 agent/);
    const again = await pendingApproval(second, 'Read');
    const answerableAt = Date.now();
    t.diagnostic(
      `restarted serve: spawned -> banner ${second.readyAt - second.spawnedAt} ms, -> approval pending over HTTP ${answerableAt - second.spawnedAt} ms`,
    );
    assert.equal(again.id, asked.id, 'the same approval id is pending');
    assert.equal(again.runId, rootRunId, 'routed to the same completed run');

    const allowed = await second.api(`/api/approvals/${String(asked.id)}/decision`, { behavior: 'allow' });
    assert.equal(allowed.approval.status, 'allowed');
    const bash = await pendingApproval(second, 'Bash');
    assert.equal(bash.runId, rootRunId, 'the subagent asks again on the same run');
    await second.api(`/api/approvals/${String(bash.id)}/decision`, { behavior: 'allow' });
    const events = await pollFor('the CLI-started follow-up run ended', async () => {
      const all = await threadEvents(second, threadId);
      return all.some((e) => e.type === 'run.ended' && e.data.origin?.kind === 'task-notification')
        ? all
        : undefined;
    });
    const subagentEnded = events.filter((e) => e.type === 'subagent.ended');
    assert.deepEqual(
      subagentEnded.map((e) => String(e.data.status)),
      ['completed'],
      'the subagent finished',
    );
    const followUp = events.find(
      (e) => e.type === 'run.ended' && e.data.origin?.kind === 'task-notification',
    );
    assert.equal(followUp?.data.status, 'completed');
    assert.deepEqual(
      events.filter((e) => e.type === 'session.started').map((e) => Number(e.data.generation)),
      [1],
      'no second CLI was started',
    );
    assert.deepEqual(
      events.filter((e) => e.type === 'session.reattached').map((e) => Number(e.data.pid)),
      [identity.pid],
    );
    assert.deepEqual(
      events.filter((e) => ['session.process_exited', 'session.leftover_process'].includes(String(e.type))),
      [],
      'the CLI was never ended nor taken for a leftover',
    );
    assert.equal(
      events.filter((e) => e.type === 'approval.requested' && e.data.toolName === 'Read').length,
      1,
      'the re-delivered request did not become a second approval',
    );
    assert.ok(isAlive(identity), 'the same CLI process carries on');
    const answered = session.mock!.requests.filter(
      (r) => r.kind === 'subagent' && (r.toolResults?.length ?? 0) > 0,
    );
    assert.deepEqual(
      answered.map((r) => r.toolResults?.[0]?.isError),
      [false, false],
      'both tools ran',
    );

    await second.api(`/api/threads/${threadId}/stop`, {});
    second.process.child.kill('SIGTERM');
    assert.deepEqual(await second.process.exited, { code: 0, signal: null });
    await waitForNoProcess(session.scratch.home);
    assertNoProcessLeft(session.scratch.home);
    const spools = join(session.dataDir, 'cli');
    assert.deepEqual(existsSync(spools) ? readdirSync(spools) : [], [], 'no spool left');
  });
});
