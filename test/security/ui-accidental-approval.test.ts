// An approval is only given to a card a person could have seen: on screen, in place, for a moment.
// Holding a key, the second click of a double-click and a click on a card that has just appeared must
// not answer anything the person did not look at. Real server, real CLI (four parallel Reads outside the
// project, so four approvals wait at once), real Chromium.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { Page } from 'playwright-core';

import { scenario } from '../../src/testing/index.js';
import { whenActionable } from '../browser/helpers/actionable.js';
import { openBrowser } from '../browser/helpers/browser.js';
import { startWarden, type Warden } from '../browser/helpers/warden.js';

const FILES = [1, 2, 3, 4].map((n) => `/etc/warden-ui-${n}`);
/** How often a held key repeats on a typical desktop (30/s), and for how long it is held. */
const REPEAT_EVERY_MS = 33;
const HOLD_MS = 2000;

function fourReads() {
  return scenario()
    .on('four')
    .callTools(FILES.map((file_path) => ({ name: 'Read', input: { file_path } })))
    .thenAnswer('done')
    .build();
}

/** Starts a thread whose agent asks to read four files at once; resolves when all four wait. */
async function fourPending(warden: Warden): Promise<string> {
  const thread = await warden.supervisor.createThread({ cwd: warden.scratch.cwd, mode: 'supervised' });
  await warden.supervisor.send(thread.id, '[[four]] read them');
  await warden.waitForEvent(
    () => warden.supervisor.listApprovals({ threadId: thread.id }).filter(isPending).length === 4,
  );
  return thread.id;
}

const isPending = (a: { status: string }) => a.status === 'pending';

/** Counts the decisions the page sends, and lets the test await their answers. */
function decisionsSent(page: Page) {
  const sent: Promise<unknown>[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/api\/approvals\/[^/]+\/decision/.test(request.url()))
      sent.push(request.response());
  });
  return {
    count: () => sent.length,
    settled: () => Promise.all(sent),
  };
}

describe('approving only what was seen', { timeout: 120_000 }, () => {
  it('holding a with four pending cards approves at most one', async (t) => {
    const warden = await startWarden(t, fourReads);
    const threadId = await fourPending(warden);
    const { page } = await openBrowser(warden);
    const decisions = decisionsSent(page);
    const cards = page.locator('.approval');
    await cards.nth(3).waitFor();
    const firstId = await cards.first().getAttribute('data-approval-id');
    await whenActionable(cards.first());

    // A held key: one press, then repeats (Chromium marks them repeat=true) for two seconds — longer
    // than any lock, so a repeat after the lock would be caught too.
    const started = Date.now();
    await page.keyboard.down('a');
    while (Date.now() - started < HOLD_MS) {
      await page.waitForTimeout(REPEAT_EVERY_MS);
      await page.keyboard.down('a');
    }
    await page.keyboard.up('a');
    await page.locator(`.approval[data-approval-id="${firstId}"]`).waitFor({ state: 'detached' });
    await decisions.settled();

    const approvals = warden.supervisor.listApprovals({ threadId });
    assert.equal(decisions.count(), 1, 'the page sent one decision');
    assert.equal(approvals.filter((a) => a.status === 'allowed').length, 1, 'one approval was given');
    assert.equal(approvals.filter(isPending).length, 3, 'three still wait');
    assert.equal(await page.locator('.approval').count(), 3);
  });

  it('a double-click on Approve once approves one card and leaves the next pending', async (t) => {
    const warden = await startWarden(t, fourReads);
    const threadId = await fourPending(warden);
    const { page } = await openBrowser(warden);
    const decisions = decisionsSent(page);
    const cards = page.locator('.approval');
    await cards.nth(3).waitFor();
    const first = cards.first();
    const firstId = await first.getAttribute('data-approval-id');
    await whenActionable(first);

    await first.getByRole('button', { name: /Approve once/ }).dblclick();
    await page.locator(`.approval[data-approval-id="${firstId}"]`).waitFor({ state: 'detached' });
    await decisions.settled();

    const approvals = warden.supervisor.listApprovals({ threadId });
    assert.equal(decisions.count(), 1, 'the page sent one decision');
    assert.deepEqual(
      approvals.filter((a) => a.status === 'allowed').map((a) => a.id),
      [firstId],
      'only the card that was double-clicked is approved',
    );
    assert.equal(approvals.filter(isPending).length, 3, 'the card that slid under the pointer still waits');
  });

  it('a card that has just appeared takes no click and no key until it has been seen', async (t) => {
    const warden = await startWarden(t, fourReads);
    const { page } = await openBrowser(warden);
    const decisions = decisionsSent(page);
    // The page's clock stands still, so the card stays "just appeared" however slow this machine is: the
    // click and the key below land within the settle time by construction, not by luck.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 60_000);
    const pending = fourPending(warden);
    const first = page.locator('.approval').first();
    await first.waitFor();
    const box = await first.getByRole('button', { name: /Approve once/ }).boundingBox();
    assert.ok(box !== null);
    // A real pointer click where the button is (no waiting for it to be enabled), then the key.
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.keyboard.press('a');
    const threadId = await pending;
    // A round trip after the inputs: a decision would have been sent while they were handled (the clock
    // stands still, so nothing timed can be waited on here).
    await page.evaluate('0');
    assert.equal(decisions.count(), 0, 'nothing was sent for a card that had just appeared');
    assert.equal(warden.supervisor.listApprovals({ threadId }).filter(isPending).length, 4);

    // Once it has been on screen and in place, the same key answers it.
    await page.clock.resume();
    await whenActionable(first);
    const firstId = await first.getAttribute('data-approval-id');
    await page.keyboard.press('a');
    await page.locator(`.approval[data-approval-id="${firstId}"]`).waitFor({ state: 'detached' });
    await decisions.settled();
    assert.equal(decisions.count(), 1);
    assert.equal(warden.supervisor.getApproval(firstId ?? '').status, 'allowed');
  });
});
