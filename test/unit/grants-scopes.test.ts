// "Always allow" with the scope a person picks, on a scripted CLI: what the CLI is sent, what the policy
// applies afterwards, and that nothing wider than what the approval showed can be granted. The real-CLI
// versions (a thread rule across stop + resend and a restart, the project file) are in test/e2e.
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';

import { ValidationError } from '../../src/protocol/errors.js';
import { ruleWithin } from '../../src/supervisor/approvals/grants.js';
import { frames, openFakeSupervisor, startTurn } from '../fixtures/supervisor-fake-query.js';
import { waitForEvent } from '../e2e/helpers/supervisor-session.js';
import { describeEachStore } from '../helpers/store-backends.js';

const SUGGEST_PREFIX = [
  {
    type: 'addRules',
    rules: [{ toolName: 'Bash', ruleContent: 'npm test:*' }],
    behavior: 'allow',
    destination: 'localSettings',
  },
];

describeEachStore('always-allow scopes', () => {
  it('a thread rule is applied by the policy in later CLI processes, until it is removed', async (t) => {
    const { sup, made, thread } = await openFakeSupervisor(t);
    const first = await startTurn(sup, made, thread.id, 'one');
    const asked = first.fake.ask('Bash', { command: 'npm test -- --watch' }, { suggestions: SUGGEST_PREFIX });
    const requested = await waitForEvent(sup, 'approval.requested');
    assert.deepEqual(requested.data.alwaysAllowRules, ['Bash(npm test:*)']);
    await sup.decide(requested.data.approvalId, { behavior: 'allow_always', scope: 'thread' });
    const answer = await asked.result;
    assert.equal(answer.behavior, 'allow');
    assert.equal('updatedPermissions' in answer, false, 'the CLI is not told: Warden applies the rule');
    assert.deepEqual(
      sup.getThread(thread.id).thread.grants.map((g) => [g.rule, g.scope]),
      [['Bash(npm test:*)', 'thread']],
    );

    await sup.stop(thread.id);
    const second = await startTurn(sup, made, thread.id, 'two');
    assert.notEqual(second.fake, first.fake);
    const again = await second.fake.ask('Bash', { command: 'npm test' }).result;
    assert.equal(again.behavior, 'allow');
    const decided = await waitForEvent(sup, 'permission.decided');
    assert.equal(decided.data.rule, 'Bash(npm test:*)');

    await sup.revokeRule(thread.id, 'Bash(npm test:*)');
    assert.deepEqual(sup.getThread(thread.id).thread.grants, []);
    second.fake.ask('Bash', { command: 'npm test' });
    const askedAgain = await waitForEvent(
      sup,
      'approval.requested',
      (e) => e.data.input.command === 'npm test',
    );
    assert.equal(sup.listApprovals({ status: 'pending' })[0]?.id, askedAgain.data.approvalId);
  });

  it('a session rule goes to the CLI and holds while the CLI session is the same', async (t) => {
    const { sup, made, thread } = await openFakeSupervisor(t);
    const first = await startTurn(sup, made, thread.id, 'one');
    const asked = first.fake.ask('Read', { file_path: '/etc/hostname' });
    const requested = await waitForEvent(sup, 'approval.requested');
    await sup.decide(requested.data.approvalId, { behavior: 'allow_always' });
    const answer = await asked.result;
    assert.deepEqual(answer.behavior === 'allow' ? answer.updatedPermissions : null, [
      {
        type: 'addRules',
        rules: [{ toolName: 'Read', ruleContent: '//etc/hostname' }],
        behavior: 'allow',
        destination: 'session',
      },
    ]);
    const [grant] = sup.getThread(thread.id).thread.grants;
    assert.deepEqual([grant?.scope, grant?.sessionId], ['session', 'session-1']);

    // Stopped and sent to again, the CLI resumes session-1: the rule still holds.
    await sup.stop(thread.id);
    const second = await startTurn(sup, made, thread.id, 'two');
    assert.equal((await second.fake.ask('Read', { file_path: '/etc/hostname' }).result).behavior, 'allow');
    // A new CLI session (a resume that failed and started afresh) does not inherit it.
    second.fake.emit(frames.init([], 'session-2'));
    await waitForEvent(sup, 'session.initialized', (e) => e.data.sessionId === 'session-2');
    second.fake.ask('Read', { file_path: '/etc/hostname' });
    await waitForEvent(sup, 'approval.requested', (e) => e.data.approvalId !== requested.data.approvalId);
  });

  it('a project rule is sent to the CLI for its local settings file, only when chosen', async (t) => {
    const { sup, made, thread } = await openFakeSupervisor(t);
    const { fake } = await startTurn(sup, made, thread.id, 'one');
    const asked = fake.ask('Bash', { command: 'npm test' }, { suggestions: SUGGEST_PREFIX });
    const requested = await waitForEvent(sup, 'approval.requested');
    await sup.decide(requested.data.approvalId, { behavior: 'allow_always', scope: 'project' });
    const answer = await asked.result;
    assert.deepEqual(answer.behavior === 'allow' ? answer.updatedPermissions : null, [
      {
        type: 'addRules',
        rules: [{ toolName: 'Bash', ruleContent: 'npm test:*' }],
        behavior: 'allow',
        destination: 'localSettings',
      },
    ]);
    // Recorded, but not applied by Warden's policy: the CLI's own settings hold it.
    const before = sup.listApprovals().length;
    fake.ask('Bash', { command: 'npm test' });
    await waitForEvent(sup, 'approval.requested', (e) => e.data.approvalId !== requested.data.approvalId);
    assert.equal(sup.listApprovals().length, before + 1);
  });

  it('grants only the rules shown or narrower ones, and only ones that cover the request', async (t) => {
    const { sup, made, thread } = await openFakeSupervisor(t);
    const { fake } = await startTurn(sup, made, thread.id, 'one');
    const asked = fake.ask('Bash', { command: 'npm test -- --watch' }, { suggestions: SUGGEST_PREFIX });
    const { data } = await waitForEvent(sup, 'approval.requested');
    const id = data.approvalId;
    for (const rules of [['Bash(npm:*)'], ['Bash'], ['Bash(npm test*)'], ['Read(//etc/hostname)'], []])
      await assert.rejects(
        sup.decide(id, { behavior: 'allow_always', scope: 'thread', rules }),
        ValidationError,
      );
    await assert.rejects(
      sup.decide(id, { behavior: 'allow_always', rules: ['Bash(npm test -- --coverage:*)'] }),
      /does not cover this request/,
    );
    await assert.rejects(
      sup.decide(id, { behavior: 'allow_always', scope: 'forever' as never }),
      (error: unknown) => error instanceof ValidationError && error.field === 'scope',
    );
    assert.equal(sup.listApprovals({ status: 'pending' }).length, 1, 'a refused choice settles nothing');
    await sup.decide(id, { behavior: 'allow_always', scope: 'thread', rules: ['Bash(npm test -- --watch)'] });
    assert.equal((await asked.result).behavior, 'allow');
    assert.deepEqual(
      sup.getThread(thread.id).thread.grants.map((g) => g.rule),
      ['Bash(npm test -- --watch)'],
    );
  });

  it('a read through a link: the rules shown are granted as shown, and hold through the link only', async (t) => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-grant-link-')));
    t.after(() => rmSync(root, { recursive: true, force: true }));
    writeFileSync(join(root, 'target'), 'x\n');
    writeFileSync(join(root, 'other'), 'y\n');
    const link = join(root, 'link');
    symlinkSync(join(root, 'target'), link);
    const { sup, made, thread } = await openFakeSupervisor(t);
    const { fake } = await startTurn(sup, made, thread.id, 'one');
    const suggestions = [
      {
        type: 'addRules',
        rules: [{ toolName: 'Read', ruleContent: `/${root}/**` }],
        behavior: 'allow',
        destination: 'session',
      },
    ];
    const asked = fake.ask(
      'Bash',
      { command: `cat ${link}` },
      { suggestions, blockedPath: join(root, 'target') },
    );
    const { data } = await waitForEvent(sup, 'approval.requested');
    const shown = [`Bash(cat ${link})`, `Read(/${link})`, `Read(/${root}/target)`];
    assert.deepEqual(data.alwaysAllowRules, shown, 'the path as the command names it, and where it leads');
    // The Read rules go with the command: alone they do not cover it, and a Read rule not shown is refused.
    await assert.rejects(
      sup.decide(data.approvalId, { behavior: 'allow_always', rules: shown.slice(1) }),
      /do not cover this request/,
    );
    await assert.rejects(
      sup.decide(data.approvalId, { behavior: 'allow_always', rules: [shown[0]!, `Read(/${root}/other)`] }),
      /wider than the rules shown/,
    );
    // As the card sends them (every rule, explicitly), for the thread.
    await sup.decide(data.approvalId, { behavior: 'allow_always', scope: 'thread', rules: shown });
    assert.equal((await asked.result).behavior, 'allow');

    // A Read of the link is allowed by the pair while it leads there; pointed elsewhere, it asks again.
    assert.equal((await fake.ask('Read', { file_path: link }).result).behavior, 'allow');
    rmSync(link);
    symlinkSync(join(root, 'other'), link);
    fake.ask('Read', { file_path: link });
    const again = await waitForEvent(sup, 'approval.requested', (e) => e.data.toolName === 'Read');
    assert.deepEqual(again.data.alwaysAllowRules, [`Read(/${link})`, `Read(/${root}/other)`]);
  });

  it('ruleWithin: the same rule, or a longer plain prefix or exact command of a Bash prefix rule', () => {
    const table: [string, string, boolean][] = [
      ['Read(//etc/hostname)', 'Read(//etc/hostname)', true],
      ['Read(//etc/*)', 'Read(//etc/hostname)', false],
      ['Bash(git push origin:*)', 'Bash(git push:*)', true],
      ['Bash(git push)', 'Bash(git push:*)', true],
      ['Bash(git pushy)', 'Bash(git push:*)', false],
      ['Bash(git push *)', 'Bash(git push:*)', false],
      ["Bash(git push 'a')", 'Bash(git push:*)', false],
      ['Bash(git:*)', 'Bash(git push:*)', false],
      ['Bash(git push -f)', 'Bash(git push -f)', true],
      ['Bash(git push -f --x)', 'Bash(git push -f)', false],
    ];
    for (const [candidate, shown, expected] of table)
      assert.equal(ruleWithin(candidate, shown), expected, `${candidate} within ${shown}`);
  });
});
