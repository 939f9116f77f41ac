// A route escalates in Chromium against the real CLI: alice answers the project's approvals, bob only what
// a route escalates to him. Nobody answers the agent's `touch`; its route reminds after a second and
// escalates to bob after two. Bob, signed in with a login link of his own, sees the card say who may
// answer ("Answerable by: alice, bob", escalated by the route), approves it, and the command runs. Each
// step is in the log and the audit trail; the card is photographed (docs/screenshots/card-routing.png,
// refreshed with WARDEN_UPDATE_SCREENSHOTS=1).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import type { SupervisorEvent } from '../../src/supervisor/index.js';
import { scenario } from '../../src/testing/index.js';
import { clickAnswer } from './helpers/actionable.js';
import { openBrowser } from './helpers/browser.js';
import { photograph } from './helpers/photograph.js';
import { startWarden } from './helpers/warden.js';

const ROUTES = [{ name: 'ops', remindAfterMs: 1000, escalateAfterMs: 2000, to: ['bob'] }];

function script() {
  return scenario()
    .on('routed')
    .callTool('Bash', { command: 'touch routed.txt', description: 'Create a file' })
    .thenAnswer((ctx) => `routed: ${ctx.toolResults[0]?.text ?? ''}`)
    .build();
}

describe('routes in the browser', { timeout: 180_000 }, () => {
  it('escalates an unanswered approval to a second decider, who answers it in the browser', async (t) => {
    const warden = await startWarden(t, script, { routes: ROUTES });
    const { supervisor, scratch } = warden;
    warden.server.deciders.create('alice', { scope: { projects: [scratch.cwd] } });
    warden.server.deciders.create('bob', { scope: { escalationOnly: true } });
    const { page } = await openBrowser(warden, { link: warden.server.loginLink('bob') });

    const thread = await supervisor.createThread({ cwd: scratch.cwd, mode: 'supervised' });
    await supervisor.send(thread.id, '[[routed]] make a file');
    const requested = (await warden.waitForEvent((e) => e.type === 'approval.requested')) as Extract<
      SupervisorEvent,
      { type: 'approval.requested' }
    >;
    const { approvalId } = requested.data;
    assert.equal(requested.data.routing?.escalation?.route, 'ops');

    // The route's steps, in order, on the real clock: seconds here, minutes in use.
    const reminded = await warden.waitForEvent((e) => e.type === 'approval.reminded');
    const escalated = (await warden.waitForEvent((e) => e.type === 'approval.escalated')) as Extract<
      SupervisorEvent,
      { type: 'approval.escalated' }
    >;
    assert.deepEqual(escalated.data, { approvalId, route: 'ops', to: ['bob'] });
    assert.ok(reminded.seq < escalated.seq);
    assert.ok(
      Date.parse(escalated.at) - Date.parse(requested.at) >= 1900,
      'not before its time: two seconds after the request',
    );

    // Bob's card says who may answer now, and why he is among them.
    const card = page.locator(`.approval[data-approval-id="${approvalId}"]`);
    const line = card.locator('.answerable-by', { hasText: 'Answerable by: alice, bob' });
    await line.waitFor();
    assert.equal(
      (await line.textContent())?.trim(),
      'Answerable by: alice, bob · escalated to bob by route ops',
    );
    await photograph(card, 'card-routing');

    await clickAnswer(card, card.getByRole('button', { name: /Approve once/ }));
    await card.waitFor({ state: 'detached' });
    await warden.waitForEvent((e) => e.type === 'run.ended' && e.threadId === thread.id);
    assert.ok(existsSync(join(scratch.cwd, 'routed.txt')), 'the command ran');
    const approval = supervisor.getApproval(approvalId);
    assert.equal(approval.status, 'allowed');
    assert.deepEqual(approval.decision?.decidedBy, { name: 'bob', via: 'web' });

    const audit = supervisor
      .readAudit({ threadId: thread.id })
      .map((row) => JSON.parse(row.text) as { kind: string; decidedBy: { name: string } | null });
    assert.deepEqual(
      audit.map((record) => [record.kind, record.decidedBy?.name]),
      [
        ['reminded', 'warden'],
        ['escalated', 'warden'],
        ['decision', 'bob'],
      ],
    );
    assert.equal(supervisor.verifyAudit().ok, true);
  });
});
