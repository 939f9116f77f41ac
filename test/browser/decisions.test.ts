// Answering from the inbox: deny with a message the model then reads, the keyboard shortcuts, and an
// approval someone else answered first (the server's 409) leaving the inbox with a note.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { clickAnswer, whenActionable } from './helpers/actionable.js';
import { openBrowser } from './helpers/browser.js';
import { writeScript } from './helpers/scenarios.js';
import { runEnded, threadWaitingForApproval } from './helpers/threads.js';
import { startWarden } from './helpers/warden.js';

describe('deciding in the inbox', { timeout: 120_000 }, () => {
  it('denies with a message that reaches the model and shows in the thread', async (t) => {
    const warden = await startWarden(t, () => writeScript(['deny']));
    const { threadId, approvalId } = await threadWaitingForApproval(warden, '[[deny]] make a file');
    const { page, screenshot } = await openBrowser(warden);

    const card = page.locator('.approval', { hasText: 'touch deny.txt' });
    await card.getByLabel('Reason for denying (the agent reads it)').fill('No new files <b>today</b>');
    await clickAnswer(card, card.getByRole('button', { name: /^Deny( d)?$/ }));
    await card.waitFor({ state: 'detached' });
    await runEnded(warden, threadId);

    const approval = warden.supervisor.getApproval(approvalId);
    assert.equal(approval.status, 'denied');
    assert.equal(approval.decision?.message, 'No new files <b>today</b>');
    const toolResult = warden.mock.requests.flatMap((r) => r.toolResults ?? []).at(-1);
    assert.equal(toolResult?.isError, true);
    assert.match(toolResult?.text ?? '', /No new files <b>today<\/b>/);

    await page.locator(`.thread-list a[data-thread-id="${threadId}"]`).click();
    const badge = page.locator('.item.tool-call .badge.denied');
    await badge.waitFor();
    // The message is shown as text, markup and all: nothing the agent or a person types becomes HTML.
    assert.equal(await badge.textContent(), 'denied by you: No new files <b>today</b>');
    assert.equal(await page.locator('.timeline b').count(), 0);
    await screenshot('deny-thread');
  });

  it('moves with j/k and decides with a, d and Enter', async (t) => {
    const warden = await startWarden(t, () => writeScript(['first', 'second']));
    const first = await threadWaitingForApproval(warden, '[[first]] make a file');
    const second = await threadWaitingForApproval(warden, '[[second]] make another file');
    const { page, screenshot } = await openBrowser(warden);
    const cards = page.locator('.approval');
    await cards.nth(1).waitFor();
    assert.equal(await cards.nth(0).getAttribute('aria-current'), 'true', 'the oldest is selected first');
    assert.equal(await cards.nth(1).getAttribute('aria-current'), 'false');

    await page.keyboard.press('j');
    await page.locator('.approval.selected', { hasText: 'touch second.txt' }).waitFor();
    await screenshot('keyboard-inbox');
    await whenActionable(page.locator('.approval.selected'));
    await page.keyboard.press('a');
    await page.locator('.approval', { hasText: 'touch second.txt' }).waitFor({ state: 'detached' });
    await runEnded(warden, second.threadId);
    assert.equal(warden.supervisor.getApproval(second.approvalId).status, 'allowed');
    assert.equal(warden.supervisor.getApproval(first.approvalId).status, 'pending');

    // The remaining card is selected; d puts the cursor in its message box, Enter sends the deny.
    await page.locator('.approval.selected', { hasText: 'touch first.txt' }).waitFor();
    await page.keyboard.press('d');
    await page.keyboard.type('not this one');
    await whenActionable(page.locator('.approval.selected'));
    await page.keyboard.press('Enter');
    await page.getByText('Nothing is waiting for you.').waitFor();
    await runEnded(warden, first.threadId);
    const denied = warden.supervisor.getApproval(first.approvalId);
    assert.equal(denied.status, 'denied');
    assert.equal(denied.decision?.message, 'not this one');

    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    assert.match((await help.textContent()) ?? '', /always allow/);
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
  });

  it('says so when someone else answered first (409) and drops the card', async (t) => {
    const warden = await startWarden(t, () => writeScript(['race']));
    const { threadId, approvalId } = await threadWaitingForApproval(warden, '[[race]] make a file');
    // The page's WebSocket goes through the test, which can hold back the server's events: the page then
    // still shows the approval as pending when the person clicks, as if the other answer were on its way.
    let holdEvents = false;
    const { page } = await openBrowser(warden, {
      setup: (context) =>
        context.routeWebSocket(/\/ws/, (ws) => {
          const server = ws.connectToServer();
          server.onMessage((message) => {
            if (!holdEvents) ws.send(message);
          });
        }),
    });
    const card = page.locator('.approval', { hasText: 'touch race.txt' });
    await card.waitFor();

    holdEvents = true;
    await warden.supervisor.decide(approvalId, { behavior: 'allow' });
    await clickAnswer(card, card.getByRole('button', { name: /Approve once/ }));

    await page.locator('.toast', { hasText: 'Already settled elsewhere' }).waitFor();
    await card.waitFor({ state: 'detached' });
    await runEnded(warden, threadId);
    assert.equal(warden.supervisor.getApproval(approvalId).decision?.by, 'user');
  });
});
