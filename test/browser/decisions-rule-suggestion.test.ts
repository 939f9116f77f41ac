// A rule suggested on a card, in Chromium against the real CLI: after three `touch` commands were
// approved in the thread, the fourth one's card offers `Bash(touch:*)` — the narrowest rule covering those
// approvals and nothing denied — with what it would have done in the thread so far; Save rule adds it to
// the thread, and the request still waits for its answer. The card is photographed
// (docs/screenshots/card-suggestion.png, refreshed with WARDEN_UPDATE_SCREENSHOTS=1).
import assert from 'node:assert/strict';
import { it } from 'node:test';

import { scenario } from '../../src/testing/index.js';
import type { SupervisorEvent } from '../../src/supervisor/index.js';
import { openBrowser } from './helpers/browser.js';
import { photograph } from './helpers/photograph.js';
import { runEnded } from './helpers/threads.js';
import { startWarden, type Warden } from './helpers/warden.js';

const FILES = ['a.txt', 'b.txt', 'c.txt', 'd.txt'];

function script() {
  let steps = scenario().on('touch');
  for (const file of FILES)
    steps = steps.callTool('Bash', { command: `touch ${file}`, description: `Create ${file}` });
  return steps.thenAnswer('made them').build();
}

/** The approval of `touch <file>` in the thread, once requested. */
async function approvalOf(warden: Warden, threadId: string, file: string): Promise<string> {
  const event = (await warden.waitForEvent(
    (e) =>
      e.type === 'approval.requested' && e.threadId === threadId && e.data.input.command === `touch ${file}`,
  )) as Extract<SupervisorEvent, { type: 'approval.requested' }>;
  return event.data.approvalId;
}

it(
  'after three approvals the card offers the rule, and Save rule adds it',
  { timeout: 180_000 },
  async (t) => {
    const warden = await startWarden(t, script);
    const thread = await warden.supervisor.createThread({ cwd: warden.scratch.cwd, mode: 'supervised' });
    await warden.supervisor.send(thread.id, '[[touch]] make four files');
    for (const file of FILES.slice(0, 3))
      await warden.supervisor.decide(await approvalOf(warden, thread.id, file), { behavior: 'allow' });
    const fourth = await approvalOf(warden, thread.id, 'd.txt');

    const { page } = await openBrowser(warden);
    const card = page.locator(`.approval[data-approval-id="${fourth}"]`);
    const suggestion = card.locator('.rule-suggestion');
    await suggestion.locator('.suggested-rule').waitFor();
    assert.equal(
      await suggestion.locator('.suggested-rule').textContent(),
      'Approved 3 times in this thread: Bash(touch:*) covers them, and nothing denied here.',
    );
    assert.match(
      (await suggestion.locator('.suggested-simulation').textContent()) ?? '',
      /^Of 4 recorded requests, 4 would be decided otherwise: 4 asks would have been allowed/u,
    );
    await photograph(card, 'card-suggestion');

    await suggestion.getByRole('button', { name: 'Save rule' }).click();
    await suggestion
      .locator('.suggestion-saved', {
        hasText: 'Saved: this thread now allows Bash(touch:*). This request still waits for your answer.',
      })
      .waitFor();
    const grants = warden.supervisor.getThread(thread.id).thread.grants ?? [];
    assert.deepEqual(
      grants.map(({ rule, scope }) => ({ rule, scope })),
      [{ rule: 'Bash(touch:*)', scope: 'thread' }],
    );
    assert.equal(warden.supervisor.getApproval(fourth).status, 'pending', 'saving the rule answers nothing');
    await warden.supervisor.decide(fourth, { behavior: 'allow' });
    await runEnded(warden, thread.id);
  },
);
