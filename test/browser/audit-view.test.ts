// The audit view in Chromium against the real CLI, after a few decisions — one of them an "always allow"
// the CLI wrote to the project's settings file: reached from the top bar's navigation, it lists the
// records newest first with who decided, through what, and the always-allow's scope and settings file;
// the filters (thread, decider, outcome) are answered by the server and kept in the address; a decider
// the server cannot take is refused with its message; Verify says intact with the record count (and,
// for a broken chain, where it breaks); the Export link downloads the filtered CSV through the login
// session, with the scope columns. On a 390 px phone the records stack as cards, without sideways
// scrolling of the page. The view is photographed (docs/screenshots/audit-view.png, refreshed with
// WARDEN_UPDATE_SCREENSHOTS=1).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import type { Page } from 'playwright-core';

import { CSV_COLUMNS } from '../../src/server/audit-export.js';
import { scenario } from '../../src/testing/index.js';
import { parseCsv } from '../helpers/csv.js';
import { LAPTOP, PHONE, openBrowser } from './helpers/browser.js';
import { photograph } from './helpers/photograph.js';
import { runEnded } from './helpers/threads.js';
import { startWarden, type Warden } from './helpers/warden.js';

const ALICE = { name: 'alice', via: 'web' } as const;
const BOB = { name: 'bob', via: 'api' } as const;

function script() {
  return scenario()
    .on('files')
    .callTool('Bash', { command: 'touch project.txt', description: 'Create a file' })
    .callTool('Bash', { command: 'touch second.txt', description: 'Create another file' })
    .thenAnswer('done')
    .on('read')
    .callTool('Read', { file_path: '/etc/hostname' })
    .thenAnswer('read it')
    .build();
}

/** Resolves with the id of the next approval the thread asks for once it is pending. */
async function nextApproval(warden: Warden, threadId: string, seen: Set<string>): Promise<string> {
  const event = await warden.waitForEvent(
    (e) => e.type === 'approval.requested' && e.threadId === threadId && !seen.has(e.data.approvalId),
  );
  const id = (event as { data: { approvalId: string } }).data.approvalId;
  seen.add(id);
  return id;
}

/** The commands (or paths) of the rows shown, top to bottom. */
async function shown(page: Page): Promise<string[]> {
  return page.locator('.audit-row:not(.genesis) .audit-call .summary').allTextContents();
}

/** The rows shown once the view has the server's answer to the filters `query` (as the address has them). */
async function answered(page: Page, query: string): Promise<string[]> {
  await page.locator(`.audit-table[data-query="${query}"]`).waitFor();
  return shown(page);
}

