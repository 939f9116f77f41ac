// Two-person rules (docs/decisions.md#two-person-rules): which approvals need two deciders' allows (the
// pure rule), and the counting on a scripted CLI against each store — the first allow is recorded and
// audited but answers nobody, the same decider twice is a ConflictError, a deny by either denies at once,
// the second allow from another decider answers the CLI, once.
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, it } from 'node:test';

import { compilePolicy } from '../../src/policy/policy.js';
import { compileTwoPersonRules, twoPersonReason } from '../../src/policy/two-person.js';
import { ConflictError, ValidationError } from '../../src/protocol/errors.js';
import type { PermissionResult } from '../../src/protocol/control.js';
import { Supervisor } from '../../src/supervisor/index.js';
import { openFakeSupervisor, startTurn } from '../fixtures/supervisor-fake-query.js';
import { waitForEvent } from '../e2e/helpers/supervisor-session.js';
import { describeEachStore, storeBackends } from '../helpers/store-backends.js';
import type { EventDraft } from '../../src/store/index.js';

const alice = { name: 'alice', via: 'web' } as const;
const bob = { name: 'bob', via: 'api' } as const;

describe('two-person rules (the rule)', () => {
  const policy = (mode: 'supervised' | 'full-access') => compilePolicy(mode, { allow: [], deny: [] }, '/w');

  it('names the built-in kinds and rules, matching a rule as a deny rule does', () => {
    const rules = compileTwoPersonRules(['protected-writes', 'full-access', 'Bash(git push:*)']);
    const ask = { policy: policy('supervised'), step: 'mode' } as const;
    assert.equal(
      twoPersonReason(rules, { ...ask, toolName: 'Bash', input: { command: 'sudo git push origin' } }),
      'rule Bash(git push:*)',
      'seen through a wrapper',
    );
    assert.equal(
      twoPersonReason(rules, { ...ask, toolName: 'Bash', input: { command: 'ls && git push' } }),
      'rule Bash(git push:*)',
      'any simple command of the parse',
    );
    assert.equal(
      twoPersonReason(rules, { ...ask, toolName: 'Bash', input: { command: 'git status' } }),
      null,
    );
    assert.equal(
      twoPersonReason(rules, {
        ...ask,
        step: 'protected-write',
        toolName: 'Write',
        input: { file_path: 'x' },
      }),
      'protected write',
    );
    assert.equal(
      twoPersonReason(rules, { ...ask, policy: policy('full-access'), toolName: 'Read', input: {} }),
      'full-access thread',
    );
    // A question for a person is an answer, not an action.
    assert.equal(
      twoPersonReason(rules, {
        ...ask,
        policy: policy('full-access'),
        toolName: 'AskUserQuestion',
        input: {},
      }),
      null,
    );
    assert.equal(
      twoPersonReason(compileTwoPersonRules(undefined), {
        ...ask,
        toolName: 'Bash',
        input: { command: 'x' },
      }),
      null,
    );
  });

  it('refuses what is neither a kind nor a rule, naming the entry', () => {
    assert.throws(() => compileTwoPersonRules('full-access'), ValidationError);
    assert.throws(() => compileTwoPersonRules(['full-access', '(']), /requireTwo\[1\]/);
    assert.throws(() => compileTwoPersonRules([3]), /requireTwo\[0\] must be a string/);
  });

  it('Supervisor.open refuses a bad requireTwo with a TypeError naming the entry', async () => {
    await assert.rejects(
      async () => Supervisor.open({ dataDir: join(tmpdir(), 'warden-never-opened'), requireTwo: ['Bash()'] }),
      (error: unknown) => error instanceof TypeError && /options\.requireTwo\[0\]/.test(error.message),
    );
  });
});

const twoPersonRequest: EventDraft[] = [
  {
    type: 'thread.created',
    data: { cwd: '/w', mode: 'supervised', model: null, rules: { allow: [], deny: [] } },
  },
  {
    type: 'run.created',
    data: {
      runId: 'r1',
      status: 'running',
      trigger: 'human',
      prompt: 'hi',
      userMessageId: 'u1',
      generation: 1,
    },
  },
  {
    type: 'approval.requested',
    data: {
      ...{
        approvalId: 'p1',
        runId: 'r1',
        subagentId: null,
        toolName: 'Bash',
        input: { command: 'git push' },
      },
      ...{ toolUseId: 't1', requestId: 'q1', suggestions: [], alwaysAllowRules: [], blockedPath: null },
      ...{ decisionReason: null, generation: 1, twoPerson: 'rule Bash(git push:*)' },
    },
  },
];
const allowBy = (name: string): EventDraft => ({
  type: 'approval.decided',
  data: {
    ...{ approvalId: 'p1', behavior: 'allow', message: null, interrupt: false, updatedPermissions: null },
    ...{ by: 'user', decidedBy: { name, via: 'api' } },
  },
});
const endorsedBy = (name: string): EventDraft => ({
  type: 'approval.endorsed',
  data: { approvalId: 'p1', decidedBy: { name, via: 'api' } },
});

