// The thread view's own controls: answering an approval inline in the conversation, switching the mode,
// sending the next message from the box, and stopping the CLI; a thread parked while idle, resumed from
// the box.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { clickAnswer } from './helpers/actionable.js';
import { openBrowser } from './helpers/browser.js';
import { writeScript } from './helpers/scenarios.js';
import { runEnded, threadWaitingForApproval } from './helpers/threads.js';
import { startWarden } from './helpers/warden.js';

test(
  'approves inline, switches the mode, sends a message and stops the thread',
  { timeout: 120_000 },
  async (t) => {
    const warden = await startWarden(t, () => writeScript(['one', 'two']));
    const { threadId, approvalId } = await threadWaitingForApproval(warden, '[[one]] make a file');
    const { page } = await openBrowser(warden);
    await page.goto(`${warden.server.url}/#/threads/${threadId}`);

    const timeline = page.locator('.timeline');
    const first = timeline.locator('.item.tool-call', { hasText: 'touch one.txt' });
    await first.locator('.badge.pending').waitFor();
    await clickAnswer(
      first.locator('.pending-approval'),
      first.getByRole('button', { name: /Always allow/ }),
    );
    await first.locator('.badge.allowed', { hasText: 'always allowed by you' }).waitFor();
    await runEnded(warden, threadId);
    assert.equal(warden.supervisor.getApproval(approvalId).decision?.behavior, 'allow_always');

    await page.getByLabel('Full access').check();
    await page.locator('.toast', { hasText: 'Mode: Full access' }).waitFor();
    assert.equal(warden.supervisor.getThread(threadId).thread.mode, 'full-access');

    await page.getByLabel('Message').fill('[[two]] and one more');
    await page.getByRole('button', { name: 'Send' }).click();
    // The routing marker is left out of what the page shows.
    await timeline.locator('.message.user', { hasText: /^You\s*and one more$/ }).waitFor();
    const second = timeline.locator('.item.tool-call', { hasText: 'touch two.txt' });
    await second.locator('details.result').waitFor();
    assert.equal(await second.locator('.badge.pending').count(), 0, 'full access did not ask');
    await timeline.locator('.run-boundary').nth(1).locator('.status.completed').waitFor();
    assert.equal(warden.supervisor.listApprovals({ threadId }).length, 1, 'only the first call asked');

    await page.getByRole('button', { name: 'Stop' }).click();
    await page.locator('.thread-status', { hasText: 'no CLI running' }).waitFor();
    assert.equal(warden.supervisor.getThread(threadId).thread.status, 'idle');
    assert.equal(await page.getByRole('button', { name: 'Interrupt' }).isDisabled(), true);
  },
);

test(
  'shows a thread parked while idle, and resumes it from the message box',
  { timeout: 120_000 },
  async (t) => {
    const warden = await startWarden(t, () => writeScript(['one', 'two']), { idleParkMs: 1000 });
    const thread = await warden.supervisor.createThread({ cwd: warden.scratch.cwd, mode: 'full-access' });
    await warden.supervisor.send(thread.id, '[[one]] make a file');
    const { page } = await openBrowser(warden);
    await page.goto(`${warden.server.url}/#/threads/${thread.id}`);
    await warden.waitForEvent((e) => e.type === 'thread.parked' && e.threadId === thread.id);

    await page.locator('.thread-status', { hasText: 'parked' }).waitFor();
    await page
      .locator(`.thread-list a[data-thread-id="${thread.id}"] .dot.parked`)
      .waitFor({ state: 'attached' });
    assert.equal(await page.getByRole('button', { name: 'Stop' }).isDisabled(), true);

    await page.getByLabel('Message').fill('[[two]] and one more');
    await page.getByRole('button', { name: 'Send' }).click();
    const resumed = await warden.waitForEvent(
      (e) => e.type === 'session.started' && e.threadId === thread.id && e.data.generation === 2,
    );
    assert.ok(resumed.type === 'session.started' && resumed.data.resume !== null, 'the session is resumed');
    await page.locator('.timeline .run-boundary').nth(1).locator('.status.completed').waitFor();
  },
);
