// Regression, found by `npm run verify`: the projector's INSERT of an approval named 18 columns (two_person
// joined routing) but bound 17 values, so every approval.requested failed to commit ("17 values for 18
// columns") and no CLI's permission request became an approval. An approval asked with a deadline, a
// route and a two-person reason is stored and read back with each of them.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';

import { SqliteStore } from '../../src/store/sqlite-store.js';

it('approval.requested binds a value for every column of the approvals table', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'warden-approval-insert-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const store = SqliteStore.open(join(dir, 'warden.db'));
  t.after(() => store.close());
  const deadline = { at: '2026-01-01T00:00:05.000Z', behavior: 'deny' as const, rule: null };
  store.commit('t1', [
    {
      type: 'thread.created',
      data: { cwd: dir, mode: 'supervised', model: null, rules: { allow: [], deny: [] } },
    },
    {
      type: 'run.created',
      data: {
        runId: 'r1',
        status: 'running',
        trigger: 'user',
        prompt: 'go',
        userMessageId: null,
        generation: 1,
      },
    },
    {
      type: 'approval.requested',
      data: {
        approvalId: 'a1',
        runId: 'r1',
        subagentId: null,
        toolName: 'Bash',
        input: { command: 'touch x' },
        toolUseId: 'tu1',
        requestId: 'req1',
        suggestions: [],
        alwaysAllowRules: [],
        blockedPath: null,
        decisionReason: null,
        generation: 1,
        deadline,
        routing: null,
        twoPerson: 'rule Bash(touch:*)',
      },
    },
  ]);
  const approval = store.getApproval('a1');
  assert.equal(approval?.status, 'pending');
  assert.deepEqual(approval.deadline, deadline);
  assert.equal(approval.twoPerson, 'rule Bash(touch:*)');
});
