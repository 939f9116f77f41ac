// "Always allow" with the scope a person picks, in Chromium against the real CLI: the card says which
// rules it adds and for how long before the click; a rule typed wider than the one shown is refused by
// the server, said on the card, and nothing is settled; a thread rule is kept on the thread's record and
// listed in the thread view, where Remove takes it away; a project rule is written by the CLI to the
// project's settings file, said so on the card and in the thread view, with no Remove. The scope
// picker is photographed (docs/screenshots/card-always.png, refreshed with WARDEN_UPDATE_SCREENSHOTS=1).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import type { Page } from 'playwright-core';

import { scenario } from '../../src/testing/index.js';
import { clickAnswer } from './helpers/actionable.js';
import { openBrowser } from './helpers/browser.js';
import { photograph } from './helpers/photograph.js';
import { threadWaitingForApproval } from './helpers/threads.js';
import { startWarden } from './helpers/warden.js';

const RULE = 'Read(//etc/hostname)';

function script() {
  return scenario()
    .on('read')
    .callTool('Read', { file_path: '/etc/hostname' })
    .thenAnswer('read it')
    .on('project')
    .callTool('Bash', { command: 'touch project.txt', description: 'Create a file' })
    .thenAnswer((ctx) => `made it: ${ctx.toolResults[0]?.text ?? ''}`)
    .build();
}

/** The bodies of the decisions the page posts. */
function decisionBodies(page: Page): Record<string, unknown>[] {
  const bodies: Record<string, unknown>[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/api\/approvals\/[^/]+\/decision$/.test(request.url()))
      bodies.push(request.postDataJSON() as Record<string, unknown>);
  });
  return bodies;
}

async function openThread(page: Page, threadId: string): Promise<void> {
  await page.locator(`.thread-list a[data-thread-id="${threadId}"]`).click();
  await page.locator('.thread-policy').waitFor();
}