for (const backend of storeBackends())
  describe(`two-person approvals in the store's compare-and-set (${backend.name})`, () => {
    it('an allow needs a first allow of another decider; a first allow lands once', async (t) => {
      const store = await backend.open(t);
      store.commit('a', twoPersonRequest);
      assert.throws(() => store.commit('a', [allowBy('alice')]), /needs two deciders' allows; it has none/);
      store.commit('a', [endorsedBy('alice')]);
      const seq = store.lastSeq();
      assert.throws(() => store.commit('a', [endorsedBy('bob')]), /already has its first allow, from alice/);
      assert.throws(() => store.commit('a', [allowBy('alice')]), /already allowed by alice/);
      assert.equal(store.lastSeq(), seq, 'the refused changes wrote nothing');
      store.commit('a', [allowBy('bob')]);
      assert.throws(() => store.commit('a', [endorsedBy('carol')]), ConflictError);
      const approval = store.getApproval('p1');
      assert.deepEqual(
        [approval?.status, approval?.endorsements.map((e) => e.decidedBy.name), approval?.twoPerson],
        ['allowed', ['alice'], 'rule Bash(git push:*)'],
      );
    });
  });

/** Whether `answer` has settled by now: every answer is given once its commit is published. */
async function settled(answer: Promise<PermissionResult>): Promise<boolean> {
  let done = false;
  void answer.then(() => (done = true));
  await nextTurn();
  return done;
}

function countEvents(sup: Supervisor, type: string): number {
  return sup.readEvents({ limit: 10_000 }).filter((event) => event.type === type).length;
}

/** A supervisor whose `git push` approvals need two allows, and one such request asked. */
async function pushAsked(t: { after(fn: () => Promise<void> | void): void }) {
  const { sup, made, thread } = await openFakeSupervisor(t, {}, { requireTwo: ['Bash(git push:*)'] });
  const { fake } = await startTurn(sup, made, thread.id, 'one');
  const asked = fake.ask('Bash', { command: 'git push origin main' });
  const requested = await waitForEvent(sup, 'approval.requested');
  assert.equal(requested.data.twoPerson, 'rule Bash(git push:*)');
  return { sup, fake, thread, asked, approvalId: requested.data.approvalId };
}

describeEachStore('two-person approvals', () => {
  it('the first allow is recorded and audited and answers nobody; the second, from another decider, answers once', async (t) => {
    const { sup, asked, approvalId } = await pushAsked(t);
    const first = await sup.decide(approvalId, { behavior: 'allow', decidedBy: alice });
    assert.equal(first.status, 'pending');
    assert.deepEqual(
      first.endorsements.map((e) => e.decidedBy),
      [alice],
    );
    assert.equal(await settled(asked.result), false, 'the CLI heard nothing after one allow');

    await assert.rejects(
      sup.decide(approvalId, { behavior: 'allow', decidedBy: alice }),
      (error: unknown) => {
        assert.ok(error instanceof ConflictError);
        assert.match(error.message, /already allowed by alice; it needs a second person's allow/);
        return true;
      },
    );
    // Another channel of the same decider is still the same person.
    await assert.rejects(
      sup.decide(approvalId, { behavior: 'allow', decidedBy: { name: 'alice', via: 'api' } }),
      ConflictError,
    );
    assert.equal(await settled(asked.result), false);

    const second = await sup.decide(approvalId, { behavior: 'allow', decidedBy: bob });
    assert.equal(second.status, 'allowed');
    assert.deepEqual(second.decision?.decidedBy, bob);
    assert.deepEqual(second.decision?.endorsedBy, alice);
    assert.equal((await asked.result).behavior, 'allow');
    await assert.rejects(
      sup.decide(approvalId, { behavior: 'allow', decidedBy: { name: 'carol', via: 'api' } }),
      /already allowed/,
    );

    assert.equal(countEvents(sup, 'approval.endorsed'), 1);
    assert.equal(countEvents(sup, 'approval.decided'), 1);
    const audit = sup.readAudit().map((row) => JSON.parse(row.text) as Record<string, unknown>);
    const mine = audit.filter((record) => record.approvalId === approvalId);
    assert.deepEqual(
      mine.map((record) => [record.kind, record.outcome, (record.decidedBy as { name: string }).name]),
      [
        ['endorsement', 'allow', 'alice'],
        ['decision', 'allow', 'bob'],
      ],
    );
    assert.deepEqual(mine[1]?.endorsedBy, alice);
    assert.equal(sup.verifyAudit().ok, true);
  });

  it('a deny by either decider denies at once', async (t) => {
    const { sup, asked, approvalId } = await pushAsked(t);
    await sup.decide(approvalId, { behavior: 'allow', decidedBy: alice });
    const denied = await sup.decide(approvalId, { behavior: 'deny', message: 'not today', decidedBy: bob });
    assert.equal(denied.status, 'denied');
    assert.deepEqual(await asked.result, { behavior: 'deny', message: 'not today' });
  });

  it('a deny before any allow denies at once; the first decider may deny after allowing', async (t) => {
    const one = await pushAsked(t);
    await one.sup.decide(one.approvalId, { behavior: 'deny', decidedBy: alice });
    assert.equal((await one.asked.result).behavior, 'deny');
    const two = await pushAsked(t);
    await two.sup.decide(two.approvalId, { behavior: 'allow', decidedBy: alice });
    await two.sup.decide(two.approvalId, { behavior: 'deny', decidedBy: alice });
    assert.equal((await two.asked.result).behavior, 'deny');
  });

  it('two first allows at once from two deciders: one is the first, the other the second', async (t) => {
    const { sup, asked, approvalId } = await pushAsked(t);
    const both = await Promise.all([
      sup.decide(approvalId, { behavior: 'allow', decidedBy: alice }),
      sup.decide(approvalId, { behavior: 'allow', decidedBy: bob }),
    ]);
    assert.deepEqual(
      both.map((approval) => approval.status),
      ['pending', 'allowed'],
    );
    assert.equal((await asked.result).behavior, 'allow');
    assert.equal(countEvents(sup, 'approval.decided'), 1);
  });

  it('no deadline allows a two-person approval', async (t) => {
    const { sup, made, thread } = await openFakeSupervisor(t, {}, { requireTwo: ['Bash(git push:*)'] });
    await sup.setDeadlines(thread.id, {
      rules: [{ rule: 'Bash(git:*)', afterMs: 60_000, behavior: 'allow' }],
    });
    const { fake } = await startTurn(sup, made, thread.id, 'one');
    fake.ask('Bash', { command: 'git push' });
    fake.ask('Bash', { command: 'git fetch' });
    await waitForEvent(sup, 'approval.requested', (event) => event.data.input.command === 'git fetch');
    const deadlines = sup
      .listApprovals()
      .map((a) => [a.input.command, a.twoPerson, a.deadline?.behavior ?? null]);
    assert.deepEqual(deadlines, [
      ['git push', 'rule Bash(git push:*)', null],
      ['git fetch', null, 'allow'],
    ]);
  });

  it('one allow answers a call no rule names; no edit, batch or mode allows a two-person one', async (t) => {
    const { sup, fake, thread, asked, approvalId } = await pushAsked(t);
    const other = fake.ask('Bash', { command: 'git fetch' });
    // The second request's approval is awaited, not assumed to be recorded in the turn it was asked.
    await waitForEvent(sup, 'approval.requested', (event) => event.data.input.command === 'git fetch');
    const otherId = sup.listApprovals({ status: 'pending' }).find((a) => a.id !== approvalId)?.id ?? '';
    assert.equal(sup.listApprovals().find((a) => a.id === otherId)?.twoPerson, null);
    await assert.rejects(
      sup.decide(approvalId, { behavior: 'allow', updatedInput: { command: 'git push' }, decidedBy: alice }),
      (error: unknown) => error instanceof ValidationError && error.field === 'updatedInput',
    );
    const preview = sup.previewBatch({ threadId: thread.id }, 'allow');
    assert.deepEqual(
      preview.leftOut.map((left) => [left.id, left.reason]),
      [[approvalId, "needs two deciders' allows (rule Bash(git push:*))"]],
    );
    await sup.setMode(thread.id, 'full-access');
    assert.equal((await other.result).behavior, 'allow', 'the mode allowed the other');
    assert.equal(await settled(asked.result), false, 'the mode allows no two-person approval');
    await sup.decide(approvalId, { behavior: 'allow', decidedBy: alice });
    await sup.decide(approvalId, { behavior: 'allow', decidedBy: bob });
    assert.equal((await asked.result).behavior, 'allow');
  });
});
