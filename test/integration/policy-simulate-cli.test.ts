// `POST /api/policy/simulate` and `warden policy simulate` (the real command, spawned): with the server
// running the command asks it; once the server is gone it opens the store itself. Both say what a change
// would have decided for the recorded requests, and change nothing. Bad requests are 400 naming the field;
// a decide-only token may not simulate (policy authoring is an operator's).
import assert from 'node:assert/strict';
import { it } from 'node:test';

import { createServer } from '../../src/server/index.js';
import { runWarden } from '../e2e/helpers/server-command.js';
import { waitForEvent } from '../e2e/helpers/supervisor-session.js';
import { openFakeSupervisor, startTurn } from '../fixtures/supervisor-fake-query.js';

const warden = (...args: string[]) => runWarden(args);

it('answers over HTTP and in the terminal, with and without the server', { timeout: 120_000 }, async (t) => {
  const { sup, made, thread, dataDir } = await openFakeSupervisor(t);
  const server = await createServer({ supervisor: sup, dataDir, onError: () => undefined });
  const { fake } = await startTurn(sup, made, thread.id, 'work');
  // Two asks a person allowed and one denied, and one the policy denied itself.
  for (const [command, behavior] of [
    ['npm test', 'allow'],
    ['npm test', 'allow'],
    ['npm run lint', 'deny'],
  ] as const) {
    const asked = fake.ask('Bash', { command });
    const requested = await waitForEvent(
      sup,
      'approval.requested',
      (e) => e.data.input.command === command && sup.getApproval(e.data.approvalId).status === 'pending',
    );
    await sup.decide(requested.data.approvalId, { behavior });
    await asked.result;
  }
  const post = (body: unknown, token = server.token) =>
    fetch(`${server.url}/api/policy/simulate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const answer = await post({ scope: { threadId: thread.id }, change: { allow: ['Bash(npm test)'] } });
  assert.equal(answer.status, 200);
  const json = (await answer.json()) as {
    summary: Record<string, number>;
    text: string;
    requests: { now: string }[];
  };
  assert.equal(json.summary.requests, 3);
  assert.equal(json.summary.asksAllowed, 2);
  assert.deepEqual(
    json.requests.map((request) => request.now),
    ['allow', 'allow'],
  );
  assert.match(
    json.text,
    /^Of 3 recorded requests, 2 would be decided otherwise: 2 asks would have been allowed/u,
  );

  const bad = await post({ change: { allow: ['Bash('] } });
  assert.equal(bad.status, 400);
  assert.match(await bad.text(), /rules\.allow\[0\]|change\.allow/u);
  const badDeadline = await post({
    change: { deadlines: { rules: [{ rule: 'Bash(npm test)', afterMs: 1000, behavior: 'maybe' }] } },
  });
  assert.equal(badDeadline.status, 400);
  assert.match(await badDeadline.text(), /deadlines/u);
  // Every ask was answered at once: no deadline of a minute would have answered one.
  const withDeadline = await post({
    change: {
      deadlines: { afterMs: 60_000, rules: [{ rule: 'Bash(npm test)', afterMs: 60_000, behavior: 'allow' }] },
    },
  });
  assert.equal(withDeadline.status, 200);
  const deadlineJson = (await withDeadline.json()) as {
    summary: { deadlines: Record<string, number> };
    text: string;
  };
  assert.deepEqual(deadlineJson.summary.deadlines, {
    decided: 0,
    allowed: 0,
    denied: 0,
    overturned: 0,
    unanswered: 0,
  });
  assert.match(deadlineJson.text, /With the deadlines, 0 asks would have been answered by a deadline/u);
  const approver = server.deciders.create('ann').token;
  assert.equal((await post({ change: { allow: ['Bash'] } }, approver)).status, 403);

  const viaServer = await warden(
    'policy',
    'simulate',
    '--data-dir',
    dataDir,
    '--allow-rule',
    'Bash(npm run *)',
  );
  assert.equal(viaServer.code, 0, viaServer.stderr);
  assert.match(
    viaServer.stdout,
    /^Of 3 recorded requests, 1 would be decided otherwise: 1 ask would have been allowed \(1 of them denied by a person then\)/u,
  );
  assert.match(viaServer.stdout, /ask \(denied\) → allow {2}Bash npm run lint/u);

  await server.close();
  await sup.close();
  const alone = await warden('policy', 'simulate', '--data-dir', dataDir, '--mode', 'full-access', '--json');
  assert.equal(alone.code, 0, alone.stderr);
  const parsed = JSON.parse(alone.stdout) as { summary: Record<string, number> };
  assert.equal(parsed.summary.asksAllowed, 3);
  const deadlines = await warden(
    'policy',
    'simulate',
    '--data-dir',
    dataDir,
    '--deadline',
    '30m',
    '--deadline-rule',
    'Bash(npm test) 10m allow',
    '--json',
  );
  assert.equal(deadlines.code, 0, deadlines.stderr);
  assert.equal(
    (JSON.parse(deadlines.stdout) as { summary: { deadlines: { decided: number } } }).summary.deadlines
      .decided,
    0,
  );
  const badRule = await warden(
    'policy',
    'simulate',
    '--data-dir',
    dataDir,
    '--deadline-rule',
    'Bash(npm test) soon',
  );
  assert.equal(badRule.code, 2);
  assert.match(badRule.stderr, /--deadline-rule must be 'RULE DURATION allow\|deny'/u);

  const usage = await warden('policy', 'simulate', '--data-dir', dataDir);
  assert.equal(usage.code, 2);
  assert.match(
    usage.stderr,
    /say what would change: --allow-rule, --deny-rule, --remove-rule, --mode, --deadline or --deadline-rule/u,
  );
});
