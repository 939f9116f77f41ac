// `npm start` as a new user meets it, in Chromium: the real `warden demo` process (the real CLI against
// the demo's scripted model), logged in through the link it prints. The demo thread's run completes first,
// saying that its background agent is still working and will ask in a few seconds; only seconds later
// does the subagent's request reach the inbox. Both moments are photographed — these are the README's and
// docs' screenshots (written to docs/screenshots/ with WARDEN_UPDATE_SCREENSHOTS=1) — and at each, the
// page holds no test marker (`[[`) and none of the Agent tool's internal metadata. The two requests are
// approved from the inbox; once the subagent has reported, the agent's question card (answered: NOTES.md),
// its plan card (approved) and the note's Write (approved) come one after the other, and the thread tells
// the rest; Ctrl-C ends the demo and everything it started.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { test } from 'node:test';

import type { Page } from 'playwright-core';

import { DEMO_QUESTION } from '../../src/cli/demo-follow-up.js';
import { DEMO_PACE_MS, DEMO_PROMPT, DEMO_SUBAGENT } from '../../src/cli/demo-scenario.js';
import { createScratch, until } from '../../src/testing/index.js';
import { REPO_ROOT } from '../e2e/helpers/server-command.js';
import { processesUsingHome } from '../e2e/helpers/sdk-session.js';
import { waitForNoProcess } from '../e2e/helpers/supervisor-session.js';
import { openBrowser } from './helpers/browser.js';
import { clickAnswer } from './helpers/actionable.js';

