// The thread view at the widths people use: on a laptop (1280, 1366 and 1440 wide) the page never scrolls
// sideways and the side column, the deadline form with it, lies inside the window; at 1024 and on a
// 390×844 phone the conversation comes first (on the phone's first screen), and the mode, the runs, the
// rules and the deadline open from a Settings button, by keyboard as by touch.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';

import type { Page } from 'playwright-core';

import { decisionsScript, ASKED_COMMAND } from '../e2e/helpers/decisions-scripts.js';
import { PHONE, PICTURE_STYLE, SCREENSHOTS, openBrowser } from './helpers/browser.js';
import { assertInsideWidth, assertNoSidewaysScroll, outOfWidth } from './helpers/layout.js';
import { threadWaitingForApproval } from './helpers/threads.js';
import { startWarden } from './helpers/warden.js';

const LAPTOPS = [
  { width: 1280, height: 800 },
  { width: 1366, height: 768 },
  { width: 1440, height: 900 },
];
const DEADLINE = { afterMs: 30 * 60_000, rules: [] };

test('the thread view fits a laptop window 1280, 1366 and 1440 wide', { timeout: 120_000 }, async (t) => {
  const warden = await startWarden(t, () => decisionsScript());
  const { threadId } = await threadWaitingForApproval(warden, '[[edit]] make a file');
  await warden.supervisor.setDeadlines(threadId, DEADLINE);
  const { page, screenshot } = await openBrowser(warden, { viewport: LAPTOPS[0]! });
  await page.goto(`${warden.server.url}/#/threads/${threadId}`);
  const call = page.locator('.timeline .item.tool-call', { hasText: ASKED_COMMAND });
  await call.locator('.pending-approval').waitFor();
  await page.locator('.deadline-now', { hasText: 'after 30 minutes are denied' }).waitFor();

  for (const viewport of LAPTOPS) {
    await page.setViewportSize(viewport);
    const at = `${viewport.width}×${viewport.height}`;
    await assertNoSidewaysScroll(page, at);
    await assertInsideWidth(page.locator('.thread-view'), `${at}: the thread view`);
    const form = page.locator('form.thread-deadline');
    assert.equal(await form.isVisible(), true, `${at}: the deadline form is shown beside the conversation`);
    assert.deepEqual(await outOfWidth(form), [], `${at}: the deadline form and all of it`);
    assert.deepEqual(await outOfWidth(page.locator('.thread-view')), [], `${at}: all of the thread view`);
    // Wide enough for the side column: no Settings button, the mode in the header.
    assert.equal(await page.locator('.settings-toggle').isVisible(), false, `${at}: no Settings button`);
    assert.equal(await page.locator('.mode-switch').isVisible(), true, `${at}: the mode switch is shown`);
    const side = await page.locator('.thread-view .side').boundingBox();
    const conversation = await page.locator('.thread-view .conversation').boundingBox();
    assert.ok(side !== null && conversation !== null);
    const reason = await call.getByLabel('Reason for denying (the agent reads it)').boundingBox();
    assert.ok(reason !== null && reason.width >= 300, `${at}: the deny reason has room (${reason?.width}px)`);
    await screenshot(`layout-thread-${viewport.width}`);
    assert.ok(
      side.x > conversation.x + conversation.width,
      `${at}: the side column is beside the conversation`,
    );
  }

  // A small laptop or a tablet, 1024 wide: the conversation first, the settings behind their button.
  await page.setViewportSize({ width: 1024, height: 768 });
  const toggle = page.getByRole('button', { name: /^Settings/ });
  assert.equal(await page.locator('.thread-view .side').isVisible(), false, '1024: the settings wait');
  await toggle.click();
  assert.equal(await page.locator('.thread-view .side').isVisible(), true, '1024: and open');
  await assertNoSidewaysScroll(page, '1024, the settings open');
  assert.deepEqual(await outOfWidth(page.locator('.thread-view')), [], '1024: all of the thread view');
  await screenshot('layout-thread-1024');
  await toggle.click();

  // The inbox at the same widths.
  await page.goto(`${warden.server.url}/#/`);
  await page.locator('.approval', { hasText: ASKED_COMMAND }).waitFor();
  for (const viewport of LAPTOPS) {
    await page.setViewportSize(viewport);
    await assertNoSidewaysScroll(page, `the inbox at ${viewport.width}`);
  }
});

