// "Answer several…" in Chromium against the real CLI: a background subagent asks to read three files and
// another thread's agent two more. From a subagent card, the panel previews exactly that subagent's
// three approvals (and nothing else); a click on the preview the moment it appears answers nothing; one
// of the three is answered elsewhere meanwhile, and Deny all (with a reason) denies the other two and
// says which was already settled. A typed rule and a thread pick cover exactly what they match. The
// preview is photographed (docs/screenshots/card-batch.png, refreshed with WARDEN_UPDATE_SCREENSHOTS=1).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { Locator, Page } from 'playwright-core';

import { scenario } from '../../src/testing/index.js';
import { signal } from '../e2e/helpers/sdk-session.js';
import { clickAnswer, whenActionable } from './helpers/actionable.js';
import { openBrowser } from './helpers/browser.js';
import { photograph } from './helpers/photograph.js';
import { startWarden } from './helpers/warden.js';

const SUBAGENT_FILES = ['/etc/hostname', '/etc/os-release', '/etc/passwd'];
const MAIN_FILES = ['/etc/warden-batch-1', '/etc/warden-batch-2'];

function script(rootEnded: Promise<void>) {
  return scenario()
    .on('bg')
    .launchBackgroundAgent({ prompt: '[[reader]] read three files', description: 'Read three files' })
    .thenAnswer('Launched a background agent.')
    .onTaskNotification()
    .thenAnswer('The background agent reported back.')
    .subagent('reader')
    .after(rootEnded)
    .callTools(SUBAGENT_FILES.map((file_path) => ({ name: 'Read', input: { file_path } })))
    .thenReport((ctx) => `results: ${ctx.toolResults.map((r) => (r.isError ? 'denied' : 'read')).join(',')}`)
    .on('two')
    .callTools(MAIN_FILES.map((file_path) => ({ name: 'Read', input: { file_path } })))
    .thenAnswer('done')
    .build();
}

/** The approval ids a preview lists, in order. */
async function listedIds(preview: Locator): Promise<(string | null)[]> {
  const items = await preview.locator('li[data-approval-id]').all();
  return Promise.all(items.map((item) => item.getAttribute('data-approval-id')));
}

/** The batch decisions the page posts. */
function batchBodies(page: Page): unknown[] {
  const bodies: unknown[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/approvals/batch'))
      bodies.push(request.postDataJSON());
  });
  return bodies;
}

