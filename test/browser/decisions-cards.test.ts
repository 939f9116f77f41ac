// The cards for decisions beyond yes and no, in Chromium against the real CLI: the model's questions
// answered in the inbox (the mock reads the answers in the tool result), a plan sent back with feedback
// (the mock reads it), a command edited before it runs (the mock reads the edited command's output), and
// deny-and-stop. Each card kind is photographed (docs/screenshots/card-*.png, refreshed with
// WARDEN_UPDATE_SCREENSHOTS=1).
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import type { Locator } from 'playwright-core';

import type { SupervisorEvent } from '../../src/supervisor/index.js';
import { ASKED_COMMAND, decisionsScript, EDITED_COMMAND } from '../e2e/helpers/decisions-scripts.js';
import { clickAnswer, whenActionable } from './helpers/actionable.js';
import { openBrowser, PICTURE_STYLE, SCREENSHOTS } from './helpers/browser.js';
import { threadWaitingForApproval } from './helpers/threads.js';
import { startWarden, type Warden } from './helpers/warden.js';

/** Photographs one card (buttons as a person sees them) and keeps it for the docs when asked to. */
async function photograph(card: Locator, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await whenActionable(card);
  await card.screenshot({ path, style: PICTURE_STYLE });
  if (process.env.WARDEN_UPDATE_SCREENSHOTS !== '1') return;
  mkdirSync('docs/screenshots', { recursive: true });
  copyFileSync(path, `docs/screenshots/${name}.png`);
}

/** The text of the tool results the mock received, in order. */
function toolResults(warden: Warden): { text: string; isError: boolean }[] {
  return warden.mock.requests.flatMap((r) => r.toolResults ?? []);
}

async function runResult(warden: Warden, threadId: string): Promise<string | null> {
  const ended = (await warden.waitForEvent(
    (e) => e.type === 'run.ended' && e.threadId === threadId,
  )) as Extract<SupervisorEvent, { type: 'run.ended' }>;
  return ended.data.result?.text ?? null;
}

describe('decision cards', { timeout: 180_000 }, () => {
  it('answers the model’s questions from the inbox; the model reads the answers', async (t) => {
    const warden = await startWarden(t, () => decisionsScript());
    const { threadId, approvalId } = await threadWaitingForApproval(warden, '[[ask]] pick a database');
    const { page } = await openBrowser(warden);
    const card = page.locator('.approval.question-approval');
    await card.waitFor();
    // Enter is no answer for a form of questions, nor is the approve key.
    assert.equal(await card.locator('button.approve').count(), 0);

    await card.getByLabel('SQLite').check();
    await card.getByLabel('Unit tests').check();
    await card.getByLabel('Your own answer to: Which checks should run before a release?').fill('Lint');
    await photograph(card, 'card-question');
    // A screenshot may scroll the card, which starts its half second on screen again.
    await clickAnswer(card, card.getByRole('button', { name: 'Send answers' }));
    await card.waitFor({ state: 'detached' });

    const result = await runResult(warden, threadId);
    const expected =
      '"Which database should the service use?"="SQLite", "Which checks should run before a release?"="Unit tests, Lint"';
    assert.ok(result?.includes(expected), `the model read the answers: ${result ?? ''}`);
    assert.ok(toolResults(warden).some((r) => r.text.includes(expected)));
    assert.equal(warden.supervisor.getApproval(approvalId).status, 'allowed');

    await page.locator(`.thread-list a[data-thread-id="${threadId}"]`).click();
    const answered = page.locator('.decision-detail.answers');
    await answered.waitFor();
    assert.match(
      (await answered.textContent()) ?? '',
      /Which checks should run before a release\?Unit tests, Lint/,
    );
  });

  it('sends a plan back with feedback from the inbox; the model reads it', async (t) => {
    const warden = await startWarden(t, () => decisionsScript());
    const thread = await warden.supervisor.createThread({
      cwd: warden.scratch.cwd,
      mode: 'supervised',
      plan: true,
    });
    await warden.supervisor.send(thread.id, '[[plan]] add a health check');
    const { page } = await openBrowser(warden);
    const card = page.locator('.approval.plan-approval');
    await card.waitFor();
    // The plan is Markdown: a heading, emphasis, a table — drawn, not shown as source.
    await card.locator('.plan-text h1', { hasText: 'Add a health check' }).waitFor();
    assert.equal(await card.locator('.plan-text table').count(), 1);
    await photograph(card, 'card-plan');

    await card.getByLabel(/Send back with feedback/).fill('Also log each health check.');
    await clickAnswer(card, card.getByRole('button', { name: /^Send back/ }));
    await card.waitFor({ state: 'detached' });
    assert.equal(await runResult(warden, thread.id), 'Plan sent back: Also log each health check.');
    const [approval] = warden.supervisor.listApprovals({ threadId: thread.id });
    assert.equal(approval?.status, 'denied');
  });

  it('edits a command before approving: the edited one runs, the thread shows how', async (t) => {
    const warden = await startWarden(t, () => decisionsScript());
    const { threadId, approvalId } = await threadWaitingForApproval(warden, '[[edit]] make a file');
    const { page } = await openBrowser(warden);
    const card = page.locator('.approval.tool-approval', { hasText: ASKED_COMMAND });
    await card.waitFor();
    await photograph(card, 'card-tool');

    await card.getByText('Edit before approving').click();
    await card.getByLabel('Command to run instead').fill(EDITED_COMMAND);
    await card.locator('.edit-diff .add', { hasText: EDITED_COMMAND }).waitFor();
    await photograph(card, 'card-edited');
    await clickAnswer(card, card.getByRole('button', { name: 'Approve edited' }));
    await card.waitFor({ state: 'detached' });

    assert.equal(await runResult(warden, threadId), 'Tool said: the edited command ran');
    assert.equal(existsSync(join(warden.scratch.cwd, 'edited.txt')), true);
    assert.equal(existsSync(join(warden.scratch.cwd, 'asked.txt')), false);
    const approval = warden.supervisor.getApproval(approvalId);
    assert.equal(approval.input.command, ASKED_COMMAND);
    assert.equal(approval.decision?.updatedInput?.command, EDITED_COMMAND);

    await page.locator(`.thread-list a[data-thread-id="${threadId}"]`).click();
    const edited = page.locator('.decision-detail.edited');
    await edited.waitFor();
    assert.equal(await edited.locator('.del', { hasText: ASKED_COMMAND }).count(), 1);
    assert.equal(await edited.locator('.add', { hasText: EDITED_COMMAND }).count(), 1);
  });

  it('denies and stops the turn', async (t) => {
    const warden = await startWarden(t, () => decisionsScript());
    const { threadId, approvalId } = await threadWaitingForApproval(warden, '[[write]] write notes');
    const { page } = await openBrowser(warden);
    const card = page.locator('.approval.tool-approval');
    await card.waitFor();
    await card.getByLabel('Reason for denying (the agent reads it)').fill('Stop here.');
    await clickAnswer(card, card.getByRole('button', { name: 'Deny and stop turn' }));
    await card.waitFor({ state: 'detached' });
    const ended = (await warden.waitForEvent(
      (e) => e.type === 'run.ended' && e.threadId === threadId,
    )) as Extract<SupervisorEvent, { type: 'run.ended' }>;
    assert.equal(ended.data.status, 'interrupted');
    const approval = warden.supervisor.getApproval(approvalId);
    assert.equal(approval.status, 'denied');
    assert.equal(approval.decision?.interrupt, true);
    assert.equal(approval.decision?.message, 'Stop here.');
    assert.equal(existsSync(join(warden.scratch.cwd, 'notes.md')), false);
  });
});
