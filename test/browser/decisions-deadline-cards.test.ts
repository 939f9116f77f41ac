// Deadlines in Chromium against the real CLI: a thread started from the new-thread form with "if
// unanswered after 30 minutes, deny" gives its approvals a deadline, and the card counts it down each
// second; a deadline changed in the thread view applies to the next approval, which the server denies
// when it passes — the card leaves with a notice, the thread's timeline says "denied by the deadline",
// and the model reads why. The card is photographed (docs/screenshots/card-deadline.png, refreshed with
// WARDEN_UPDATE_SCREENSHOTS=1).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import type { SupervisorEvent } from '../../src/supervisor/index.js';
import { scenario } from '../../src/testing/index.js';
import { openBrowser } from './helpers/browser.js';
import { clickAnswer } from './helpers/actionable.js';
import { photograph } from './helpers/photograph.js';
import { startWarden } from './helpers/warden.js';

const THIRTY_MINUTES = 30 * 60_000;

function script() {
  return scenario()
    .on('first')
    .callTool('Bash', { command: 'touch first.txt', description: 'Create a file' })
    .thenAnswer((ctx) => `first: ${ctx.toolResults[0]?.text ?? ''}`)
    .on('late')
    .callTool('Bash', { command: 'touch late.txt', description: 'Create a file' })
    .thenAnswer((ctx) => `late: ${ctx.toolResults[0]?.text ?? ''}`)
    .build();
}

/** "29:41" → seconds. */
function seconds(text: string | null): number {
  const match = /(\d+):(\d\d)$/.exec(text ?? '');
  assert.ok(match, `a countdown: ${text ?? ''}`);
  return Number(match[1]) * 60 + Number(match[2]);
}

describe('deadlines on cards', { timeout: 180_000 }, () => {
  it('a thread started with a deadline counts it down on its cards; another set in the thread view denies', async (t) => {
    const warden = await startWarden(t, script);
    const { page } = await openBrowser(warden);

    await page.getByRole('link', { name: 'New thread' }).click();
    await page.locator('#new-cwd').fill(warden.scratch.cwd);
    await page.getByLabel('If unanswered after (optional)').fill('30');
    assert.equal(await page.locator('#new-deadline-unit').inputValue(), 'minutes');
    await page.locator('#new-prompt').fill('[[first]] make a file');
    await page.getByRole('button', { name: 'Start thread' }).click();
    const requested = (await warden.waitForEvent((e) => e.type === 'approval.requested')) as Extract<
      SupervisorEvent,
      { type: 'approval.requested' }
    >;
    const threadId = requested.threadId;
    assert.deepEqual(warden.supervisor.getThread(threadId).thread.deadlines, {
      afterMs: THIRTY_MINUTES,
      rules: [],
    });
    const first = warden.supervisor.getApproval(requested.data.approvalId);
    assert.equal(first.deadline?.behavior, 'deny');
    assert.equal(first.deadline?.rule, null);
    // Counted from when the request reached the thread, a moment before the store stamped the approval.
    const after = Date.parse(first.deadline?.at ?? '') - Date.parse(first.createdAt);
    assert.ok(
      after > THIRTY_MINUTES - 5_000 && after <= THIRTY_MINUTES,
      `30 minutes after the ask: ${after} ms`,
    );

    // The thread view shows the deadline it has, and the pending call counts down.
    await page.locator('.deadline-now', { hasText: 'unanswered after 30 minutes are denied' }).waitFor();
    await page.getByRole('link', { name: /Inbox/ }).first().click();
    const card = page.locator(`.approval[data-approval-id="${first.id}"]`);
    const badge = card.locator('.deadline');
    await badge.waitFor();
    assert.match(
      (await badge.textContent()) ?? '',
      /^denied automatically in (29:\d\d|30:00) · the thread’s deadline$/,
    );
    const before = seconds(await badge.locator('time').textContent());
    assert.ok(before > 29 * 60 && before <= 30 * 60, `about 30 minutes left: ${before}s`);
    // It counts down: polled, with a bound that only catches a stopped clock.
    const polling = Date.now();
    while (seconds(await badge.locator('time').textContent()) >= before) {
      assert.ok(Date.now() - polling < 10_000, 'the countdown moves within seconds');
      await page.waitForTimeout(100);
    }
    await photograph(card, 'card-deadline');
    // Taking the picture may scroll the card, which starts its half second on screen again.
    await clickAnswer(card, card.getByRole('button', { name: /Approve once/ }));
    await card.waitFor({ state: 'detached' });
    await warden.waitForEvent((e) => e.type === 'run.ended' && e.threadId === threadId);

    // A shorter deadline set in the thread view applies to the next approval, and denies it.
    await page.locator(`.thread-list a[data-thread-id="${threadId}"]`).click();
    await page.locator('#thread-deadline-after').fill('8');
    await page.locator('#thread-deadline-unit').selectOption('seconds');
    await page.getByRole('button', { name: 'Save deadline' }).click();
    await page.locator('.deadline-now', { hasText: 'unanswered after 8 seconds are denied' }).waitFor();
    assert.equal(warden.supervisor.getThread(threadId).thread.deadlines.afterMs, 8000);

    await page.getByRole('link', { name: /Inbox/ }).first().click();
    await warden.supervisor.send(threadId, '[[late]] make another file');
    const late = page.locator('.approval', { hasText: 'touch late.txt' });
    // The notice shows for seconds only: watched for from before the card goes.
    const noticed = page
      .locator('.toast', { hasText: 'Denied by the deadline: Bash touch late.txt' })
      .waitFor({ timeout: 60_000 });
    noticed.catch(() => undefined); // awaited below; a failure before then is the one reported
    await late.locator('.deadline', { hasText: /^denied automatically in 0:0\d/ }).waitFor();
    await late.waitFor({ state: 'detached', timeout: 30_000 });
    await noticed;

    const decided = (await warden.waitForEvent(
      (e) => e.type === 'approval.decided' && e.data.approvalId !== first.id,
    )) as Extract<SupervisorEvent, { type: 'approval.decided' }>;
    const denied = warden.supervisor.getApproval(decided.data.approvalId);
    assert.equal(denied.status, 'denied');
    assert.equal(denied.decision?.by, 'timeout');
    assert.deepEqual(denied.decision?.decidedBy, { name: 'deadline', via: 'timeout' });
    let ended = 0;
    await warden.waitForEvent((e) => e.type === 'run.ended' && e.threadId === threadId && ++ended === 2);
    assert.equal(existsSync(join(warden.scratch.cwd, 'late.txt')), false, 'the denied command did not run');
    assert.ok(
      warden.mock.requests.some((r) =>
        (r.toolResults ?? []).some((result) =>
          result.text.includes("No one answered in time: denied by the thread's deadline"),
        ),
      ),
      'the model read why',
    );

    await page.locator(`.thread-list a[data-thread-id="${threadId}"]`).click();
    const call = page.locator(`[data-tool-use-id="${denied.toolUseId}"]`);
    await call.locator('.badge.denied', { hasText: 'denied by the deadline' }).waitFor();
  });
});