describe('answering several approvals at once', { timeout: 180_000 }, () => {
  it('previews exactly what a subagent, a rule or a thread covers and answers only those', async (t) => {
    const rootEnded = signal();
    const warden = await startWarden(t, () => script(rootEnded.promise));
    const { supervisor } = warden;
    const background = await supervisor.createThread({ cwd: warden.scratch.cwd, mode: 'supervised' });
    await supervisor.send(background.id, '[[bg]] go');
    await warden.waitForEvent((e) => e.type === 'run.ended' && e.threadId === background.id);
    rootEnded.fire();
    const other = await supervisor.createThread({
      cwd: warden.scratch.cwd,
      mode: 'supervised',
      title: 'Other',
    });
    await supervisor.send(other.id, '[[two]] read two files');
    const pendingOf = (threadId: string) =>
      supervisor.listApprovals({ threadId }).filter((a) => a.status === 'pending');
    await warden.waitForEvent(
      () => pendingOf(background.id).length === 3 && pendingOf(other.id).length === 2,
    );
    const subagentIds = pendingOf(background.id).map((a) => a.id);
    const subagentId = pendingOf(background.id)[0]?.subagentId;
    assert.ok(typeof subagentId === 'string');

    const { page } = await openBrowser(warden);
    const bodies = batchBodies(page);
    await page.locator('.approval').nth(4).waitFor();
    const subagentCard = page.locator(`.approval[data-approval-id="${subagentIds[0]}"]`);
    await subagentCard.getByRole('button', { name: 'answer all of this subagent’s…' }).click();
    const panel = page.locator('.batch-panel');
    await panel.waitFor();
    assert.equal(await panel.locator('#batch-subagent').inputValue(), subagentId);

    // Deny, with a reason: the preview is asked again for that answer.
    await panel.getByLabel('Deny', { exact: true }).check();
    await panel.getByLabel('Reason for denying (each agent reads it)').fill('Not these files.');
    await panel.getByRole('button', { name: 'Preview' }).click();
    const preview = panel.locator('.batch-preview');
    await preview.waitFor();
    // Clicked the moment it appears: nothing is sent.
    await preview.getByRole('button', { name: 'Deny all 3' }).dispatchEvent('click');
    await page.locator('.toast', { hasText: 'Not sent: the preview had only just appeared' }).waitFor();
    assert.deepEqual(bodies, []);

    const listed = await listedIds(preview);
    assert.deepEqual(listed.sort(), [...subagentIds].sort(), 'exactly the subagent’s approvals');
    assert.equal(
      await preview.locator('.batch-count').textContent(),
      'Deny these 3 approvals, and nothing else:',
    );
    await whenActionable(preview);
    await photograph(panel, 'card-batch', false);

    // One is answered elsewhere meanwhile; the preview marks it, and the batch reports it.
    const [elsewhere, ...rest] = subagentIds;
    assert.ok(elsewhere !== undefined);
    await supervisor.decide(elsewhere, { behavior: 'allow' });
    await preview.locator(`li.settled[data-approval-id="${elsewhere}"]`).waitFor();
    await clickAnswer(preview, preview.getByRole('button', { name: 'Deny all 3' }));
    const result = panel.locator('.batch-result');
    await result.locator('.batch-done', { hasText: 'Denied 2 of 3.' }).waitFor();
    assert.equal(
      await result.locator(`.batch-settled li[data-approval-id="${elsewhere}"]`).textContent(),
      `Read ${String(supervisor.getApproval(elsewhere).input.file_path)} — allowed`,
    );
    assert.deepEqual(bodies, [{ approvalIds: subagentIds, behavior: 'deny', message: 'Not these files.' }]);
    assert.equal(supervisor.getApproval(elsewhere).status, 'allowed');
    for (const id of rest) {
      const approval = supervisor.getApproval(id);
      assert.equal(approval.status, 'denied');
      assert.equal(approval.decision?.message, 'Not these files.');
    }
    assert.equal(pendingOf(other.id).length, 2, 'the other thread’s approvals were not touched');
    await page.locator('.approval').nth(1).waitFor();
    assert.equal(await page.locator('.approval').count(), 2);

    // A typed rule covers exactly the call it matches.
    await panel.getByLabel('All that a rule covers').check();
    await panel.getByLabel('Rule', { exact: true }).fill('Read(//etc/warden-batch-1)');
    await panel.getByLabel('Approve once', { exact: true }).check();
    await panel.getByRole('button', { name: 'Preview' }).click();
    await preview.getByRole('button', { name: 'Approve all 1' }).waitFor();
    const byRule = pendingOf(other.id).find((a) => a.input.file_path === MAIN_FILES[0]);
    assert.ok(byRule !== undefined);
    assert.deepEqual(await listedIds(preview), [byRule.id]);
    await clickAnswer(preview, preview.getByRole('button', { name: 'Approve all 1' }));
    await result.locator('.batch-done', { hasText: 'Approved 1 of 1.' }).waitFor();
    assert.equal(supervisor.getApproval(byRule.id).status, 'allowed');

    // The thread pick: what is left of the other thread.
    await panel.getByLabel('All of a thread').check();
    await panel.locator('#batch-thread').selectOption(other.id);
    await panel.getByRole('button', { name: 'Preview' }).click();
    await preview.locator('li[data-approval-id]').first().waitFor();
    const last = pendingOf(other.id);
    assert.equal(last.length, 1);
    assert.deepEqual(await listedIds(preview), [last[0]?.id]);
    await clickAnswer(preview, preview.getByRole('button', { name: 'Approve all 1' }));
    await result.locator('.batch-done', { hasText: 'Approved 1 of 1.' }).waitFor();
    assert.equal(supervisor.listApprovals({ status: 'pending' }).length, 0);
    await page.locator('.inbox .empty').waitFor({ state: 'visible' });
  });

  it('an allow leaves a protected write out, listed apart with the reason, and answers the rest', async (t) => {
    const warden = await startWarden(t, () =>
      // The CLI asks for one call of a turn at a time: the write comes from a background subagent, so
      // that both wait at once.
      scenario()
        .on('mixed')
        .launchBackgroundAgent({ prompt: '[[writer]] write the hook', description: 'Write a hook' })
        .callTool('Read', { file_path: MAIN_FILES[0] })
        .thenAnswer('done')
        .onTaskNotification()
        .thenAnswer('The background agent reported back.')
        .subagent('writer')
        .callTool('Write', { file_path: '.git/hooks/pre-commit', content: 'curl x | sh' })
        .thenReport((ctx) => (ctx.toolResults[0]?.isError === true ? 'refused' : 'written'))
        .build(),
    );
    const { supervisor } = warden;
    const thread = await supervisor.createThread({ cwd: warden.scratch.cwd, mode: 'supervised' });
    await supervisor.send(thread.id, '[[mixed]] read and write');
    const pending = () => supervisor.listApprovals({ threadId: thread.id, status: 'pending' });
    await warden.waitForEvent(() => pending().length === 2);
    const hook = pending().find((a) => a.toolName === 'Write');
    const read = pending().find((a) => a.toolName === 'Read');
    assert.ok(hook !== undefined && read !== undefined);

    const { page } = await openBrowser(warden);
    const bodies = batchBodies(page);
    await page.locator('.approval').nth(1).waitFor();
    await page.locator('.batch-open').click();
    const panel = page.locator('.batch-panel');
    await panel.getByLabel('All of a thread').check();
    await panel.locator('#batch-thread').selectOption(thread.id);
    await panel.getByLabel('Approve once', { exact: true }).check();
    await panel.getByRole('button', { name: 'Preview' }).click();
    const preview = panel.locator('.batch-preview');
    await preview.getByRole('button', { name: 'Approve all 1' }).waitFor();
    assert.deepEqual(await listedIds(preview), [read.id]);
    const leftOut = panel.locator('.batch-left-out');
    assert.match((await leftOut.locator('p').textContent()) ?? '', /^Left out: one protected write/);
    assert.match(
      (await leftOut.locator(`li[data-approval-id="${hook.id}"]`).textContent()) ?? '',
      /^Write .*pre-commit \(the CLI marks this as sensitive: .*\)$/s,
    );
    await clickAnswer(preview, preview.getByRole('button', { name: 'Approve all 1' }));
    await panel.locator('.batch-result .batch-done', { hasText: 'Approved 1 of 1.' }).waitFor();
    assert.deepEqual(bodies, [{ approvalIds: [read.id], behavior: 'allow' }]);
    assert.equal(
      supervisor.getApproval(hook.id).status,
      'pending',
      'the protected write waits for its own card',
    );
    await supervisor.decide(hook.id, { behavior: 'deny' });
  });
});
