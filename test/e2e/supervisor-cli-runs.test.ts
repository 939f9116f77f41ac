// The same rules for runs the CLI starts itself and for failed runs, against the real CLI:
// - a CLI-started run (after a task notification) launches a second background subagent, whose request
//   after that run completed is routed to it and decided;
// - an earlier run's subagent keeps asking after a later run failed with an API error (400).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { scenario } from '../../src/testing/index.js';
import { signal } from './helpers/sdk-session.js';
import {
  allEvents,
  assertContiguous,
  startSupervisorSession,
  waitForEvent,
} from './helpers/supervisor-session.js';

describe('supervisor: CLI-started runs and failed runs', { timeout: 120_000 }, () => {
  it('a second background subagent launched by a CLI-started run asks after that run completed', async (t) => {
    const cliRunEnded = signal();
    const script = scenario()
      .on('bg')
      .launchBackgroundAgent({ prompt: '[[subA]] say hello', description: 'First helper' })
      .thenAnswer('Launched the first helper.')
      .onTaskNotification()
      // The first helper's notification launches the second; the second's is just acknowledged.
      .reply((ctx) =>
        ctx.lastUserText.includes('First helper')
          ? {
              content: [
                {
                  type: 'tool_use',
                  name: 'Agent',
                  input: {
                    description: 'Second helper',
                    prompt: '[[subB]] inspect the host',
                    subagent_type: 'general-purpose',
                    run_in_background: true,
                  },
                },
              ],
            }
          : { content: [{ type: 'text', text: 'The second helper reported.' }] },
      )
      .thenAnswer('Launched the second helper.')
      .subagent('subA')
      .thenReport('Hello from the first helper.')
      .subagent('subB')
      .after(cliRunEnded.promise)
      .callTool('Read', { file_path: '/etc/hostname' })
      .thenReport('Host inspected.')
      .build();
    const { sup, thread } = await startSupervisorSession(t, script);
    const run = await sup.send(thread.id, '[[bg]] start a helper');

    const second = await waitForEvent(sup, 'subagent.started', (e) => e.data.description === 'Second helper');
    const cliRunId = second.data.runId;
    assert.notEqual(cliRunId, run.id, 'the second subagent belongs to the CLI-started run');
    const cliEnded = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === cliRunId);
    assert.equal(cliEnded.data.status, 'completed');
    assert.equal(cliEnded.data.origin?.kind, 'task-notification');
    await waitForEvent(sup, 'run.released', (e) => e.data.runId === run.id);
    cliRunEnded.fire();

    const asked = await waitForEvent(sup, 'approval.requested');
    assert.equal(asked.data.runId, cliRunId);
    assert.equal(asked.data.subagentId, second.data.subagentId);
    const cliRun = sup.getThread(thread.id).runs.find((r) => r.id === cliRunId);
    assert.equal(cliRun?.trigger, 'task-notification');
    assert.equal(cliRun?.status, 'completed');
    assert.equal(cliRun?.releasedAt, null);
    await sup.decide(asked.data.approvalId, { behavior: 'allow' });

    await waitForEvent(sup, 'run.released', (e) => e.data.runId === cliRunId);
    const view = sup.getThread(thread.id);
    assert.deepEqual(
      view.subagents.map((s) => [s.description, s.status, s.runId]),
      [
        ['First helper', 'completed', run.id],
        ['Second helper', 'completed', cliRunId],
      ],
    );
    assertContiguous(await allEvents(sup));
  });

  it('an earlier run’s subagent keeps asking after a later run failed with an API error', async (t) => {
    const failed = signal();
    const script = scenario()
      .on('bg')
      .launchBackgroundAgent({ prompt: '[[sub]] inspect the host', description: 'Inspect host' })
      .thenAnswer('Launched.')
      .onTaskNotification()
      .thenAnswer('The background agent reported back.')
      .on('broken')
      .failWith(400, 'mock: invalid request')
      .subagent('sub')
      .after(failed.promise)
      .callTool('Bash', { command: 'cat /etc/os-release', description: 'Show the OS release' })
      .callTool('Read', { file_path: '/etc/hostname' })
      .thenReport('Host inspected.')
      .build();
    const { sup, thread } = await startSupervisorSession(t, script);
    const first = await sup.send(thread.id, '[[bg]] start a background agent');
    await waitForEvent(sup, 'run.ended', (e) => e.data.runId === first.id);
    const second = await sup.send(thread.id, '[[broken]] this turn fails');
    const secondEnded = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === second.id);
    assert.equal(secondEnded.data.status, 'failed');
    assert.equal(secondEnded.data.result?.apiErrorStatus, 400);
    assert.equal(secondEnded.data.reason, 'api_error');
    failed.fire();

    for (const tool of ['Bash', 'Read']) {
      const asked = await waitForEvent(sup, 'approval.requested', (e) => e.data.toolName === tool);
      assert.equal(asked.data.runId, first.id, `${tool} is routed to the first (completed) run`);
      await sup.decide(asked.data.approvalId, { behavior: 'allow' });
    }
    await waitForEvent(sup, 'run.released', (e) => e.data.runId === first.id);
    const runs = sup.getThread(thread.id).runs;
    assert.deepEqual(
      runs.slice(0, 2).map((r) => [r.id, r.status]),
      [
        [first.id, 'completed'],
        [second.id, 'failed'],
      ],
    );
    assert.equal(sup.getThread(thread.id).subagents[0]?.status, 'completed');
  });
});
