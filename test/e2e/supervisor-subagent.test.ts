// The supervisor's reason to exist, against the real CLI: the root run completes while its background
// subagent still works; the subagent's permission requests then appear as pending approvals on the
// completed run, are decided through decide(), the subagent finishes, and only then is the run released.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { ConflictError } from '../../src/supervisor/index.js';
import { backgroundSubagentScenario } from '../../src/testing/index.js';
import { signal } from './helpers/sdk-session.js';
import {
  allEvents,
  assertContiguous,
  assertNoProcessLeft,
  startSupervisorSession,
  waitForEvent,
  waitForNoProcess,
} from './helpers/supervisor-session.js';

describe('supervisor: a background subagent asks after its run completed', { timeout: 120_000 }, () => {
  it('routes the requests to the completed run, decides them, and releases the run at the end', async (t) => {
    const rootEnded = signal();
    const script = backgroundSubagentScenario({ askAfter: rootEnded.promise });
    const { sup, mock, scratch, thread, warnings } = await startSupervisorSession(t, script);

    const run = await sup.send(thread.id, '[[bg]] start a background agent');
    assert.equal(run.status, 'running');
    assert.equal(run.trigger, 'human');
    const ended = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === run.id);
    assert.equal(ended.data.status, 'completed');
    rootEnded.fire();

    const started = await waitForEvent(sup, 'subagent.started');
    assert.equal(started.data.runId, run.id, 'the subagent belongs to the run that launched it');
    const read = await waitForEvent(sup, 'approval.requested', (e) => e.data.toolName === 'Read');
    assert.equal(read.data.runId, run.id);
    assert.equal(read.data.subagentId, started.data.subagentId);
    const view = sup.getThread(thread.id);
    const rootRun = view.runs.find((r) => r.id === run.id);
    assert.equal(rootRun?.status, 'completed', 'the run has completed…');
    assert.equal(rootRun?.releasedAt, null, '…but its context is held for the subagent');
    assert.deepEqual(
      sup.listApprovals({ status: 'pending' }).map((a) => [a.id, a.runId]),
      [[read.data.approvalId, run.id]],
    );

    const allowed = await sup.decide(read.data.approvalId, { behavior: 'allow' });
    assert.equal(allowed.status, 'allowed');
    await assert.rejects(sup.decide(read.data.approvalId, { behavior: 'deny' }), (error: unknown) => {
      assert.ok(error instanceof ConflictError);
      assert.equal(error.code, 'CONFLICT');
      return true;
    });

    const bash = await waitForEvent(sup, 'approval.requested', (e) => e.data.toolName === 'Bash');
    assert.equal(bash.data.runId, run.id);
    const always = await sup.decide(bash.data.approvalId, { behavior: 'allow_always' });
    assert.equal(always.status, 'allowed');
    // The file as the command names it, and where that link leads (the CLI checks the read there).
    assert.deepEqual(bash.data.alwaysAllowRules, [
      'Bash(cat /etc/os-release)',
      'Read(//etc/os-release)',
      'Read(//usr/lib/os-release)',
    ]);
    assert.deepEqual(
      always.decision?.updatedPermissions,
      [
        {
          type: 'addRules',
          rules: [
            { toolName: 'Bash', ruleContent: 'cat /etc/os-release' },
            { toolName: 'Read', ruleContent: '//etc/os-release' },
            { toolName: 'Read', ruleContent: '//usr/lib/os-release' },
          ],
          behavior: 'allow',
          destination: 'session',
        },
      ],
      'exactly the rules the approval shows, for the session only',
    );

    const released = await waitForEvent(sup, 'run.released', (e) => e.data.runId === run.id);
    const subagentEnded = await waitForEvent(sup, 'subagent.ended');
    assert.ok(subagentEnded.seq < released.seq, 'the run is released after its subagent ended');
    assert.equal(subagentEnded.data.status, 'completed');
    const cliRun = await waitForEvent(sup, 'run.ended', (e) => e.data.origin?.kind === 'task-notification');
    assert.equal(cliRun.data.status, 'completed');
    assert.equal(
      sup.getThread(thread.id).runs.find((r) => r.id === cliRun.data.runId)?.trigger,
      'task-notification',
    );

    const results = mock.requests.filter((r) => r.kind === 'subagent' && (r.toolResults?.length ?? 0) > 0);
    assert.equal(results.length, 2);
    for (const result of results) assert.equal(result.toolResults?.[0]?.isError, false);

    const timeline = sup.timeline(thread.id);
    const calls = timeline.filter((i) => i.kind === 'tool_call' && i.toolName !== 'Agent');
    assert.deepEqual(
      calls.map((c) =>
        c.kind === 'tool_call' ? [c.toolName, c.permission?.outcome, c.result?.isError] : [],
      ),
      [
        ['Read', 'allowed', false],
        ['Bash', 'allowed', false],
      ],
    );
    assertContiguous(await allEvents(sup));
    assert.deepEqual(warnings, []);
    await sup.close({ stopAgents: true });
    await waitForNoProcess(scratch.home);
    assertNoProcessLeft(scratch.home);
  });
});
