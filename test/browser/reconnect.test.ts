// The live stream survives the server going away: the page shows that it is offline, reconnects by
// itself when the server is back, and resumes from the last event it had — so an approval requested
// while it was disconnected appears, and can be answered, without a reload.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { clickAnswer } from './helpers/actionable.js';
import { openBrowser } from './helpers/browser.js';
import { writeScript } from './helpers/scenarios.js';
import { runEnded, threadWaitingForApproval } from './helpers/threads.js';
import { startWarden } from './helpers/warden.js';

test('reconnects after the server drops the WebSocket and catches up', { timeout: 120_000 }, async (t) => {
  const warden = await startWarden(t, () => writeScript(['before', 'during']));
  const before = await threadWaitingForApproval(warden, '[[before]] make a file');
  const { page, screenshot } = await openBrowser(warden);
  await page.locator('.approval', { hasText: 'touch before.txt' }).waitFor();
  const loads: string[] = [];
  page.on('load', () => loads.push(page.url()));

  let during: { threadId: string; approvalId: string } | undefined;
  await warden.restartServer(async () => {
    // The server closed every socket (1001); the page says so and keeps retrying.
    await page.locator('#connection[data-state="waiting"]').waitFor();
    assert.match((await page.locator('#connection').textContent()) ?? '', /Offline, retrying in \d+s/);
    await screenshot('reconnect-offline');
    // Meanwhile the supervisor goes on: a new approval is requested while the page is disconnected.
    during = await threadWaitingForApproval(warden, '[[during]] make another file');
  });

  await page.locator('#connection[data-state="live"]').waitFor();
  const card = page.locator('.approval', { hasText: 'touch during.txt' });
  await card.waitFor();
  assert.equal(await page.locator('.approval').count(), 2, 'nothing was lost or shown twice');
  await clickAnswer(card, card.getByRole('button', { name: /Approve once/ }));
  await card.waitFor({ state: 'detached' });
  await runEnded(warden, during!.threadId);
  assert.equal(warden.supervisor.getApproval(during!.approvalId).status, 'allowed');
  assert.equal(warden.supervisor.getApproval(before.approvalId).status, 'pending');
  assert.deepEqual(loads, [], 'the page did not reload');
});
