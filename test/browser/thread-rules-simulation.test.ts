// A rule typed in the thread's rules panel, in Chromium against the real CLI: once the typing pauses, the
// panel says what the rule would have done in the thread so far (the server's simulation of its history)
// — before anything is saved, asked once for the pause and not once per key; Save adds it to the thread,
// where it is listed (and held on the thread's record) like a rule granted from a card. The panel with its
// simulation is photographed (docs/screenshots/rules-simulation.png, refreshed with
// WARDEN_UPDATE_SCREENSHOTS=1).
import assert from 'node:assert/strict';
import { it } from 'node:test';

import { scenario } from '../../src/testing/index.js';
import { openBrowser } from './helpers/browser.js';
import { photograph } from './helpers/photograph.js';
import { runEnded, threadWaitingForApproval } from './helpers/threads.js';
import { startWarden } from './helpers/warden.js';

const RULE = 'Bash(touch:*)';

function script() {
  return scenario()
    .on('touch')
    .callTool('Bash', { command: 'touch a.txt', description: 'Create a file' })
    .thenAnswer('made it')
    .build();
}

it('a typed rule shows its simulation before Save, and Save adds it', { timeout: 180_000 }, async (t) => {
  const warden = await startWarden(t, script);
  const { threadId, approvalId } = await threadWaitingForApproval(warden, '[[touch]] make a file');
  await warden.supervisor.decide(approvalId, { behavior: 'allow' });
  await runEnded(warden, threadId);

  const { page } = await openBrowser(warden);
  const simulations: unknown[] = [];
  const grants: unknown[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'POST') return;
    if (request.url().endsWith('/api/policy/simulate')) simulations.push(request.postDataJSON());
    if (request.url().endsWith(`/api/threads/${threadId}/rules`)) grants.push(request.postDataJSON());
  });
  await page.locator(`.thread-list a[data-thread-id="${threadId}"]`).click();
  const panel = page.locator('.thread-policy');
  await panel.waitFor();

  await panel.getByLabel('Allow in this thread').pressSequentially(RULE, { delay: 20 });
  await panel
    .locator('.new-rule-simulated', {
      hasText: 'In this thread so far (1 recorded request), this rule would have allowed 1 ask.',
    })
    .waitFor();
  assert.deepEqual(grants, [], 'nothing is saved while the simulation is shown');
  await photograph(panel, 'rules-simulation', false);
  assert.deepEqual(
    simulations,
    [{ limit: 0, scope: { threadId }, change: { allow: [RULE] } }],
    'asked once the typing paused, for the whole rule',
  );

  await panel.getByRole('button', { name: 'Save rule' }).click();
  await panel.locator(`li.granted.thread[data-rule="${RULE}"]`).waitFor();
  assert.deepEqual(grants, [{ rules: [RULE] }]);
  const { thread } = warden.supervisor.getThread(threadId);
  assert.deepEqual(
    (thread.grants ?? []).map(({ rule, scope, approvalId: from }) => ({ rule, scope, from })),
    [{ rule: RULE, scope: 'thread', from: null }],
  );
  assert.equal(await panel.getByLabel('Allow in this thread').inputValue(), '', 'the field is emptied');
});