describe('always allow, with a scope', { timeout: 180_000 }, () => {
  it('a wider rule is refused on the card; a thread rule is listed and removed in the thread view', async (t) => {
    const warden = await startWarden(t, script);
    const { threadId, approvalId } = await threadWaitingForApproval(warden, '[[read]] read the host name');
    const { page } = await openBrowser(warden);
    const bodies = decisionBodies(page);
    const card = page.locator(`.approval[data-approval-id="${approvalId}"]`);
    await card.waitFor();

    // Before any click: the exact rule, and for how long (this CLI session unless another is chosen).
    assert.equal(
      await card.locator('.always-rules').textContent(),
      `Always allow in this CLI session: ${RULE}`,
    );
    assert.equal(await card.getByLabel('this CLI session').isChecked(), true, 'the session is the default');
    await card.getByLabel('this project').check();
    const note = card.locator('.scope-note');
    assert.equal(
      await note.textContent(),
      `Written to ${warden.scratch.cwd}/.claude/settings.local.json by the CLI. Warden cannot remove it: edit that file to take it back.`,
    );
    await card.getByText('Narrow the rule').click();
    await photograph(card, 'card-always');

    // Wider than shown: the server refuses, the card says why, nothing is settled.
    await card.getByLabel('this thread').check();
    await card.getByLabel('Rule 1 to always allow').fill('Read(//etc/**)');
    assert.equal(
      await card.locator('.always-rules').textContent(),
      'Always allow in this thread: Read(//etc/**)',
      'the line above the button is what will be sent',
    );
    await clickAnswer(card, card.getByRole('button', { name: /Always allow/ }));
    const error = card.locator('.always-error');
    await error.filter({ hasText: 'wider than the rules shown' }).waitFor();
    assert.match((await error.textContent()) ?? '', /^Not sent: rules\[0\] "Read\(\/\/etc\/\*\*\)" is wider/);
    assert.deepEqual(bodies, [{ behavior: 'allow_always', scope: 'thread', rules: ['Read(//etc/**)'] }]);
    assert.equal(warden.supervisor.getApproval(approvalId).status, 'pending', 'nothing was settled');
    assert.deepEqual(warden.supervisor.getThread(threadId).thread.grants, []);
    // The card came back as it was left: the scope and the edited rule.
    assert.equal(await card.getByLabel('this thread').isChecked(), true);
    assert.equal(await card.getByLabel('Rule 1 to always allow').inputValue(), 'Read(//etc/**)');

    await card.getByRole('button', { name: 'Back to the rules offered' }).click();
    assert.equal(await card.locator('.always-rules').textContent(), `Always allow in this thread: ${RULE}`);
    assert.equal(await error.isHidden(), true, 'the old reason goes once the rules change');
    await clickAnswer(card, card.getByRole('button', { name: /Always allow/ }));
    await card.waitFor({ state: 'detached' });
    await warden.waitForEvent((e) => e.type === 'approval.decided' && e.data.approvalId === approvalId);
    assert.deepEqual(bodies[1], { behavior: 'allow_always', scope: 'thread', rules: [RULE] });
    assert.equal(warden.supervisor.getApproval(approvalId).decision?.behavior, 'allow_always');
    const grants = warden.supervisor.getThread(threadId).thread.grants;
    assert.deepEqual(
      grants.map((g) => [g.rule, g.scope, g.approvalId]),
      [[RULE, 'thread', approvalId]],
    );

    // The thread view lists it — scope, when, from which approval — and Remove takes it away.
    await openThread(page, threadId);
    const listed = page.locator(`.rule-list li[data-rule="${RULE}"]`);
    await listed.waitFor();
    assert.match(
      (await listed.textContent()) ?? '',
      /this thread, until removed · granted \d\d:\d\d( [AP]M)? from Read \/etc\/hostname/,
    );
    assert.equal(
      await listed.locator('a.grant-source').getAttribute('href'),
      `#/threads/${threadId}?call=${warden.supervisor.getApproval(approvalId).toolUseId}`,
    );
    await listed.getByRole('button', { name: /^Remove/ }).click();
    await listed.waitFor({ state: 'detached' });
    assert.deepEqual(warden.supervisor.getThread(threadId).thread.grants, [], 'removed on the server');
    await page.locator('.granted-rules', { hasText: 'None.' }).waitFor();
  });

  it('a project rule is written by the CLI, and the thread view says Warden cannot remove it', async (t) => {
    const warden = await startWarden(t, script);
    const { threadId, approvalId } = await threadWaitingForApproval(warden, '[[project]] make a file');
    const { page } = await openBrowser(warden);
    const card = page.locator(`.approval[data-approval-id="${approvalId}"]`);
    await card.waitFor();
    const settings = join(warden.scratch.cwd, '.claude', 'settings.local.json');
    const rule = 'Bash(touch project.txt)';
    assert.equal(
      await card.locator('.always-rules').textContent(),
      `Always allow in this CLI session: ${rule}`,
    );
    await card.getByLabel('this project').check();
    await clickAnswer(card, card.getByRole('button', { name: /Always allow/ }));
    await card.waitFor({ state: 'detached' });
    await warden.waitForEvent((e) => e.type === 'run.ended' && e.threadId === threadId);
    assert.equal(existsSync(join(warden.scratch.cwd, 'project.txt')), true);
    const written = JSON.parse(readFileSync(settings, 'utf8')) as { permissions?: { allow?: string[] } };
    assert.deepEqual(written.permissions?.allow, [rule], 'exactly the rule shown, written by the CLI');

    await openThread(page, threadId);
    const listed = page.locator(`.rule-list li[data-rule="${rule}"]`);
    await listed.waitFor();
    assert.match(
      (await listed.textContent()) ?? '',
      new RegExp(
        `this project: in ${warden.scratch.cwd}/\\.claude/settings\\.local\\.json, written by the CLI; Warden cannot remove it`,
      ),
    );
    assert.equal(await listed.getByRole('button', { name: /Remove/ }).count(), 0, 'no Remove for it');
  });
});
