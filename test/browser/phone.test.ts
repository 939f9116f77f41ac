// The inbox on a phone: the approval, where it comes from and its three answers fit the screen without
// sideways scrolling, and a tap approves it. The thread view opens on the conversation, its panels one tap
// away in one column.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { clickAnswer } from './helpers/actionable.js';
import { PHONE, openBrowser } from './helpers/browser.js';
import { DEMO_PROMPT, SUBAGENT_DESCRIPTION, demoScript } from './helpers/scenarios.js';
import { signal } from '../e2e/helpers/sdk-session.js';
import { startWarden } from './helpers/warden.js';

test('the inbox is usable on a phone', { timeout: 120_000 }, async (t) => {
  const rootEnded = signal();
  const warden = await startWarden(t, () => demoScript(rootEnded.promise));
  void warden.waitForEvent((e) => e.type === 'run.ended').then(() => rootEnded.fire());
  const thread = await warden.supervisor.createThread({ cwd: warden.scratch.cwd, mode: 'supervised' });
  await warden.supervisor.send(thread.id, DEMO_PROMPT);
  const { page, screenshot } = await openBrowser(warden, { viewport: PHONE, mobile: true });

  const card = page.locator('.approval', { hasText: '/etc/hostname' });
  await card.waitFor();
  await card.locator('.run-state', { hasText: 'run completed' }).waitFor();
  await card.locator('.subagent-tag', { hasText: SUBAGENT_DESCRIPTION }).waitFor();
  await screenshot('phone-inbox');

  const width = await page.evaluate<number>('document.documentElement.clientWidth');
  const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
  assert.ok(scrollWidth <= width, `no sideways scrolling (${scrollWidth} > ${width})`);
  for (const name of [/Approve once/, /Always allow/, /^Deny( d)?$/]) {
    const box = await card.getByRole('button', { name }).boundingBox();
    assert.ok(box !== null, `${String(name)} is shown`);
    assert.ok(box.x >= 0 && box.x + box.width <= width, `${String(name)} fits the screen`);
    assert.ok(box.height >= 44, `${String(name)} is big enough to tap (${box.height}px)`);
  }
  const field = await card.getByLabel('Reason for denying (the agent reads it)').boundingBox();
  assert.ok(field !== null && field.x + field.width <= width, 'the deny message box fits the screen');

  await clickAnswer(card, card.getByRole('button', { name: /Approve once/ }), { tap: true });
  await card.waitFor({ state: 'detached' });
  await page.locator(`.thread-list a[data-thread-id="${thread.id}"]`).tap();
  await page.locator('.timeline .subagent-item.completed').waitFor();
  assert.equal(
    await page.locator('.thread-view .side').isVisible(),
    false,
    'the panels wait behind a button',
  );
  await page.getByRole('button', { name: /^Settings/ }).tap();
  await page.locator('.tree-subagent', { hasText: SUBAGENT_DESCRIPTION }).waitFor();
  const sideBox = await page.locator('.thread-view .side').boundingBox();
  const conversationBox = await page.locator('.thread-view .conversation').boundingBox();
  assert.ok(sideBox !== null && conversationBox !== null);
  assert.ok(
    sideBox.x === conversationBox.x && sideBox.width === conversationBox.width,
    'runs and subagents, once opened, take the width of the conversation: one column',
  );
  assert.ok(
    await page.evaluate<boolean>(
      'document.documentElement.scrollWidth <= document.documentElement.clientWidth',
    ),
    'no sideways scrolling in the thread view',
  );
  await screenshot('phone-thread');
});
