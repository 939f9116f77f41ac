// "Always allow" with the scope a person picks, in Chromium against the real CLI: the card says which
// rules it adds and for how long before the click, and what the CLI's `//` means; a rule typed wider than
// the one shown is refused by the server, said on the card, and nothing is settled; a thread rule is kept
// on the thread's record and listed in the thread view, where Remove takes it away; a project rule is
// written by the CLI to the project's settings file, said so on the card and in the thread view, with no
// Remove. A command read through a symlink shows the command once, offers the file as the command names
// it and where the link leads, says why both, and is granted as shown. The scope picker and the link card
// are photographed (docs/screenshots/card-always.png and card-always-link.png, refreshed with
// WARDEN_UPDATE_SCREENSHOTS=1).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import type { Locator, Page } from 'playwright-core';

import { scenario, type Scratch } from '../../src/testing/index.js';
import { clickAnswer } from './helpers/actionable.js';
import { openBrowser } from './helpers/browser.js';
import { photograph } from './helpers/photograph.js';
import { threadWaitingForApproval } from './helpers/threads.js';
import { startWarden } from './helpers/warden.js';

const RULE = 'Read(//etc/hostname)';

const LEGEND = '// = an absolute path: Read(//etc/hostname) means /etc/hostname.';

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

/** A link outside the project (`<tmp>/etc/os-release` → `<tmp>/usr-lib/os-release`), and a `cat` of it. */
function linkScript(scratch: Scratch) {
  mkdirSync(join(scratch.tmpdir, 'etc'));
  mkdirSync(join(scratch.tmpdir, 'usr-lib'));
  writeFileSync(join(scratch.tmpdir, 'usr-lib', 'os-release'), 'PRETTY_NAME="Test OS"\n');
  symlinkSync(join(scratch.tmpdir, 'usr-lib', 'os-release'), join(scratch.tmpdir, 'etc', 'os-release'));
  return scenario()
    .on('cat')
    .callTool('Bash', {
      command: `cat ${join(scratch.tmpdir, 'etc', 'os-release')}`,
      description: 'Show the OS release',
    })
    .thenAnswer((ctx) => `it says: ${ctx.toolResults[0]?.text ?? ''}`)
    .build();
}

/** The line above the button without its legend: exactly what will be sent. */
async function rulesLine(card: Locator): Promise<string> {
  const line = (await card.locator('.always-rules').textContent()) ?? '';
  const legend = card.locator('.always-rules .rules-legend');
  const words = (await legend.count()) === 0 ? '' : ((await legend.textContent()) ?? '');
  assert.ok(line.endsWith(words), 'the legend follows the rules');
  return line.slice(0, line.length - words.length);
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

    // Before any click: the exact rule, and for how long (this CLI session unless another is chosen),
    // with the CLI's `//` said in words.
    assert.equal(await rulesLine(card), `Always allow in this CLI session: ${RULE}`);
    assert.equal(await card.locator('.rules-legend').textContent(), LEGEND);
    assert.equal(await card.getByLabel('this CLI session').isChecked(), true, 'the session is the default');
    // What the rule would have done in this thread so far, from the server's simulation of its history.
    await card
      .locator('.always-simulated', {
        hasText:
          'In this thread so far (1 recorded request, this one included), this rule would have allowed 1 ask.',
      })
      .waitFor();
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
      await rulesLine(card),
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
    assert.equal(await rulesLine(card), `Always allow in this thread: ${RULE}`);
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
    assert.equal(await card.locator('.rules-legend').count(), 0, 'no path, no legend');
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

  it('a command read through a link: the path as named and where it leads, granted as shown', async (t) => {
    const warden = await startWarden(t, linkScript);
    const { threadId, approvalId } = await threadWaitingForApproval(warden, '[[cat]] show the OS release');
    const { page } = await openBrowser(warden);
    const bodies = decisionBodies(page);
    const card = page.locator(`.approval[data-approval-id="${approvalId}"]`);
    await card.waitFor();
    const tmp = warden.scratch.tmpdir;
    const command = `cat ${tmp}/etc/os-release`;
    // The heading's folded summary, and the command exactly as it runs under it.
    assert.equal(await card.locator('.title .summary').textContent(), command);
    assert.equal(await card.locator('pre.command code').textContent(), command);
    await card.locator('.agent-claim', { hasText: 'Show the OS release' }).waitFor();

    const rules = [`Bash(${command})`, `Read(/${tmp}/etc/os-release)`, `Read(/${tmp}/usr-lib/os-release)`];
    assert.equal(await rulesLine(card), `Always allow in this CLI session: ${rules.join(', ')}`);
    assert.equal(
      await card.locator('.rules-legend').textContent(),
      `// = an absolute path: Read(/${tmp}/etc/os-release) means ${tmp}/etc/os-release. ` +
        `${tmp}/etc/os-release is a link to ${tmp}/usr-lib/os-release: both are named, so if the link is ` +
        'changed to lead elsewhere, the agent is asked again.',
    );
    await card.getByLabel('this thread').check();
    await photograph(card, 'card-always-link');
    await clickAnswer(card, card.getByRole('button', { name: /Always allow/ }));
    await card.waitFor({ state: 'detached' });
    assert.deepEqual(bodies, [{ behavior: 'allow_always', scope: 'thread', rules }]);
    assert.deepEqual(
      warden.supervisor.getThread(threadId).thread.grants.map((g) => g.rule),
      rules,
    );
    const ended = await warden.waitForEvent((e) => e.type === 'run.ended' && e.threadId === threadId);
    assert.ok(ended.type === 'run.ended');
    assert.equal(ended.data.result?.text, 'it says: PRETTY_NAME="Test OS"');
  });
});
