// A route's steps survive the host: the real CLI asks, the host closes with the request pending (the CLI
// lives on, detached), the route's reminder and escalation times pass while no host runs, and the next
// host takes both steps at open — in order, once each — before the escalated decider answers and the
// command runs.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { Supervisor } from '../../src/supervisor/index.js';
import { scenario } from '../../src/testing/index.js';
import { openDurableScene } from './helpers/durable-host.js';
import { clockPasses } from './helpers/wall-clock.js';
import { allEvents, waitForEvent } from './helpers/supervisor-session.js';

const ROUTES = [{ name: 'ops', remindAfterMs: 1000, escalateAfterMs: 1500, to: ['bob'] }];

describe('routes across a restart, real CLI', { timeout: 180_000 }, () => {
  it('takes the steps whose time passed while no host ran, at open, in order', async (t) => {
    const scene = await openDurableScene(t, () =>
      scenario()
        .on('late')
        .callTool('Bash', { command: 'touch late.txt', description: 'Create a file' })
        .thenAnswer((ctx) => `late: ${ctx.toolResults[0]?.text ?? ''}`)
        .build(),
    );
    const { scratch, config } = scene;
    const first = await Supervisor.open({ ...config, routes: ROUTES });
    const thread = await first.createThread({ cwd: scratch.cwd, mode: 'supervised' });
    await first.send(thread.id, '[[late]] make a file');
    const requested = await waitForEvent(first, 'approval.requested');
    const { approvalId } = requested.data;
    await first.close();
    await clockPasses(String(requested.data.routing?.escalation?.escalateAt));

    const second = await Supervisor.open({ ...config, routes: ROUTES });
    scene.sup = second;
    assert.equal(second.recovered.processesReattached, 1);
    const escalated = await waitForEvent(
      second,
      'approval.escalated',
      (e) => e.data.approvalId === approvalId,
    );
    assert.deepEqual(escalated.data.to, ['bob']);
    const steps = (await allEvents(second))
      .filter((e) => e.type === 'approval.reminded' || e.type === 'approval.escalated')
      .map((e) => e.type);
    assert.deepEqual(steps, ['approval.reminded', 'approval.escalated'], 'each once, the reminder first');
    const { escalation } = second.getApproval(approvalId).routing ?? {};
    assert.ok(escalation?.remindedAt !== null && escalation?.escalatedAt !== null);

    await second.decide(approvalId, { behavior: 'allow', decidedBy: { name: 'bob', via: 'api' } });
    await waitForEvent(second, 'run.ended');
    assert.ok(existsSync(join(scratch.cwd, 'late.txt')), 'the command ran');
    const kinds = second
      .readAudit({ threadId: thread.id })
      .map((row) => (JSON.parse(row.text) as { kind: string }).kind);
    assert.deepEqual(kinds, ['reminded', 'escalated', 'decision']);
  });
});
