// One inbox for both agents, in Chromium: a Claude Code thread and a Codex thread each wait on a Bash
// approval at once; the Codex card says Codex; Approve once on it runs the command through the real Codex
// app-server. Its file change comes next: the card shows every file with its diff, and denied there with a
// reason nothing is written and the model reads why; the turn completes while the Claude card still waits.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { CODEX_TEST_MODEL } from '../../src/agents/codex/index.js';
import { offlineCodexEnv, poll, scenario, startMockResponses } from '../../src/testing/index.js';
import { clickAnswer } from './helpers/actionable.js';
import { openBrowser } from './helpers/browser.js';
import { startWarden } from './helpers/warden.js';

const CODEX_COMMAND = 'echo from-codex > codex.txt';
const CLAUDE_COMMAND = 'touch from-claude';
const PATCH =
  '*** Begin Patch\n*** Add File: added.txt\n+a new line\n' +
  '*** Update File: keeper.txt\n@@\n kept\n-old line\n+new line\n*** End Patch\n';
const REASON = 'Leave keeper.txt as it is.';

void test(
  'a Claude thread and a Codex thread in one inbox; the Codex command approved there runs, its change denied',
  { timeout: 120_000 },
  async (t) => {
    const seen: string[] = [];
    const responses = await startMockResponses({
      script: (ctx) => {
        seen.push(ctx.turnText);
        if (ctx.turnMarker !== 'go') return null;
        if (ctx.turnRounds === 0) return { items: [{ type: 'exec', cmd: CODEX_COMMAND }] };
        if (ctx.turnRounds === 1) return { items: [{ type: 'patch', patch: PATCH }] };
        return { items: [{ type: 'text', text: 'Codex left keeper.txt alone.' }] };
      },
    });
    t.after(() => responses.close());
    const warden = await startWarden(
      t,
      () =>
        scenario()
          .on('claude')
          .callTool('Bash', { command: CLAUDE_COMMAND, description: 'Make the file' })
          .thenAnswer('made')
          .build(),
      {
        codex: (scratch) => ({
          env: offlineCodexEnv({
            codexHome: scratch.home,
            home: scratch.home,
            tmpdir: scratch.tmpdir,
            provider: { baseUrl: responses.url, model: CODEX_TEST_MODEL },
          }),
        }),
      },
    );
    const { supervisor, scratch } = warden;
    writeFileSync(join(scratch.cwd, 'keeper.txt'), 'kept\nold line\n');
    const claude = await supervisor.createThread({
      cwd: scratch.cwd,
      mode: 'supervised',
      title: 'Claude thread',
    });
    await supervisor.send(claude.id, '[[claude]] make a file');
    const codex = await supervisor.createThread({
      cwd: scratch.cwd,
      mode: 'supervised',
      agent: 'codex',
      title: 'Codex thread',
    });
    await supervisor.send(codex.id, '[[go]] write a file');

    const { page, screenshot } = await openBrowser(warden);
    const codexCard = page.locator('.approval', { hasText: 'from-codex' });
    const claudeCard = page.locator('.approval', { hasText: CLAUDE_COMMAND });
    await codexCard.waitFor();
    await claudeCard.waitFor();
    assert.match(
      (await codexCard.textContent()) ?? '',
      /Codex thread \(Codex\)/u,
      'the card names its agent',
    );
    assert.doesNotMatch((await claudeCard.textContent()) ?? '', /\(Codex\)/u);
    assert.equal(await codexCard.getByText('Edit before approving').count(), 0, 'no editor for Codex');
    await page.locator('.thread-list .agent', { hasText: 'Codex' }).waitFor();
    await screenshot('inbox-claude-and-codex');

    await clickAnswer(codexCard, codexCard.getByRole('button', { name: /Approve once/u }));
    await codexCard.waitFor({ state: 'detached' });
    await poll(() => existsSync(join(scratch.cwd, 'codex.txt')), { what: 'the Codex command ran' });
    assert.equal(readFileSync(join(scratch.cwd, 'codex.txt'), 'utf8'), 'from-codex\n');

    const changeCard = page.locator('.approval', { hasText: 'changed: ' });
    await changeCard.waitFor();
    const shown = (await changeCard.textContent()) ?? '';
    for (const text of ['new file ', 'added.txt', 'a new line', 'keeper.txt', '-old line', '+new line'])
      assert.ok(shown.includes(text), `the card shows ${text}`);
    await changeCard.locator('.diff .del', { hasText: 'old line' }).waitFor();
    assert.equal(
      await changeCard.getByRole('button', { name: /Always allow/u }).count(),
      0,
      'no one rule covers a change of two files',
    );
    await screenshot('card-codex-file-change');
    await changeCard.locator('input.deny-message').fill(REASON);
    await clickAnswer(changeCard, changeCard.getByRole('button', { name: /^Deny( d)?$/u }));
    await changeCard.waitFor({ state: 'detached' });

    await poll(() => supervisor.getThread(codex.id).runs.some((run) => run.status === 'completed'), {
      what: 'the Codex turn completed',
    });
    const [command, change] = supervisor.listApprovals({ threadId: codex.id });
    assert.deepEqual([command?.status, command?.decision?.decidedBy?.via], ['allowed', 'web']);
    assert.deepEqual([change?.status, change?.decision?.message], ['denied', REASON]);
    assert.equal(existsSync(join(scratch.cwd, 'added.txt')), false, 'the denied change is not written');
    assert.equal(readFileSync(join(scratch.cwd, 'keeper.txt'), 'utf8'), 'kept\nold line\n');
    assert.ok(
      seen.some((text) => text.includes(REASON)),
      'the model reads the reason',
    );
    assert.equal(await claudeCard.count(), 1, 'the Claude card still waits');
    assert.equal(existsSync(join(scratch.cwd, 'from-claude')), false);
  },
);
