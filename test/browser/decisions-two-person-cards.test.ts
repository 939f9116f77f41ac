// A two-person approval in Chromium against the real CLI (docs/decisions.md#two-person-rules): the card
// says that two people must allow it and its allow button that it needs a second person; once alice
// allows it (through her own token, here the supervisor's API) the card shows "1 of 2 — allowed by
// alice" live, and the owner's click is the second allow: the card leaves and the command runs. The
// owner's own first allow brings the card back as 1 of 2, and a second click by the owner is refused.
// The audit view shows both allows. The card is photographed (docs/screenshots/card-two-person.png,
// refreshed with WARDEN_UPDATE_SCREENSHOTS=1).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { scenario } from '../../src/testing/index.js';
import { clickAnswer } from './helpers/actionable.js';
import { openBrowser } from './helpers/browser.js';
import { photograph } from './helpers/photograph.js';
import { runEnded, threadWaitingForApproval } from './helpers/threads.js';
import { startWarden } from './helpers/warden.js';

function script() {
  return scenario()
    .on('first')
    .callTool('Bash', { command: 'touch first.txt', description: 'Create a file' })
    .thenAnswer('first done')
    .on('second')
    .callTool('Bash', { command: 'touch second.txt', description: 'Create a file' })
    .thenAnswer('second done')
    .build();
}

describe('two-person cards', { timeout: 180_000 }, () => {
  it('shows "1 of 2 — allowed by alice" and an allow button that needs a second person', async (t) => {
    const warden = await startWarden(t, script, { requireTwo: ['Bash(touch:*)'] });
    const first = await threadWaitingForApproval(warden, '[[first]] make a file');
    const { page } = await openBrowser(warden);
    const card = page.locator(`.approval[data-approval-id="${first.approvalId}"]`);
    await card.locator('.two-person', { hasText: '0 of 2 allows' }).waitFor();
    assert.match(
      (await card.locator('.two-person').textContent()) ?? '',
      /two people must allow \(rule Bash\(touch:\*\)\)/,
    );
    await card.getByRole('button', { name: /Approve \(needs a second person\)/ }).waitFor();
    assert.equal(
      await card.locator('.edit-toggle, .edit-input').count(),
      0,
      'no editing of a two-person call',
    );

    await warden.supervisor.decide(first.approvalId, {
      behavior: 'allow',
      decidedBy: { name: 'alice', via: 'web' },
    });
    await card.locator('.two-person', { hasText: '1 of 2 — allowed by alice' }).waitFor();
    const second = card.getByRole('button', { name: /Approve as the second person/ });
    await second.waitFor();
    await photograph(card, 'card-two-person');
    await clickAnswer(card, second);
    await card.waitFor({ state: 'detached' });
    await runEnded(warden, first.threadId);
    assert.ok(existsSync(join(warden.scratch.cwd, 'first.txt')), 'the command ran after the second allow');
    const decided = warden.supervisor.getApproval(first.approvalId);
    assert.deepEqual(
      [decided.status, decided.decision?.decidedBy?.name, decided.decision?.endorsedBy?.name],
      ['allowed', 'owner', 'alice'],
    );

    // The owner allows first: the card comes back as 1 of 2; the owner's second click is refused.
    const next = await threadWaitingForApproval(warden, '[[second]] make another file');
    const again = page.locator(`.approval[data-approval-id="${next.approvalId}"]`);
    await clickAnswer(again, again.getByRole('button', { name: /Approve \(needs a second person\)/ }));
    await page.locator('.toast', { hasText: 'needs a second person' }).waitFor();
    await again.locator('.two-person', { hasText: '1 of 2 — allowed by owner' }).waitFor();
    await clickAnswer(again, again.getByRole('button', { name: /Approve as the second person/ }));
    await page.locator('.toast', { hasText: 'already allowed by owner' }).waitFor();
    await again.locator('.two-person', { hasText: '1 of 2 — allowed by owner' }).waitFor();
    assert.equal(warden.supervisor.getApproval(next.approvalId).status, 'pending');
    assert.equal(existsSync(join(warden.scratch.cwd, 'second.txt')), false);

    // The audit view tells a first allow from the decision it led to.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).click();
    await page.locator('.audit-row.endorsement .outcome', { hasText: 'allowed, 1 of 2' }).first().waitFor();
    await page
      .locator('.audit-row.decision .outcome', { hasText: 'allowed, 2 of 2 (first: alice)' })
      .waitFor();
    assert.equal(
      await page.locator('.audit-row.endorsement').count(),
      2,
      "alice's and the owner's first allows",
    );
  });
});