describe('the audit view', { timeout: 180_000 }, () => {
  it('lists, filters, verifies and exports the decisions, and fits a phone', async (t) => {
    const warden = await startWarden(t, script);
    const { supervisor } = warden;
    const seen = new Set<string>();
    const files = await supervisor.createThread({
      cwd: warden.scratch.cwd,
      mode: 'supervised',
      title: 'Files',
    });
    await supervisor.send(files.id, '[[files]] make two files');
    const always = await nextApproval(warden, files.id, seen);
    await supervisor.decide(always, { behavior: 'allow_always', scope: 'project', decidedBy: ALICE });
    const denied = await nextApproval(warden, files.id, seen);
    await supervisor.decide(denied, { behavior: 'deny', message: 'one is enough', decidedBy: BOB });
    await runEnded(warden, files.id);
    const reads = await supervisor.createThread({
      cwd: warden.scratch.cwd,
      mode: 'supervised',
      title: 'Reads',
    });
    await supervisor.send(reads.id, '[[read]] read the host name');
    await supervisor.decide(await nextApproval(warden, reads.id, seen), {
      behavior: 'allow',
      decidedBy: ALICE,
    });
    await runEnded(warden, reads.id);
    const settings = join(warden.scratch.cwd, '.claude', 'settings.local.json');
    const written = JSON.parse(readFileSync(settings, 'utf8')) as { permissions?: { allow?: string[] } };
    assert.deepEqual(written.permissions?.allow, ['Bash(touch project.txt)'], 'the CLI wrote the rule');

    const laptop = await openBrowser(warden, { viewport: LAPTOP });
    const { page } = laptop;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).click();
    await page.locator('h1', { hasText: 'Audit trail' }).waitFor();
    assert.deepEqual(await answered(page, ''), ['/etc/hostname', 'touch second.txt', 'touch project.txt']);

    // The always-allow: who, through what, for how long and where the rule went.
    const row = page.locator('.audit-row[data-outcome="allow_always"]');
    const cell = (label: string) => row.locator(`td[data-label="${label}"]`);
    assert.equal(await cell('Outcome').textContent(), 'always allowed');
    assert.equal(await cell('Decider').textContent(), 'alice');
    assert.equal(await cell('Via').textContent(), 'web');
    assert.equal(await cell('Thread').textContent(), 'Files');
    const scope = (await cell('Scope / destination').textContent()) ?? '';
    assert.match(scope, /^this project/);
    assert.equal(await row.locator('.settings-file').textContent(), settings);
    assert.match(scope, /written by the CLI to its localSettings file/);
    assert.match(scope, /Bash\(touch project\.txt\)$/);
    const deniedRow = page.locator('.audit-row[data-outcome="deny"]');
    assert.equal(await deniedRow.locator('td[data-label="Scope / destination"]').textContent(), '—');
    assert.equal(await deniedRow.locator('.audit-reason').textContent(), 'one is enough');
    await photograph(page.locator('section.audit'), 'audit-view', false);

    // Filters, answered by the server, kept in the address.
    const outcome = page.getByLabel('Outcome', { exact: true });
    await outcome.selectOption('deny');
    assert.deepEqual(await answered(page, 'outcome=deny'), ['touch second.txt']);
    assert.match(page.url(), /#\/audit\?outcome=deny$/);
    await outcome.selectOption('');
    await page.getByLabel('Thread', { exact: true }).selectOption(reads.id);
    assert.deepEqual(await answered(page, `threadId=${reads.id}`), ['/etc/hostname']);
    await page.getByLabel('Thread', { exact: true }).selectOption('');
    await page.getByLabel('Decider', { exact: true }).fill('bob');
    await page.getByRole('button', { name: 'Filter' }).click();
    assert.deepEqual(await answered(page, 'decider=bob'), ['touch second.txt']);
    await page.getByLabel('Decider', { exact: true }).fill('alice');
    await page.getByRole('button', { name: 'Filter' }).click();
    assert.deepEqual(await answered(page, 'decider=alice'), ['/etc/hostname', 'touch project.txt']);
    // A name the server cannot take: its reason, and no rows that pretend to answer.
    await page.getByLabel('Decider', { exact: true }).fill('Alice!');
    await page.getByRole('button', { name: 'Filter' }).click();
    assert.deepEqual(await answered(page, 'decider=Alice%21'), []);
    const problem = page.locator('.audit-error');
    assert.match(
      (await problem.textContent()) ?? '',
      /^Could not load the records: decider: decider must be/,
    );
    assert.equal(await page.locator('.audit-row').count(), 0);

    // Export: the CSV of the records the filters keep, downloaded through the session.
    await page.getByRole('button', { name: 'Clear' }).click();
    assert.deepEqual(await answered(page, ''), ['/etc/hostname', 'touch second.txt', 'touch project.txt']);
    await outcome.selectOption('allow_always');
    assert.deepEqual(await answered(page, 'outcome=allow_always'), ['touch project.txt']);
    const link = page.getByRole('link', { name: 'Export CSV' });
    assert.equal(await link.getAttribute('href'), '/api/audit?outcome=allow_always&format=csv');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const csv = readFileSync(await download.path(), 'utf8');
    const [header, ...lines] = parseCsv(csv);
    assert.deepEqual(header, [...CSV_COLUMNS]);
    assert.equal(lines.length, 1, 'only the always-allow');
    const field = (name: (typeof CSV_COLUMNS)[number]) => lines[0]?.[CSV_COLUMNS.indexOf(name)];
    assert.equal(field('approval_id'), always);
    assert.equal(field('scope'), 'project');
    assert.equal(field('destination'), 'localSettings');
    assert.equal(field('settings_file'), settings);
    assert.equal(field('decided_by'), 'alice');

    // Verify: intact, with the count the server has.
    const count = supervisor.verifyAudit();
    assert.equal(count.ok, true);
    await page.getByRole('button', { name: 'Verify' }).click();
    const verdict = page.locator('.verdict.intact');
    await verdict.waitFor();
    assert.match(
      (await verdict.textContent()) ?? '',
      new RegExp(
        `^Intact: ${count.records} records, each chained to the one before it\\. The last one's hash is ${count.ok ? count.head : ''}`,
      ),
    );
    // A broken chain (as the server would report a changed record): where it breaks, and what is intact.
    await page.route('**/api/audit/verify', (route) =>
      route.fulfill({
        json: { ok: false, records: 3, seq: 4, problem: 'its content does not match its hash' },
      }),
    );
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.locator('.verdict.broken').waitFor();
    assert.equal(
      await page.locator('.verdict').textContent(),
      'Broken at record 4: its content does not match its hash. Records 1 to 3 are intact.',
    );
    await page.unroute('**/api/audit/verify');

    // A phone: the records stack as labelled cards, and the page does not scroll sideways.
    await laptop.context.close();
    const phone = await openBrowser(warden, { viewport: PHONE, mobile: true });
    await phone.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).tap();
    assert.deepEqual(await answered(phone.page, ''), [
      '/etc/hostname',
      'touch second.txt',
      'touch project.txt',
    ]);
    assert.ok(
      await phone.page.evaluate<boolean>(
        'document.documentElement.scrollWidth <= document.documentElement.clientWidth',
      ),
      'no sideways scrolling on a phone',
    );
    assert.equal(await phone.page.locator('.audit-table thead').isHidden(), true, 'cards, not columns');
    const card = phone.page.locator('.audit-row[data-outcome="allow_always"]');
    const box = await card.boundingBox();
    assert.ok(box !== null && box.x >= 0 && box.x + box.width <= PHONE.width, 'a record fits the screen');
    const path = await card.locator('.settings-file').boundingBox();
    assert.ok(path !== null && path.x + path.width <= PHONE.width, 'the settings path wraps to fit');
    for (const name of ['Verify', 'Filter', 'Clear']) {
      const button = await phone.page.getByRole('button', { name, exact: true }).boundingBox();
      assert.ok(button !== null && button.x + button.width <= PHONE.width, `${name} fits the screen`);
      assert.ok(button.height >= 44, `${name} is big enough to tap`);
    }
    await phone.screenshot('phone-audit-view');
  });
});
