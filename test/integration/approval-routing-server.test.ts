// Roles, scopes and routes over HTTP, on a scripted CLI and a route clock moved by hand: an approval is
// offered to the deciders whose scope covers it — the others get a 403 that says who may answer, an
// observer sees it and may not answer — the list says who may answer, webhooks of deciders outside the
// scope hear nothing; the route reminds those it was offered to, then escalates it to a decider who
// answers it, each step an event and an audit record.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';

import { createServer } from '../../src/server/index.js';
import { allEvents, waitForEvent } from '../e2e/helpers/supervisor-session.js';
import { openFakeSupervisor, startTurn } from '../fixtures/supervisor-fake-query.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { decryptPush, deviceKeys, startPushService } from './helpers/notify-push-service.js';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js';

const MINUTE = 60_000;
const ROUTES = [{ name: 'ops', remindAfterMs: 5 * MINUTE, escalateAfterMs: 10 * MINUTE, to: ['bob'] }];

async function setup(t: TestContext) {
  const clock = new ManualClock();
  const fixture = await openFakeSupervisor(t, {}, { routes: ROUTES, routeClock: clock });
  const receivers: Record<'owner' | 'alice' | 'carol' | 'bob', Receiver> = {
    owner: await startReceiver(t),
    alice: await startReceiver(t),
    carol: await startReceiver(t),
    bob: await startReceiver(t),
  };
  const server = await createServer({
    supervisor: fixture.sup,
    dataDir: fixture.dataDir,
    notify: {
      webhooks: [
        { url: receivers.owner.url },
        { url: receivers.alice.url, decider: 'alice' },
        { url: receivers.carol.url, decider: 'carol' },
        { url: receivers.bob.url, decider: 'bob' },
      ],
    },
    onError: () => {},
  });
  t.after(() => server.close());
  const tokens = {
    alice: server.deciders.create('alice', { scope: { projects: [fixture.cwd] } }).token,
    carol: server.deciders.create('carol', { scope: { projects: ['/srv/elsewhere'] } }).token,
    bob: server.deciders.create('bob', { scope: { escalationOnly: true } }).token,
    olga: server.deciders.create('olga', { role: 'observer' }).token,
    // Answers only network calls: `git push` is one.
    nina: server.deciders.create('nina', { role: 'operator', scope: { risks: ['network'] } }).token,
  };
  const api = async (path: string, token: string, body?: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, json: JSON.parse(await response.text()) };
  };
  return { ...fixture, clock, server, receivers, tokens, api };
}

