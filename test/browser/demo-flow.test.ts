// The demo flow, end to end in Chromium: a thread's agent launches a background subagent and ends its
// turn; the subagent's permission request reaches the inbox after the root run completed (and the inbox
// says so); one click approves it; the subagent finishes, and the thread view shows the subagent
// completed, its tool result, and the follow-up turn the CLI started by itself — in which the agent asks
// a question (answered on its card) and shows a plan (approved on its card), then writes the note the
// answer chose. Meanwhile another thread's Edit waits in the same inbox, previewed as a diff.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import type { Locator } from 'playwright-core';

import { DEMO_QUESTION } from '../../src/cli/demo-follow-up.js';
import { signal } from '../e2e/helpers/sdk-session.js';
import { openBrowser } from './helpers/browser.js';
import { DEMO_PROMPT, EDIT_PROMPT, NOTES, SUBAGENT_DESCRIPTION, demoScript } from './helpers/scenarios.js';
import { threadWaitingForApproval } from './helpers/threads.js';
import { startWarden } from './helpers/warden.js';
import { clickAnswer } from './helpers/actionable.js';

test(
  'a subagent’s approval after its run completed is answered from the inbox',
  { timeout: 120_000 },
  async (t) => {
    const rootEnded = signal();
    const followUp = signal();
    const warden = await startWarden(t, (scratch) =>
      demoScript(rootEnded.promise, scratch.cwd, { followUpAfter: followUp.promise }),
    );
    void warden.waitForEvent((e) => e.type === 'run.ended').then(() => rootEnded.fire());
    const { page, screenshot } = await openBrowser(warden);

    // Start the thread from the form.
    await page.getByRole('link', { name: 'New thread' }).click();
    await page.getByLabel('Working folder').fill(warden.scratch.cwd);
    await page.getByLabel('First message (optional)').fill(DEMO_PROMPT);
    await page.getByRole('button', { name: 'Start thread' }).click();
    await page.waitForURL(/#\/threads\//);
    const timeline = page.locator('.timeline');
    await timeline.locator('.subagent-item', { hasText: SUBAGENT_DESCRIPTION }).waitFor();
    const demoId = decodeURIComponent(page.url().split('#/threads/')[1] ?? '');

    // Another thread asks to edit a file meanwhile: the inbox gathers approvals across threads.
    writeFileSync(join(warden.scratch.cwd, 'NOTES.md'), NOTES);
    const edit = await threadWaitingForApproval(warden, EDIT_PROMPT);

    // The subagent's approval arrives in the inbox once the root run has completed.
    await page.getByRole('link', { name: /^Inbox/ }).click();
    const card = page.locator('.approval', { hasText: '/etc/hostname' });
    await card.waitFor();
    await assertText(card.locator('.run-state'), 'run completed');
    await assertText(card.locator('.context'), 'Run 1, started by you');
    await assertText(card.locator('.subagent-tag'), `subagent: ${SUBAGENT_DESCRIPTION}`);
    await assertText(card.locator('.tool'), 'Read');
    assert.match(
      (await card.locator('.after-run').textContent()) ?? '',
      /ended \d+s ago; its background subagent is still waiting/,
    );
    assert.match((await card.locator('.waited').textContent()) ?? '', /waiting \d+s/);
    assert.equal(
      warden.supervisor.getThread(demoId).runs[0]?.status,
      'completed',
      'the root run had completed',
    );

    const editCard = page.locator('.approval', { hasText: 'NOTES.md' });
    const diff = (await editCard.locator('pre.diff').textContent()) ?? '';
    assert.match(diff, /^- The inbox is a prototype\.$/m);
    assert.match(diff, /^\+ The inbox works on laptops and phones\.$/m);
    assert.match(diff, /^ {2}Nothing is tested yet\.$/m, 'unchanged lines are context');
    await screenshot('demo-inbox');

    await clickAnswer(card, card.getByRole('button', { name: /Approve once/ }));
    await card.waitFor({ state: 'detached' });
    assert.equal(await page.locator('.approval').count(), 1, 'the edit still waits');
    assert.equal(warden.supervisor.getApproval(edit.approvalId).status, 'pending');

    // The thread view tells the rest of the story.
    await page.locator(`.thread-list a[data-thread-id="${demoId}"]`).click();
    await timeline.locator('.subagent-item.completed', { hasText: SUBAGENT_DESCRIPTION }).waitFor();
    const read = timeline.locator('.item.tool-call', { hasText: '/etc/hostname' });
    await assertText(read.locator('.badge'), 'approved by you');
    await read.locator('details.result summary').click();
    assert.match(
      (await read.locator('details.result pre').textContent()) ?? '',
      /\S/,
      'the tool result is shown',
    );
    await page.locator('.tree-subagent.completed', { hasText: SUBAGENT_DESCRIPTION }).waitFor();

    // The CLI's own turn goes on (the mock answers it from now on): the agent's question, on its card.
    followUp.fire();
    await page.getByRole('link', { name: /^Inbox/ }).click();
    const question = page.locator('.approval.question-approval');
    await question.getByText(DEMO_QUESTION).waitFor();
    await assertText(question.locator('.context'), 'Run 2, started by the CLI');
    await question.getByLabel('HOST.md').check();
    await clickAnswer(question, question.getByRole('button', { name: 'Send answers' }));
    await question.waitFor({ state: 'detached' });

    // Then its plan, which names the file chosen; approved, going on in auto-accept edits, so the note is
    // written without another question.
    const plan = page.locator('.approval.plan-approval');
    await plan.locator('.plan-text h1', { hasText: 'Write down which machine this is' }).waitFor();
    assert.match(
      (await plan.locator('.plan-text').textContent()) ?? '',
      /Create HOST\.md in the project folder/,
    );
    await plan.getByLabel('then continue in').selectOption('auto-edits');
    await clickAnswer(plan, plan.getByRole('button', { name: /Approve plan/ }));
    await plan.waitFor({ state: 'detached' });
    assert.equal(await page.locator('.approval').count(), 1, 'only the edit still waits');

    await page.locator(`.thread-list a[data-thread-id="${demoId}"]`).click();
    await timeline.getByText('HOST.md is written: Host inspected.').waitFor();
    // Once its turn has ended, the CLI's result says why it started.
    await assertText(
      timeline.locator('.run-boundary').nth(1),
      'started by the CLI after a subagent reported',
    );
    assert.equal(
      readFileSync(join(warden.scratch.cwd, 'HOST.md'), 'utf8'),
      '# This machine\n\nHost inspected.\n',
    );
    await timeline.locator('.decision-detail.answers', { hasText: 'HOST.md' }).waitFor();

    const approvals = warden.supervisor.listApprovals({ threadId: demoId });
    assert.deepEqual(
      approvals.map((a) => [a.toolName, a.status, a.decision?.by]),
      [
        ['Read', 'allowed', 'user'],
        ['AskUserQuestion', 'allowed', 'user'],
        ['ExitPlanMode', 'allowed', 'user'],
      ],
    );
    assert.equal(warden.supervisor.getThread(demoId).thread.mode, 'auto-edits');
    await screenshot('demo-thread');
  },
);

async function assertText(locator: Locator, expected: string): Promise<void> {
  await locator.filter({ hasText: expected }).first().waitFor();
  assert.ok(((await locator.first().textContent()) ?? '').includes(expected), `shows “${expected}”`);
}
