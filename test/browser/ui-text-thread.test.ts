// Threads people can tell apart and text as people read it, in real Chromium against the real CLI: the
// new-thread form takes the cursor; the thread is named by its first prompt (sidebar, header, card) and
// renamed in place; the header tells a running turn from a ready CLI; the card's link opens the thread at
// its call, marked; model text is Markdown; test markers and the Agent tool's internal metadata never
// reach the page; a subagent's report comes after its steps, its steps under one header; each run shows
// its model, cost and tokens; a notice never covers the message box.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { Page } from 'playwright-core';

import { scenario } from '../../src/testing/index.js';
import { signal } from '../e2e/helpers/sdk-session.js';
import { openBrowser } from './helpers/browser.js';
import { startWarden } from './helpers/warden.js';

const PROMPT = '[[bg]] Check this machine\nThen tell me what you found.';
const TITLE = 'Check this machine';

/** Whether two elements' boxes overlap on screen (evaluated in the page). */
function overlap(page: Page, a: string, b: string): Promise<boolean> {
  return page.evaluate<boolean>(`(() => {
    const r1 = document.querySelector(${JSON.stringify(a)})?.getBoundingClientRect();
    const r2 = document.querySelector(${JSON.stringify(b)})?.getBoundingClientRect();
    if (!r1 || !r2 || r1.height === 0 || r2.height === 0) return false;
    return r1.left < r2.right && r2.left < r1.right && r1.top < r2.bottom && r2.top < r1.bottom;
  })()`);
}

/** Whether the element is at least partly inside the viewport (evaluated in the page). */
function inViewport(page: Page, selector: string): Promise<boolean> {
  return page.evaluate<boolean>(`(() => {
    const box = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect();
    return box.top < window.innerHeight && box.bottom > 0;
  })()`);
}

