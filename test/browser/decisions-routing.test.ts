// A route escalates in Chromium against the real CLI: alice answers the project's approvals, bob only what
// a route escalates to him. Bob, signed in with a login link of his own, sees the card say who may answer
// and that it is not his to answer; his answer is refused with the reason. Nobody answers the agent's
// `touch`; its route reminds after five minutes and escalates to bob after ten — on a clock the test moves
// by hand. The card then says "Answerable by: alice, bob", bob approves, and the command runs. Each step
// is in the log and the audit trail; the card is photographed (docs/screenshots/card-routing.png,
// refreshed with WARDEN_UPDATE_SCREENSHOTS=1). The same steps on the real clock, across a restart, are
// test/e2e/routes-restart.test.ts.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import type { SupervisorEvent } from '../../src/supervisor/index.js';
import { scenario } from '../../src/testing/index.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { clickAnswer, whenActionable } from './helpers/actionable.js';
import { openBrowser } from './helpers/browser.js';
import { photograph } from './helpers/photograph.js';
import { startWarden } from './helpers/warden.js';

const MINUTE = 60_000;
const ROUTES = [{ name: 'ops', remindAfterMs: 5 * MINUTE, escalateAfterMs: 10 * MINUTE, to: ['bob'] }];

function script() {
  return scenario()
    .on('routed')
    .callTool('Bash', { command: 'touch routed.txt', description: 'Create a file' })
    .thenAnswer((ctx) => `routed: ${ctx.toolResults[0]?.text ?? ''}`)
    .build();
}

describe('routes in the browser', { timeout: 180_000 }, () => {
  it('escalates an unanswered approval to a second decider, who answers it in the browser', async (t) => {
    const clock = new ManualClock();
    const warden = await startWarden(t, script, { routes: ROUTES, routeClock: clock });
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

    // Before the route escalates: alice's, not bob's — and the server says so when bob tries.
    const card = page.locator(`.approval[data-approval-id="${approvalId}"]`);
    const line = card.locator('.answerable-by');
    await line.locator('.not-mine', { hasText: 'not yours (bob) to answer' }).waitFor();
    assert.match(
      (await line.textContent()) ?? '',
      /^Answerable by: alice · escalates to bob at .+ \(route ops\) · not yours \(bob\) to answer$/,
    );
    await whenActionable(card);
    await card.getByRole('button', { name: /Approve once/ }).click();
    await page
      .locator('.toast', {
        hasText: `Could not send the decision: Approval ${approvalId} is not in the scope of decider bob: it is answerable by alice`,
      })
      .waitFor();
    assert.equal(supervisor.getApproval(approvalId).status, 'pending');

    // Ten minutes unanswered, in no time: the reminder, then the escalation.
    clock.advance(5 * MINUTE);
    const reminded = await warden.waitForEvent((e) => e.type === 'approval.reminded');
    clock.advance(5 * MINUTE);
    const escalated = (await warden.waitForEvent((e) => e.type === 'approval.escalated')) as Extract<
      SupervisorEvent,
      { type: 'approval.escalated' }
    >;
    assert.deepEqual(escalated.data, { approvalId, route: 'ops', to: ['bob'] });
    assert.ok(reminded.seq < escalated.seq);

    // Bob's card says who may answer now, and why he is among them.
    const now = card.locator('.answerable-by', { hasText: 'Answerable by: alice, bob' });
    await now.waitFor();
    assert.equal(
      (await now.textContent())?.trim(),
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