test(
  'npm start: the run completes, then — seconds later — the subagent asks',
  { timeout: 240_000 },
  async (t) => {
    const scratch = createScratch('warden-npm-start-');
    const first: (() => Promise<void>)[] = [];
    const npm = spawn('npm', ['start', '--silent'], {
      cwd: REPO_ROOT,
      // The system's TMPDIR, as a new user has it: the screenshots show the demo's folder as they would.
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: scratch.home, TMPDIR: tmpdir() },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const output = { stdout: '', stderr: '' };
    npm.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString('utf8')));
    npm.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString('utf8')));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      npm.on('close', (code, signal) => resolve({ code, signal })),
    );
    t.after(async () => {
      try {
        for (const fn of first.reverse()) await fn();
      } finally {
        if (npm.exitCode === null && npm.signalCode === null) process.kill(-npm.pid!, 'SIGKILL');
        scratch.cleanup();
      }
    });

    const printed = await until(
      () => {
        const link = /(http:\/\/127\.0\.0\.1:\d+\/login#\S+)/.exec(output.stdout)?.[1];
        const threadId = /^Demo thread (\S+): /m.exec(output.stdout)?.[1];
        return link !== undefined && threadId !== undefined ? { link, threadId } : undefined;
      },
      {
        what: () => `the login link and the demo thread (stdout: ${output.stdout}, stderr: ${output.stderr})`,
        timeoutMs: 120_000,
      },
    );
    const demoRoot = join(/^Data: (\S+)/m.exec(output.stdout)?.[1] ?? '', '..');
    assert.ok(basename(demoRoot).startsWith('warden-demo-'), output.stdout);
    t.after(() => rmSync(demoRoot, { recursive: true, force: true }));
    const host = {
      scratch,
      beforeClose: (fn: () => Promise<void>) => first.push(fn),
      server: { loginLink: () => printed.link },
    };
    const { page, screenshot } = await openBrowser(host, { link: printed.link });

    // The moment the run completed: the agent's last words say the subagent will ask soon; nothing asks yet.
    await page.locator(`.thread-list a[data-thread-id="${printed.threadId}"]`).click();
    const timeline = page.locator('.timeline');
    await timeline.locator('.run-boundary.completed').first().waitFor();
    await timeline.getByText('The background agent is still working; it will ask in a few seconds').waitFor();
    const completedSeen = Date.now();
    await timeline.getByText(DEMO_PROMPT).waitFor();
    assert.equal(await pendingApprovals(page), 0, 'nothing asks yet when the run has completed');
    await assertCleanPage(page);
    saveForDocs('thread', await screenshot('npm-start-run-completed'));

    // Seconds later, the subagent's request arrives in the inbox.
    await page.getByRole('link', { name: /^Inbox/ }).click();
    const card = page.locator('.approval', { hasText: '/etc/hostname' });
    await card.waitFor({ timeout: 60_000 });
    const askSeen = Date.now();
    assert.match((await card.locator('.run-state').textContent()) ?? '', /run completed/);
    assert.match((await card.locator('.subagent-tag').textContent()) ?? '', new RegExp(DEMO_SUBAGENT));
    await assertCleanPage(page);
    saveForDocs('inbox', await screenshot('npm-start-inbox'));
    const gapMs = askSeen - completedSeen;
    process.stdout.write(
      `# run completed → subagent asks, as seen in the page: ${gapMs} ms (pace ${DEMO_PACE_MS} ms)\n`,
    );
    assert.ok(gapMs >= DEMO_PACE_MS / 2, `the ask came ${gapMs} ms after the run completed was shown`);

    // The same moment in the thread: the subagent's call waits for a person.
    await page.locator(`.thread-list a[data-thread-id="${printed.threadId}"]`).click();
    await timeline.locator('.item.tool-call', { hasText: '/etc/hostname' }).waitFor();
    await assertCleanPage(page);
    saveForDocs('demo-subagent-asks', await screenshot('npm-start-subagent-asks'));

    // Approve both requests from the inbox; the subagent reports and the CLI's own turn follows.
    await page.getByRole('link', { name: /^Inbox/ }).click();
    await clickAnswer(card, card.getByRole('button', { name: /Approve once/ }));
    const bash = page.locator('.approval', { hasText: 'cat /etc/os-release' });
    await clickAnswer(bash, bash.getByRole('button', { name: /Approve once/ }));
    await card.waitFor({ state: 'detached' });
    await bash.waitFor({ state: 'detached' });
    const answeredAt = Date.now();

    // Once the subagent has reported, the agent asks where to write down what it found: the question card.
    const question = page.locator('.approval.question-approval');
    await question.waitFor({ timeout: 60_000 }).catch((error: unknown) => {
      throw new Error(`no question came; the terminal said:\n${output.stdout}`, { cause: error });
    });
    await question.getByText(DEMO_QUESTION).waitFor();
    // Paced like the first ask: the report is seen to arrive first, the question seconds later.
    const questionGapMs = Date.now() - answeredAt;
    process.stdout.write(
      `# last approval answered → question, as seen in the page: ${questionGapMs} ms (pace ${DEMO_PACE_MS} ms)\n`,
    );
    assert.ok(questionGapMs >= DEMO_PACE_MS / 2, `the question came ${questionGapMs} ms after the answer`);
    assert.equal(await question.getByRole('radio').count(), 3, 'HOST.md, NOTES.md, or your own answer');
    await assertCleanPage(page);
    await question.getByLabel('NOTES.md').check();
    await clickAnswer(question, question.getByRole('button', { name: 'Send answers' }));
    await question.waitFor({ state: 'detached' });

    // Its plan, drawn from Markdown, shaped by the answer: the plan card, approved.
    const plan = page.locator('.approval.plan-approval');
    await plan.locator('.plan-text h1', { hasText: 'Write down which machine this is' }).waitFor();
    assert.match(
      (await plan.locator('.plan-text').textContent()) ?? '',
      /Create NOTES\.md in the project folder/,
    );
    await assertCleanPage(page);
    await clickAnswer(plan, plan.getByRole('button', { name: /Approve plan/ }));
    await plan.waitFor({ state: 'detached' });

    // The plan done: the note is written, which supervised mode asks about too.
    const write = page.locator('.approval.tool-approval', { hasText: 'NOTES.md' });
    await clickAnswer(write, write.getByRole('button', { name: /Approve once/ }));
    await write.waitFor({ state: 'detached' });

    await page.locator(`.thread-list a[data-thread-id="${printed.threadId}"]`).click();
    await timeline
      .getByText('NOTES.md is written: This machine runs')
      .waitFor({ timeout: 60_000 })
      .catch((error: unknown) => {
        throw new Error(`the CLI's own turn did not end; the terminal said:\n${output.stdout}`, {
          cause: error,
        });
      });
    await timeline.getByText('The background agent has reported back').waitFor();
    await timeline.locator('.decision-detail.answers', { hasText: 'NOTES.md' }).waitFor();
    await assertCleanPage(page);
    saveForDocs('demo-thread-done', await screenshot('npm-start-thread-done'));

    // The terminal told the same story.
    assert.match(
      output.stdout,
      /• the agent's run completed; the background agent is still working: it will ask (in a few seconds|a few seconds after you open the link)/,
    );
    for (const line of [
      '• approval pending: Read: /etc/hostname',
      '• approval pending: Bash: cat /etc/os-release',
      '• subagent completed: Done. This machine runs',
      `• the agent asks you: ${DEMO_QUESTION} (HOST.md / NOTES.md)`,
      '  answered: allow (NOTES.md)',
      '• the agent’s plan waits for your approval',
      '• approval pending: Write: ',
    ])
      assert.ok(output.stdout.includes(line), `the terminal says ${JSON.stringify(line)}:\n${output.stdout}`);
    assert.ok(!output.stdout.includes('[['), 'no test marker in the terminal either');

    // Ctrl-C: the demo removes everything it started.
    for (const fn of first.splice(0).reverse()) await fn();
    process.kill(-npm.pid!, 'SIGINT');
    // npm passes the signal on and ends by it; the demo under it exits 0 once it has cleaned up.
    const { code, signal } = await exited;
    assert.ok(code === 0 || signal === 'SIGINT', `${String(code)} ${String(signal)}: ${output.stderr}`);
    assert.match(output.stderr, /stopping the demo/);
    assert.equal(existsSync(demoRoot), false, 'the demo removed its temporary directory');
    await waitForNoProcess(join(demoRoot, 'home'));
    assert.deepEqual(processesUsingHome(join(demoRoot, 'home')), [], 'no CLI process is left');
  },
);

/** No test marker and none of the Agent tool's internal metadata anywhere in the page, hidden parts too. */
async function assertCleanPage(page: Page): Promise<void> {
  const html = await page.content();
  assert.ok(!html.includes('[['), 'no [[marker]] on the page');
  assert.doesNotMatch(html, /internal metadata/i, 'none of the Agent tool’s internal metadata on the page');
  assert.doesNotMatch(html, /agentId:/, 'no agent id note on the page');
}

/** Pending approvals as the page's own session sees them. */
function pendingApprovals(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const response = await fetch('/api/approvals?status=pending');
    const body = (await response.json()) as { approvals: unknown[] };
    return body.approvals.length;
  });
}

/** Refreshes the README's and docs' screenshots when WARDEN_UPDATE_SCREENSHOTS=1. */
function saveForDocs(name: string, path: string): void {
  if (process.env.WARDEN_UPDATE_SCREENSHOTS !== '1') return;
  mkdirSync(join(REPO_ROOT, 'docs', 'screenshots'), { recursive: true });
  copyFileSync(path, join(REPO_ROOT, 'docs', 'screenshots', `${name}.png`));
}
