// A background subagent launched with the Agent tool (run_in_background) talks to the mock as a `subagent`
// request carrying the task id that task_started reported; when it completes, the CLI starts a root turn
// by itself with the task notification, which the scenario answers.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { scenario } from '../../src/testing/index.js';
import { assertCleanEnd } from './helpers/assertions.js';
import { startOfflineCli } from './helpers/offline-cli.js';

void test(
  'a background subagent is routed by its agent id and reports back',
  { timeout: 90_000 },
  async (t) => {
    let rootResultSeen!: () => void;
    const rootResult = new Promise<void>((resolve) => (rootResultSeen = resolve));
    const script = scenario()
      .on('bg')
      .launchBackgroundAgent({ prompt: '[[worker]] say something', description: 'Background worker' })
      .thenAnswer('launched')
      .onTaskNotification()
      .thenAnswer('the worker is done')
      // The subagent only starts once the root turn has ended: its work happens "after the result".
      .subagent('worker')
      .after(rootResult)
      .callTool('Bash', { command: 'echo from-worker', description: 'Say something' })
      .thenReport((ctx) => `worker saw: ${ctx.toolResults[0]?.text ?? ''}`)
      .build();
    const { cli, mock, scratch } = await startOfflineCli(t, {
      script,
      args: ['--permission-prompt-tool=stdio'],
    });

    await cli.initialize();
    await cli.sendUserText('[[bg]] start a worker');

    const started = await cli.waitFor((f) => f.type === 'system' && f.subtype === 'task_started');
    assert.equal(started.is_backgrounded, true);
    assert.equal(typeof started.task_id, 'string');
    const firstResult = await cli.waitFor((f) => f.type === 'result');
    assert.equal(firstResult.result, 'launched');
    rootResultSeen();

    const subRequest = await mock.waitForRequest((r) => r.kind === 'subagent' && r.marker === 'worker');
    assert.equal(subRequest.agentId, started.task_id);
    const notification = await cli.waitFor((f) => f.type === 'system' && f.subtype === 'task_notification');
    assert.equal(notification.task_id, started.task_id);
    assert.equal(notification.status, 'completed');

    const secondResult = await cli.waitFor((f) => f.type === 'result', cli.frames.indexOf(firstResult) + 1);
    assert.equal(secondResult.result, 'the worker is done');
    assert.equal(secondResult.origin?.kind, 'task-notification');

    const subagentRequests = mock.requests.filter((r) => r.kind === 'subagent');
    assert.deepEqual(
      subagentRequests.map((r) => [r.agentId, r.rounds]),
      [
        [started.task_id, 0],
        [started.task_id, 1],
      ],
    );
    assert.equal(subagentRequests[1]!.toolResults?.[0]?.text, 'from-worker');
    const notified = mock.requests.filter((r) => r.kind === 'main' && r.isTaskNotification === true);
    assert.equal(notified.length, 1);
    assert.equal(notified[0]!.marker, 'bg');
    await assertCleanEnd(cli, scratch);
  },
);
