// One inbox for both agents, in Chromium: a Claude Code thread and a Codex thread each wait on a Bash
// approval at once; the Codex card says Codex; Approve once on it runs the command through the real Codex
// app-server, and its turn completes, while the Claude card still waits for its own answer.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { CODEX_TEST_MODEL } from '../../src/agents/codex/index.js';
import { offlineCodexEnv, poll, scenario, startMockResponses } from '../../src/testing/index.js';
import { clickAnswer } from './helpers/actionable.js';
import { openBrowser } from './helpers/browser.js';
import { startWarden } from './helpers/warden.js';

const CODEX_COMMAND = 'echo from-codex > codex.txt';
const CLAUDE_COMMAND = 'touch from-claude';

void test(
  'a Claude thread and a Codex thread in one inbox; the Codex command approved there runs',
  { timeout: 120_000 },
  async (t) => {
    const responses = await startMockResponses({
      script: (ctx) => {
        if (ctx.turnMarker !== 'go') return null;
        if (ctx.turnRounds === 0) return { items: [{ type: 'exec', cmd: CODEX_COMMAND }] };
        return { items: [{ type: 'text', text: 'Codex wrote the file.' }] };
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
    await page.locator('.thread-list .agent', { hasText: 'Codex' }).waitFor();
    await screenshot('inbox-claude-and-codex');

    await clickAnswer(codexCard, codexCard.getByRole('button', { name: /Approve once/u }));
    await codexCard.waitFor({ state: 'detached' });
    await poll(() => existsSync(join(scratch.cwd, 'codex.txt')), { what: 'the Codex command ran' });
    assert.equal(readFileSync(join(scratch.cwd, 'codex.txt'), 'utf8'), 'from-codex\n');
    await poll(() => supervisor.getThread(codex.id).runs.some((run) => run.status === 'completed'), {
      what: 'the Codex turn completed',
    });
    const approval = supervisor.listApprovals({ threadId: codex.id })[0];
    assert.equal(approval?.status, 'allowed');
    assert.equal(approval?.decision?.decidedBy?.via, 'web');
    assert.equal(await claudeCard.count(), 1, 'the Claude card still waits');
    assert.equal(existsSync(join(scratch.cwd, 'from-claude')), false);
  },
);