test(
  'on a phone the conversation comes first; the settings open from a button',
  { timeout: 120_000 },
  async (t) => {
    const warden = await startWarden(t, () => decisionsScript());
    const { threadId } = await threadWaitingForApproval(warden, '[[edit]] make a file');
    await warden.supervisor.setDeadlines(threadId, DEADLINE);
    const { page } = await openBrowser(warden, { viewport: PHONE, mobile: true });
    await page.goto(`${warden.server.url}/#/threads/${threadId}`);
    const timeline = page.locator('.timeline');
    await timeline.locator('.item.tool-call .pending-approval').waitFor();
    await page.evaluate('window.scrollTo(0, 0)');

    await assertNoSidewaysScroll(page, 'the thread on a phone');
    assert.deepEqual(await outOfWidth(page.locator('.thread-view')), [], 'all of the thread view on a phone');
    // The top bar's icon buttons keep their size beside four sections (a touch target, not a sliver).
    for (const icon of await page.locator('.topbar .icon:visible').all()) {
      const box = await icon.boundingBox();
      assert.ok(
        box !== null && box.width >= 36,
        `${await icon.getAttribute('aria-label')} is ${box?.width} px wide`,
      );
    }
    // The conversation begins on the first screen: its first entry is in view before any scrolling.
    const first = await timeline.locator(':scope > li').first().boundingBox();
    assert.ok(first !== null);
    assert.ok(first.y + 40 <= PHONE.height, `the conversation starts on the first screen (at ${first.y}px)`);
    const toggle = page.getByRole('button', { name: /^Settings/ });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.match((await toggle.textContent()) ?? '', /Supervised/, 'the button says the mode');
    for (const hidden of ['.thread-view .side', '.mode-switch', 'form.thread-deadline'])
      assert.equal(await page.locator(hidden).isVisible(), false, `${hidden} waits behind the button`);
    await picture(page, 'layout-phone-thread');

    // By keyboard: the button opens the settings just above the conversation, and closes them again.
    await toggle.focus();
    await page.keyboard.press('Enter');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    const form = page.locator('form.thread-deadline');
    await form.waitFor();
    for (const shown of ['.thread-view .side', '.mode-switch'])
      assert.equal(await page.locator(shown).isVisible(), true, `${shown} is shown once opened`);
    assert.deepEqual(await outOfWidth(page.locator('.thread-view')), [], 'the opened settings fit the phone');
    await assertInsideWidth(form, 'the deadline form on a phone');
    await assertNoSidewaysScroll(page, 'the thread on a phone, settings open');
    const side = await page.locator('.thread-view .side').boundingBox();
    const conversation = await page.locator('.thread-view .conversation').boundingBox();
    assert.ok(side !== null && conversation !== null);
    assert.ok(side.y < conversation.y, 'the opened settings sit between the button and the conversation');
    const toggleBox = await toggle.boundingBox();
    assert.ok(toggleBox !== null && toggleBox.y < side.y, 'under the button that opened them');
    await picture(page, 'layout-phone-thread-settings');

    // Tab goes from the button through Interrupt and Stop into the opened settings, as they are shown.
    const inSettings = "document.activeElement.closest('.side') !== null";
    for (let tabs = 0; tabs < 3 && !(await page.evaluate<boolean>(inSettings)); tabs += 1)
      await page.keyboard.press('Tab');
    assert.equal(await page.evaluate<boolean>(inSettings), true, 'Tab reaches the settings next');
    assert.equal(
      await page.evaluate<string>('document.activeElement.value'),
      'supervised',
      'the mode switch comes first in them',
    );

    // The mode changes from there, as on a laptop.
    await page.locator('.mode-switch label', { hasText: 'Full access' }).tap();
    await page.locator('.toast', { hasText: 'Mode: Full access' }).waitFor();
    assert.equal(warden.supervisor.getThread(threadId).thread.mode, 'full-access');
    assert.match((await toggle.textContent()) ?? '', /Full access/);

    await toggle.focus();
    await page.keyboard.press('Space');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.equal(await page.locator('.thread-view .side').isVisible(), false, 'closed again');
  },
);

/**
 * What the phone's screen shows now, in test-results (a full-page picture would resize the page and lose
 * the touch screen's look).
 */
async function picture(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), style: PICTURE_STYLE });
}
