// Deadlines with default decisions and batches, on a scripted CLI. A deadline answers for the person
// (recorded `by: 'timeout'`), unless someone answers first; a batch answers exactly the approvals its
// preview listed, each once. The real-CLI versions (across a restart; a batch raced by a second client)
// are in test/e2e.
import assert from 'node:assert/strict';
import { it } from 'node:test';

import { ValidationError } from '../../src/protocol/errors.js';
import type { Supervisor } from '../../src/supervisor/index.js';
import { deadlineFor, validateDeadlines } from '../../src/supervisor/approvals/deadlines.js';
import { frames, openFakeSupervisor, startTurn } from '../fixtures/supervisor-fake-query.js';
import { waitForEvent } from '../e2e/helpers/supervisor-session.js';
import { describeEachStore } from '../helpers/store-backends.js';

/** Resolves once `count` approvals have been requested (the log is replayed from its start). */
async function approvalsRequested(sup: Supervisor, count: number): Promise<void> {
  let seen = 0;
  await waitForEvent(sup, 'approval.requested', () => ++seen === count);
}

/**
 * The deadline clock's timers do not hold the process open (a real CLI's pipes do); the scripted CLI has
 * none, so the test holds it while it waits for a deadline.
 */
function holdEventLoop(t: { after(fn: () => void): void }): void {
  const hold = setInterval(() => undefined, 1000);
  t.after(() => clearInterval(hold));
}

describeEachStore('deadlines', () => {
  it("the thread's deadline denies an unanswered approval, recorded by: 'timeout'", async (t) => {
    holdEventLoop(t);
    const { sup, made, thread } = await openFakeSupervisor(t);
    await sup.setDeadlines(thread.id, { afterMs: 1000 });
    const { fake } = await startTurn(sup, made, thread.id, 'one');
    const started = Date.now();
    const asked = fake.ask('Read', { file_path: '/etc/hostname' });
    const requested = await waitForEvent(sup, 'approval.requested');
    assert.equal(requested.data.deadline?.behavior, 'deny');
    const answer = await asked.result;
    assert.ok(Date.now() - started >= 900, 'not before the deadline');
    assert.deepEqual(answer, {
      behavior: 'deny',
      message: "No one answered in time: denied by the thread's deadline",
    });
    const decided = await waitForEvent(sup, 'approval.decided');
    assert.equal(decided.data.by, 'timeout');
    assert.deepEqual(decided.data.decidedBy, { name: 'deadline', via: 'timeout' });
  });

  it('a rule marked safe allows at its deadline; an answer before the deadline stands', async (t) => {
    holdEventLoop(t);
    const { sup, made, thread } = await openFakeSupervisor(t);
    await sup.setDeadlines(thread.id, {
      afterMs: 60_000,
      rules: [{ rule: 'Bash(npm test:*)', afterMs: 1000, behavior: 'allow' }],
    });
    const { fake } = await startTurn(sup, made, thread.id, 'one');
    const safe = fake.ask('Bash', { command: 'npm test' });
    // `npm test && rm x` is not wholly covered by the allowing rule: the thread's deny deadline applies.
    const unsafe = fake.ask('Bash', { command: 'npm test && rm x' });
    assert.equal((await safe.result).behavior, 'allow');
    const approvals = sup.listApprovals();
    const other = approvals.find((a) => a.input.command === 'npm test && rm x');
    assert.equal(other?.deadline?.behavior, 'deny');
    assert.equal(other.deadline.rule, null);
    await sup.decide(other.id, { behavior: 'deny', message: 'no' });
    assert.deepEqual(await unsafe.result, { behavior: 'deny', message: 'no' });
    assert.equal(sup.getThread(thread.id).approvals.find((a) => a.id === other.id)?.decision?.by, 'user');
  });

  it('validates deadlines at the boundary and matches allowing rules strictly', () => {
    for (const bad of [
      { afterMs: 10 },
      { afterMs: 1.5e3 + 0.5 },
      { rules: [{ rule: 'Bash(x:*)', afterMs: 1000, behavior: 'maybe' }] },
      { rules: [{ rule: '(', afterMs: 1000, behavior: 'deny' }] },
      { later: 1 },
      [],
    ])
      assert.throws(() => validateDeadlines(bad), ValidationError, JSON.stringify(bad));
    const deadlines = validateDeadlines({
      rules: [{ rule: 'Bash(ls:*)', afterMs: 1000, behavior: 'allow' }],
    });
    const request = (command: string): { toolName: string; input: Record<string, unknown>; cwd: string } => ({
      toolName: 'Bash',
      input: { command },
      cwd: '/tmp',
    });
    assert.equal(deadlineFor(deadlines, request('ls -la'), 0)?.at, new Date(1000).toISOString());
    assert.equal(deadlineFor(deadlines, request('ls; curl x | sh'), 0), null);
    // A protected write the policy asked about: the allowing rule is passed over, the default denies.
    const both = validateDeadlines({
      afterMs: 5000,
      rules: [{ rule: 'Write(**)', afterMs: 1000, behavior: 'allow' }],
    });
    const write = { toolName: 'Write', input: { file_path: '/tmp/.git/config' }, cwd: '/tmp' };
    assert.equal(deadlineFor(both, write, 0)?.behavior, 'allow');
    assert.deepEqual(deadlineFor(both, { ...write, guarded: true }, 0), {
      at: new Date(5000).toISOString(),
      behavior: 'deny',
      rule: null,
    });
  });
});

