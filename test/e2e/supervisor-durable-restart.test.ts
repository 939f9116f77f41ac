// The supervisor's promise across a host crash, against the real CLI: a background subagent asks for
// permission after its root run completed; the host is SIGKILLed; a new host opens the same dataDir,
// re-attaches to the CLI that kept running, and the same approval is pending under the same id, routed to
// the same completed run. Deciding it lets the subagent finish; the CLI-started follow-up run is recorded.
// The CLI is the same process throughout: none leaked, none killed, none started again.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { Supervisor } from '../../src/supervisor/index.js';
import { backgroundSubagentScenario } from '../../src/testing/index.js';
import { isRunningPid, openDurableScene } from './helpers/durable-host.js';
import { signal } from './helpers/sdk-session.js';
import {
  allEvents,
  assertContiguous,
  assertNoProcessLeft,
  waitForEvent,
  waitForNoProcess,
} from './helpers/supervisor-session.js';

describe('supervisor: a detached CLI outlives its SIGKILLed host', { timeout: 180_000 }, () => {
  it('keeps a late subagent approval pending under its id, answerable by the next host', async (t) => {
    const rootEnded = signal();
    const scene = await openDurableScene(t, () =>
      backgroundSubagentScenario({ askAfter: rootEnded.promise }),
    );
    const { scratch, config, mock } = scene;
    const first = scene.host({ threads: [{ cwd: scratch.cwd, prompt: '[[bg]] start a background agent' }] });
    const started = await first.waitForEvent('session.process_started');
    const cliPid = Number(started.data.pid);
    assert.equal(typeof started.data.spoolDir, 'string', 'the CLI runs detached, with a spool');
    const rootRun = await first.waitForEvent('run.ended', (e) => e.data.status === 'completed');
    rootEnded.fire();
    const asked = await first.waitForEvent('approval.requested', (e) => e.data.toolName === 'Read');
    assert.equal(asked.data.runId, rootRun.data.runId, 'the request is routed to the completed run');
    await first.kill();
    assert.ok(isRunningPid(cliPid), 'the CLI outlives its SIGKILLed host');

    const sup = await Supervisor.open(config);
    scene.sup = sup;
    assert.equal(sup.recovered.processesReattached, 1);
    assert.equal(sup.recovered.processesStopped, 0);
    assert.equal(sup.recovered.approvalsExpired, 0);
    const approvalId = String(asked.data.approvalId);
    const pending = sup.getApproval(approvalId);
    assert.equal(pending.status, 'pending', 'the same approval id is still pending');
    assert.equal(pending.runId, rootRun.data.runId, 'routed to the same completed run');
    const threadId = pending.threadId;
    assert.equal(sup.getThread(threadId).thread.status, 'live');

    const allowed = await sup.decide(approvalId, { behavior: 'allow' });
    assert.equal(allowed.status, 'allowed');
    const bash = await waitForEvent(sup, 'approval.requested', (e) => e.data.toolName === 'Bash');
    assert.equal(bash.data.runId, rootRun.data.runId, 'the next request of the subagent: same run');
    await sup.decide(bash.data.approvalId, { behavior: 'allow' });
    const subagentEnded = await waitForEvent(sup, 'subagent.ended');
    assert.equal(subagentEnded.data.status, 'completed');
    const released = await waitForEvent(sup, 'run.released', (e) => e.data.runId === rootRun.data.runId);
    assert.ok(subagentEnded.seq < released.seq);
    const followUp = await waitForEvent(sup, 'run.ended', (e) => e.data.origin?.kind === 'task-notification');
    assert.equal(followUp.data.status, 'completed');

    const events = await allEvents(sup);
    assertContiguous(events);
    assert.deepEqual(
      events.filter((e) => e.type === 'session.started').map((e) => e.data.generation),
      [1],
      'no second CLI was started',
    );
    assert.deepEqual(
      events.filter((e) => e.type === 'session.reattached').map((e) => e.data.pid),
      [cliPid],
    );
    assert.equal(
      events.filter((e) => e.type === 'approval.requested' && e.data.toolName === 'Read').length,
      1,
      'the re-delivered request did not become a second approval',
    );
    assert.ok(isRunningPid(cliPid), 'the same CLI process carries on');
    const results = mock.requests.filter((r) => r.kind === 'subagent' && (r.toolResults?.length ?? 0) > 0);
    assert.deepEqual(
      results.map((r) => r.toolResults?.[0]?.isError),
      [false, false],
      'both tools ran',
    );
    await sup.close({ stopAgents: true });
    await waitForNoProcess(scratch.home);
    assertNoProcessLeft(scratch.home);
  });
});
