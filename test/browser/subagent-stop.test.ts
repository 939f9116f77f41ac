// Stopping one background subagent from the thread view: its run completed, its approval waits in the
// inbox; the Stop button next to it in the subagent tree ends it, the approval leaves the inbox as
// cancelled, and the CLI's own follow-up turn shows in the conversation.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { signal } from '../e2e/helpers/sdk-session.js';
import { openBrowser } from './helpers/browser.js';
import { DEMO_PROMPT, SUBAGENT_DESCRIPTION, demoScript } from './helpers/scenarios.js';
import { threadWaitingForApproval } from './helpers/threads.js';
import { startWarden } from './helpers/warden.js';

test('stops a background subagent from the subagent tree', { timeout: 120_000 }, async (t) => {
  const rootEnded = signal();
  const warden = await startWarden(t, (scratch) => demoScript(rootEnded.promise, scratch.cwd));
  void warden.waitForEvent((e) => e.type === 'run.ended').then(() => rootEnded.fire());
  const { threadId, approvalId } = await threadWaitingForApproval(warden, DEMO_PROMPT);
  const { page, screenshot } = await openBrowser(warden);
  await page.goto(`${warden.server.url}/#/threads/${threadId}`);

  const subagent = page.locator('.tree-subagent', { hasText: SUBAGENT_DESCRIPTION });
  await subagent.locator('.status.running').waitFor();
  await screenshot('subagent-running');
  await subagent.getByRole('button', { name: /^Stop subagent/ }).click();
  await page.locator('.toast', { hasText: 'Subagent stopped' }).waitFor();
  await subagent.locator('.status.stopped').waitFor();
  assert.equal(
    await subagent.getByRole('button', { name: /^Stop subagent/ }).count(),
    0,
    'no Stop once stopped',
  );

  const approval = warden.supervisor.getApproval(approvalId);
  assert.deepEqual([approval.status, approval.reason], ['cancelled', 'subagent_stopped']);
  await page.locator('.timeline .run-boundary', { hasText: 'after a subagent reported' }).waitFor();
  await page.goto(`${warden.server.url}/#/`);
  await page.locator('.empty', { hasText: 'Nothing is waiting for you' }).waitFor();
  assert.equal(await page.locator('.approvals [data-approval-id]').count(), 0, 'the inbox is empty');
  await screenshot('subagent-stopped');
});