describeEachStore('batches', () => {
  it("previews a subagent's pending approvals and decides each once, reporting those settled meanwhile", async (t) => {
    const { sup, made, thread } = await openFakeSupervisor(t);
    const { fake, uuid } = await startTurn(sup, made, thread.id, 'launch');
    fake.emit(frames.agentCall('toolu_a'));
    fake.emit(frames.taskStarted('task-a', 'toolu_a'));
    fake.emit(frames.result([uuid]));
    await waitForEvent(sup, 'run.ended');
    const fromA = ['/etc/a', '/etc/b', '/etc/c'].map((path) =>
      fake.ask('Read', { file_path: path }, { agentID: 'task-a' }),
    );
    const root = fake.ask('Read', { file_path: '/etc/root' });
    await approvalsRequested(sup, 4);
    const { approvals: preview } = sup.previewBatch({ subagentId: 'task-a' });
    assert.deepEqual(
      preview.map((a) => a.input.file_path),
      ['/etc/a', '/etc/b', '/etc/c'],
    );
    // Someone else answers one of them while the batch is being applied.
    const raced = preview[1];
    assert.ok(raced !== undefined);
    const [batch, single] = await Promise.allSettled([
      sup.decideBatch(
        preview.map((a) => a.id),
        { behavior: 'deny', message: 'not now' },
      ),
      sup.decide(raced.id, { behavior: 'allow' }),
    ]);
    assert.equal(single.status, 'fulfilled');
    assert.equal(batch.status, 'fulfilled');
    const result = batch.status === 'fulfilled' ? batch.value : undefined;
    assert.deepEqual(
      result?.decided.map((a) => a.input.file_path),
      ['/etc/a', '/etc/c'],
    );
    assert.deepEqual(result?.alreadySettled, [{ id: raced.id, status: 'allowed' }]);
    const answers = await Promise.all(fromA.map((a) => a.result));
    assert.deepEqual(
      answers.map((a) => a.behavior),
      ['deny', 'allow', 'deny'],
    );
    assert.equal(
      sup.listApprovals({ status: 'pending' }).length,
      1,
      "the root's request is not in the batch",
    );
    const decisions = sup
      .listApprovals()
      .filter((a) => a.decision !== null)
      .map((a) => a.id);
    assert.equal(new Set(decisions).size, decisions.length);
    root.withdraw();
  });

  it('selects by a typed rule, strictly for an allow', async (t) => {
    const { sup, made, thread } = await openFakeSupervisor(t);
    const { fake } = await startTurn(sup, made, thread.id, 'one');
    fake.ask('Bash', { command: 'npm test' });
    fake.ask('Bash', { command: 'npm test && curl x' });
    fake.ask('Read', { file_path: '/etc/hostname' });
    await approvalsRequested(sup, 3);
    const command = (a: { input: Record<string, unknown> }): unknown => a.input.command;
    assert.deepEqual(sup.previewBatch({ rule: 'Bash(npm test:*)' }, 'allow').approvals.map(command), [
      'npm test',
    ]);
    assert.deepEqual(sup.previewBatch({ rule: 'Bash(npm test:*)' }, 'deny').approvals.map(command), [
      'npm test',
      'npm test && curl x',
    ]);
    assert.equal(sup.previewBatch({ threadId: thread.id }).approvals.length, 3);
    assert.throws(() => sup.previewBatch({}), ValidationError);
    assert.throws(() => sup.previewBatch({ rule: 'Bash(' }), ValidationError);
    await assert.rejects(sup.decideBatch([], { behavior: 'allow' }), ValidationError);
    await assert.rejects(sup.decideBatch(['x'], { behavior: 'allow_always' }), ValidationError);
  });

  it('an allow leaves protected and CLI-sensitive writes out, in the preview and whatever ids it is given', async (t) => {
    const { sup, made, thread } = await openFakeSupervisor(t);
    const { fake } = await startTurn(sup, made, thread.id, 'one');
    const plain = fake.ask('Bash', { command: 'make' });
    const hook = fake.ask('Write', { file_path: '.git/hooks/pre-commit', content: 'curl x | sh' });
    const sensitive = fake.ask(
      'Edit',
      { file_path: 'notes.txt', old_string: 'a', new_string: 'b' },
      { decisionReason: 'Claude requested permissions to edit notes.txt which is a sensitive file.' },
    );
    await approvalsRequested(sup, 3);
    const preview = sup.previewBatch({ threadId: thread.id }, 'allow');
    assert.deepEqual(
      preview.approvals.map((a) => a.input.command),
      ['make'],
    );
    assert.deepEqual(
      preview.leftOut.map((l) => l.toolName),
      ['Write', 'Edit'],
    );
    for (const left of preview.leftOut) assert.match(left.reason, /protected|sensitive/);
    // A client that sends every id anyway: the protected ones stay pending.
    const all = sup.listApprovals({ status: 'pending' }).map((a) => a.id);
    const result = await sup.decideBatch(all, { behavior: 'allow' });
    assert.deepEqual(
      result.decided.map((a) => a.toolName),
      ['Bash'],
    );
    assert.deepEqual(
      result.leftOut.map((l) => l.toolName),
      ['Write', 'Edit'],
    );
    assert.equal((await plain.result).behavior, 'allow');
    assert.equal(
      sup.listApprovals({ status: 'pending' }).length,
      2,
      'the protected writes wait for a person',
    );
    // A deny batch covers them: refusing in bulk is always safe.
    assert.equal(sup.previewBatch({ threadId: thread.id }, 'deny').approvals.length, 2);
    const denied = await sup.decideBatch(
      sup.listApprovals({ status: 'pending' }).map((a) => a.id),
      { behavior: 'deny' },
    );
    assert.equal(denied.decided.length, 2);
    assert.deepEqual(
      (await Promise.all([hook.result, sensitive.result])).map((a) => a.behavior),
      ['deny', 'deny'],
    );
  });
});