test('a thread as a person reads it', { timeout: 180_000 }, async (t) => {
  const launched = signal();
  const rootEnded = signal();
  const warden = await startWarden(t, () =>
    scenario()
      .on('bg')
      .launchBackgroundAgent({ prompt: '[[sub]] Read the host name', description: 'Inspect host' })
      .after(launched.promise)
      .thenAnswer('**Started** a `background` agent:\n\n- it reads the host name\n- it reports back')
      .onTaskNotification()
      .thenAnswer('The agent reported: *all good*.')
      .subagent('sub')
      .after(rootEnded.promise)
      .callTool('Read', { file_path: '/etc/hostname' })
      .thenReport('## Host\nThe host is **inspected**.')
      .build(),
  );
  void warden.waitForEvent((e) => e.type === 'run.ended').then(() => rootEnded.fire());
  const { page, screenshot } = await openBrowser(warden);

  // The form takes the cursor when it opens.
  await page.goto(`${warden.server.url}/#/new`);
  await page.locator('#new-cwd:focus').waitFor();
  await page.locator('#new-cwd').fill(warden.scratch.cwd);
  await page.locator('#new-prompt').fill(PROMPT);
  await page.getByRole('button', { name: 'Start thread' }).click();

  // Named by its first prompt's first line, markers left out; the turn is running.
  await page.locator('#thread-heading', { hasText: TITLE }).waitFor();
  await page.locator('.thread-status[data-activity="working"]', { hasText: 'working' }).waitFor();
  await page.locator('.thread-list .name', { hasText: TITLE }).waitFor();
  launched.fire();
  const timeline = page.locator('.timeline');
  await page.locator('.thread-status[data-activity="ready"]', { hasText: 'idle, CLI ready' }).waitFor();
  assert.equal(
    await timeline.locator('.message.user .text').textContent(),
    'Check this machine\nThen tell me what you found.',
    'the marker is not shown',
  );
  // Markdown, drawn as elements.
  const answer = timeline.locator('.message.assistant .markdown').first();
  await answer.locator('strong', { hasText: 'Started' }).waitFor();
  assert.equal(await answer.locator('code').textContent(), 'background');
  assert.equal(await answer.locator('li').count(), 2);
  // The launch's tool result is the CLI's note to the model: the person gets a sentence instead.
  const agentCall = timeline.locator('.tool-call', { has: page.locator('.tool', { hasText: 'Agent' }) });
  await agentCall.locator('.result-note', { hasText: 'Started in the background' }).waitFor();

  // The card: from thread <title>, linked to its call.
  const requested = await warden.waitForEvent((e) => e.type === 'approval.requested');
  assert.equal(requested.type, 'approval.requested');
  await page.goto(`${warden.server.url}/#/`);
  const card = page.locator(`li.approval[data-approval-id="${requested.data.approvalId}"]`);
  await card.locator('.thread-link', { hasText: TITLE }).waitFor();
  assert.match((await card.textContent()) ?? '', /from thread Check this machine/);
  await card.locator('.thread-link').click();
  const call = page.locator(`#call-${requested.data.toolUseId}`);
  await call.and(page.locator('.highlighted')).waitFor();
  assert.ok(await call.isVisible());
  assert.ok(await inViewport(page, `#call-${requested.data.toolUseId}`), 'scrolled to the call');
  await page.locator('.thread-status', { hasText: 'a background subagent works' }).waitFor();

  await warden.supervisor.decide(requested.data.approvalId, { behavior: 'allow' });
  const report = timeline.locator('.subagent-report.completed');
  await report.locator('.markdown h2', { hasText: 'Host' }).waitFor();
  await timeline.locator('.message.assistant em', { hasText: 'all good' }).waitFor();

  // In the order things happened: the subagent's start, its steps under one header, its report after.
  const order = await timeline
    .locator(':scope > li')
    .evaluateAll((items) =>
      items.map((li) =>
        li.classList.contains('subagent-item')
          ? 'start'
          : li.classList.contains('subagent-group')
            ? 'group'
            : li.classList.contains('subagent-report')
              ? 'report'
              : li.classList.contains('from-subagent')
                ? 'step'
                : 'main',
      ),
    );
  const steps = order.flatMap((kind, i) => (kind === 'step' ? [i] : []));
  assert.ok(steps.length >= 1, `the subagent's steps are shown: ${order.join(' ')}`);
  assert.ok(order.indexOf('report') > Math.max(...steps), `report after the steps: ${order.join(' ')}`);
  assert.ok(order.indexOf('start') < Math.min(...steps), `start before the steps: ${order.join(' ')}`);
  for (const i of steps)
    assert.ok(
      ['group', 'start', 'step'].includes(order[i - 1]!),
      `each stretch has a header: ${order.join(' ')}`,
    );
  assert.equal(await timeline.locator('.from-subagent .who').count(), 0, 'no label on each item');

  // Each completed run: its model, cost and tokens.
  const usage = timeline.locator('.run-boundary .run-usage');
  await usage.nth(1).waitFor();
  const first = (await usage.first().textContent()) ?? '';
  assert.match(
    first,
    /claude-[\w.-]+ · \$\d+\.\d{4} · [\d,]+ in · [\d,]+ out · [\d,]+ cache read · [\d,]+ cache write/,
  );

  // Nothing meant for the model or the mock.
  const text = await page.locator('body').innerText();
  assert.doesNotMatch(text, /\[\[/);
  assert.doesNotMatch(text, /internal metadata|agentId|<usage>|output_file/i);

  // Renamed in place; the sidebar follows; a notice never covers the message box.
  await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
  await page.getByRole('button', { name: 'Rename' }).click();
  await page.locator('#thread-title-input:focus').waitFor();
  await page.locator('#thread-title-input').fill('Host check');
  await page.keyboard.press('Enter');
  await page.locator('#thread-heading', { hasText: 'Host check' }).waitFor();
  await page.locator('.thread-list .name', { hasText: 'Host check' }).waitFor();
  await page.locator('.toast', { hasText: 'Renamed' }).waitFor();
  assert.equal(warden.supervisor.getThread(requested.threadId).thread.title, 'Host check');
  assert.equal(await overlap(page, '#toasts', 'form.composer'), false, 'the notice is clear of the composer');
  await screenshot('ui-text-thread');
  for (const y of [0, 400, 100_000]) {
    await page.evaluate(`window.scrollTo(0, ${y})`);
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => resolve()))');
    assert.equal(await overlap(page, '#toasts', 'form.composer'), false, `clear of the composer at y=${y}`);
  }
});
