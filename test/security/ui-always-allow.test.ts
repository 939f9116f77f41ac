// "Always allow" on a card says exactly what it adds — the rules the server will send, and for how long
// (this CLI session unless the person picks another scope) — and is not offered when there is no rule as narrow as the request. Real server, real CLI
// (two parallel Reads outside the project, so both wait at once), real Chromium.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { scenario } from '../../src/testing/index.js';
import { whenActionable } from '../browser/helpers/actionable.js';
import { openBrowser } from '../browser/helpers/browser.js';
import { startWarden } from '../browser/helpers/warden.js';

const EXACT = '/etc/warden-ui-rule';
/** A glob character: no exact rule exists for it, so "always" is not offered. */
const NO_RULE = '/etc/warden-ui-[x]';

test(
  'Always allow shows the exact session rules, and is not offered without one',
  { timeout: 120_000 },
  async (t) => {
    const warden = await startWarden(t, () =>
      scenario()
        .on('two')
        .callTools([EXACT, NO_RULE].map((file_path) => ({ name: 'Read', input: { file_path } })))
        .thenAnswer('done')
        .build(),
    );
    const thread = await warden.supervisor.createThread({ cwd: warden.scratch.cwd, mode: 'supervised' });
    await warden.supervisor.send(thread.id, '[[two]] read them');
    await warden.waitForEvent(
      () =>
        warden.supervisor.listApprovals({ threadId: thread.id }).filter((a) => a.status === 'pending')
          .length === 2,
    );
    const approvals = warden.supervisor.listApprovals({ threadId: thread.id });
    const exact = approvals.find((a) => a.input.file_path === EXACT);
    const noRule = approvals.find((a) => a.input.file_path === NO_RULE);
    assert.ok(exact !== undefined && noRule !== undefined);
    assert.deepEqual(
      exact.alwaysAllowRules,
      ['Read(//etc/warden-ui-rule)'],
      'the server offers one exact rule',
    );
    assert.deepEqual(noRule.alwaysAllowRules, [], 'and none for a path with a glob character');

    const { page, screenshot } = await openBrowser(warden);
    const decisions: string[] = [];
    const bodies: unknown[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/decision')) {
        decisions.push(request.url());
        bodies.push(request.postDataJSON());
      }
    });
    const exactCard = page.locator(`.approval[data-approval-id="${exact.id}"]`);
    const noRuleCard = page.locator(`.approval[data-approval-id="${noRule.id}"]`);
    await exactCard.waitFor();
    await noRuleCard.waitFor();

    const rules = exactCard.locator('.always-rules');
    assert.equal(await rules.count(), 1, 'the card says what Always allow adds');
    assert.equal(
      await rules.textContent(),
      'Always allow in this CLI session: Read(//etc/warden-ui-rule)' +
        '// = an absolute path: Read(//etc/warden-ui-rule) means /etc/warden-ui-rule.',
      'the exact rule, and what its // means',
    );
    assert.deepEqual(
      await rules.locator('code').allTextContents(),
      exact.alwaysAllowRules,
      'each rule as code',
    );
    assert.equal(
      await exactCard.getByRole('button', { name: /Always allow/ }).getAttribute('aria-describedby'),
      await rules.getAttribute('id'),
      'the button is described by its rules',
    );
    assert.equal(await noRuleCard.getByRole('button', { name: /Always allow/ }).count(), 0, 'not offered');
    assert.equal(await noRuleCard.locator('.always-rules').count(), 0);
    assert.doesNotMatch((await page.locator('main').textContent()) ?? '', /rest of the session/);
    await screenshot('ui-always-allow');

    // The keyboard's A does nothing where there is nothing to always allow…
    await noRuleCard.click({ position: { x: 8, y: 8 } });
    await page.locator(`.approval.selected[data-approval-id="${noRule.id}"]`).waitFor();
    await whenActionable(noRuleCard);
    await page.keyboard.press('A');
    // …and the button where there is, sends exactly what it showed.
    await whenActionable(exactCard);
    await exactCard.getByRole('button', { name: /Always allow/ }).click();
    await exactCard.waitFor({ state: 'detached' });
    await warden.waitForEvent((e) => e.type === 'approval.decided' && e.data.approvalId === exact.id);
    assert.equal(decisions.length, 1, 'one decision was sent');
    assert.ok(decisions[0]?.includes(exact.id));
    assert.deepEqual(bodies, [{ behavior: 'allow_always', scope: 'session', rules: exact.alwaysAllowRules }]);
    const decided = warden.supervisor.getApproval(exact.id);
    assert.equal(decided.decision?.behavior, 'allow_always');
    assert.deepEqual(
      warden.supervisor.getThread(thread.id).thread.grants.map((g) => [g.rule, g.scope]),
      [['Read(//etc/warden-ui-rule)', 'session']],
      'granted as shown, for the CLI session',
    );
    assert.equal(warden.supervisor.getApproval(noRule.id).status, 'pending');
  },
);