describe('roles, scopes and routes over HTTP', () => {
  it('offers an approval to the deciders whose scope covers it, then escalates it to one who answers', async (t) => {
    const { sup, made, thread, clock, server, receivers, tokens, api } = await setup(t);
    const { fake } = await startTurn(sup, made, thread.id, 'go');
    const asked = fake.ask('Bash', { command: 'git push origin main' });
    const { data } = await waitForEvent(sup, 'approval.requested');
    const { approvalId } = data;
    const decision = { behavior: 'allow' };

    // Who may answer, as everyone sees it (the observer too).
    const listed = await api('/api/approvals?status=pending', tokens.olga);
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.json.approvals[0].answerableBy, ['alice', 'nina']);
    assert.deepEqual((await api(`/api/approvals/${approvalId}`, server.token)).json.approval.answerableBy, [
      'alice',
      'nina',
    ]);

    // Who the caller is, for the page to mark what is not its to answer.
    assert.deepEqual((await api('/api/session', tokens.carol)).json, { decider: 'carol', role: 'approver' });
    assert.deepEqual((await api('/api/session', server.token)).json, { decider: 'owner', role: null });

    // Out of scope, an observer, and a decider the route has not reached yet: 403, saying who may.
    const carol = await api(`/api/approvals/${approvalId}/decision`, tokens.carol, decision);
    assert.equal(carol.status, 403);
    assert.equal(
      carol.json.error.message,
      `Approval ${approvalId} is not in the scope of decider carol: it is answerable by alice, nina`,
    );
    const olga = await api(`/api/approvals/${approvalId}/decision`, tokens.olga, decision);
    assert.equal(olga.status, 403);
    assert.match(
      olga.json.error.message,
      /observer token \(role observer\) sees everything and decides nothing/,
    );
    assert.equal((await api(`/api/approvals/${approvalId}/decision`, tokens.bob, decision)).status, 403);
    // A batch may not carry it past the scope either; its preview leaves it out.
    const batch = await api('/api/approvals/batch', tokens.carol, {
      approvalIds: [approvalId],
      behavior: 'allow',
    });
    assert.equal(batch.status, 403);
    const preview = await api('/api/approvals/batch/preview', tokens.carol, {
      select: { threadId: thread.id },
    });
    assert.deepEqual(preview.json.approvals, []);
    assert.match(preview.json.leftOut[0].reason, /not in the scope of carol: answerable by alice, nina/);

    // Told: the owner's webhook and alice's; carol's and bob's nothing.
    const [toOwner] = await receivers.owner.waitFor(1);
    const [toAlice] = await receivers.alice.waitFor(1);
    assert.equal(JSON.parse(toOwner?.body ?? '{}').approval.id, approvalId);
    assert.equal(JSON.parse(toAlice?.body ?? '{}').approval.id, approvalId);

    // The route reminds those it was offered to.
    clock.advance(5 * MINUTE);
    await waitForEvent(sup, 'approval.reminded');
    const [, reminder] = await receivers.alice.waitFor(2);
    assert.deepEqual(JSON.parse(reminder?.body ?? '{}').route, { name: 'ops', step: 'reminded' });
    await receivers.owner.waitFor(2);

    // Then escalates: bob may answer, and is told; no one told before is told again.
    clock.advance(5 * MINUTE);
    await waitForEvent(sup, 'approval.escalated');
    const [toBob] = await receivers.bob.waitFor(1);
    assert.deepEqual(JSON.parse(toBob?.body ?? '{}').route, { name: 'ops', step: 'escalated' });
    assert.deepEqual((await api(`/api/approvals/${approvalId}`, tokens.olga)).json.approval.answerableBy, [
      'alice',
      'bob',
      'nina',
    ]);
    const answered = await api(`/api/approvals/${approvalId}/decision`, tokens.bob, decision);
    assert.equal(answered.status, 200);
    assert.deepEqual(answered.json.approval.decision.decidedBy, { name: 'bob', via: 'api' });
    assert.equal((await asked.result).behavior, 'allow');

    // The settling goes where the request went: carol's receiver never heard of it.
    await receivers.bob.waitFor(2);
    await receivers.alice.waitFor(3);
    assert.equal(receivers.carol.received.length, 0);
    // The owner's: the request, the reminder and the settling — an escalation is news to bob only.
    await receivers.owner.waitFor(3);
    assert.equal(receivers.owner.received.length, 3);

    const types = (await allEvents(sup))
      .map((event) => event.type)
      .filter((type) => type.startsWith('approval.'));
    assert.deepEqual(types, [
      'approval.requested',
      'approval.reminded',
      'approval.escalated',
      'approval.decided',
    ]);
    const audit = sup
      .readAudit({ threadId: thread.id })
      .map((row) => JSON.parse(row.text) as { kind: string });
    assert.deepEqual(
      audit.map((record) => record.kind),
      ['reminded', 'escalated', 'decision'],
    );
  });

  it('makes deciders with a scope or as observers over the tokens API, and refuses a scope that cannot hold', async (t) => {
    const { server, api } = await setup(t);
    const post = (body: unknown) =>
      fetch(`${server.url}/api/tokens`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const made = await post({ name: 'dora', scope: { tools: ['Bash'], risks: ['protected'] } });
    assert.equal(made.status, 201);
    assert.deepEqual(JSON.parse(await made.text()).decider.scope, { tools: ['Bash'], risks: ['protected'] });
    assert.equal((await post({ name: 'ed', scope: { projects: ['relative'] } })).status, 400);
    assert.equal((await post({ name: 'fay', role: 'observer', scope: { tools: ['Bash'] } })).status, 400);
    const listed = await api('/api/tokens', server.token);
    assert.deepEqual(
      listed.json.deciders.map((d: { name: string; role: string }) => [d.name, d.role]),
      [
        ['alice', 'approver'],
        ['carol', 'approver'],
        ['bob', 'approver'],
        ['olga', 'observer'],
        ['nina', 'operator'],
        ['dora', 'approver'],
      ],
    );
  });

  it("pushes to a decider's devices what that decider may answer, and an escalation to the new one's", async (t) => {
    const clock = new ManualClock();
    const routes = [{ name: 'ops', escalateAfterMs: 10 * MINUTE, to: ['bob'] }];
    const { sup, made, thread, cwd, dataDir } = await openFakeSupervisor(
      t,
      {},
      { routes, routeClock: clock },
    );
    const service = await startPushService(t);
    const server = await createServer({
      supervisor: sup,
      dataDir,
      notify: { push: { allowLocalEndpoints: true } },
      onError: () => {},
    });
    t.after(() => server.close());
    const devices = { alice: deviceKeys(), carol: deviceKeys(), bob: deviceKeys() };
    const tokens = {
      alice: server.deciders.create('alice', { scope: { projects: [cwd] } }).token,
      carol: server.deciders.create('carol', { scope: { projects: ['/srv/elsewhere'] } }).token,
      bob: server.deciders.create('bob', { scope: { escalationOnly: true } }).token,
    };
    for (const name of ['alice', 'carol', 'bob'] as const) {
      const response = await fetch(`${server.url}/api/push/subscriptions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens[name]}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          subscription: { endpoint: service.endpoint(name), keys: devices[name].keys },
        }),
      });
      assert.equal(response.status, 201);
      assert.equal(JSON.parse(await response.text()).subscription.decider, name);
    }
    const { fake } = await startTurn(sup, made, thread.id, 'go');
    const asked = fake.ask('Bash', { command: 'git push' });
    const [first] = await service.waitFor(1);
    assert.equal(first?.path, '/push/alice');

    clock.advance(10 * MINUTE);
    const [, second] = await service.waitFor(2);
    assert.equal(second?.path, '/push/bob');
    const escalated = JSON.parse(decryptPush(second.body, devices.bob)) as { type: string; title: string };
    assert.deepEqual([escalated.type, escalated.title], ['approval.requested', 'Bash wants approval']);

    const [approval] = sup.listApprovals({ status: 'pending' });
    assert.ok(approval);
    await sup.decide(approval.id, { behavior: 'deny', message: 'no' });
    await asked.result;
    const all = await service.waitFor(4);
    assert.deepEqual(
      all
        .slice(2)
        .map((push) => push.path)
        .sort(),
      ['/push/alice', '/push/bob'],
    );
    assert.ok(!service.received.some((push) => push.path === '/push/carol'), 'carol was told nothing');
  });
});
