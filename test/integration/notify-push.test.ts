/* eslint-disable @typescript-eslint/no-explicit-any -- push payloads are inspected loosely */
// The Web Push channel, server half: a device subscribes through the API, a local RFC 8030 stand-in
// receives the pushes, and the test — holding the device's private key and auth secret — decrypts them
// (RFC 8291) and verifies their VAPID signature (RFC 8292). The approval settled elsewhere is followed by
// "answered elsewhere" under the same tag; the action URL decides once; a gone subscription is forgotten;
// a hanging push service delays neither another device nor the supervisor.
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { createServer, type NotifyOptions, type WardenServer } from '../../src/server/index.js';
import type { PushPayload } from '../../src/server/notify/push-payload.js';
import { PUSH_SUBSCRIPTIONS_FILE } from '../../src/server/notify/push-subscriptions.js';
import { VAPID_KEYS_FILE } from '../../src/server/notify/vapid-keys.js';
import { openFakeSupervisor, startTurn } from '../fixtures/supervisor-fake-query.js';
import {
  decryptPush,
  deviceKeys,
  startPushService,
  verifyVapid,
  type DeviceKeys,
} from './helpers/notify-push-service.js';

type T = Parameters<typeof openFakeSupervisor>[0];

const payloadOf = (body: Buffer, device: DeviceKeys): PushPayload =>
  JSON.parse(decryptPush(body, device)) as PushPayload;
const idsOf = async (response: Response): Promise<string[]> =>
  ((await response.json()) as { subscriptions: { id: string }[] }).subscriptions.map((s) => s.id);

const LOCAL_PUSH: NotifyOptions = { push: { allowLocalEndpoints: true, subject: 'mailto:me@example.com' } };

async function setup(t: T, notify: NotifyOptions = LOCAL_PUSH) {
  const fixture = await openFakeSupervisor(t);
  const errors: unknown[] = [];
  const start = (): Promise<WardenServer> =>
    createServer({
      supervisor: fixture.sup,
      dataDir: fixture.dataDir,
      notify,
      onError: (e) => errors.push(e),
    });
  const server = await start();
  t.after(() => server.close());
  const api = (method: string, path: string, body?: unknown, srv = server) =>
    fetch(`${srv.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${srv.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const subscribe = async (endpoint: string, device: DeviceKeys, show?: string) => {
    const response = await api('POST', '/api/push/subscriptions', {
      subscription: { endpoint, expirationTime: null, keys: device.keys },
      ...(show === undefined ? {} : { show }),
    });
    assert.equal(response.status, 201, await response.clone().text());
    return ((await response.json()) as any).subscription as { id: string; show: string; service: string };
  };
  const { fake } = await startTurn(fixture.sup, fixture.made, fixture.thread.id, 'go');
  return { ...fixture, server, start, api, subscribe, fake, errors };
}

describe('Web Push notifications', () => {
  it('pushes an encrypted, VAPID-signed prompt, then "answered elsewhere" under the same tag', async (t) => {
    const service = await startPushService(t);
    const { sup, server, api, subscribe, fake, dataDir, errors } = await setup(t);
    const keyResponse = await api('GET', '/api/push/key');
    assert.equal(keyResponse.status, 200);
    const { publicKey } = (await keyResponse.json()) as { publicKey: string };
    assert.equal(Buffer.from(publicKey, 'base64url').length, 65);
    assert.equal(server.vapidKeysPath, join(dataDir, VAPID_KEYS_FILE));
    assert.equal(statSync(join(dataDir, VAPID_KEYS_FILE)).mode & 0o777, 0o600);

    const phone = deviceKeys();
    const endpoint = service.endpoint('phone');
    const subscription = await subscribe(endpoint, phone);
    assert.deepEqual(
      { show: subscription.show, service: subscription.service },
      { show: 'preview', service: new URL(endpoint).origin },
    );
    assert.equal(statSync(join(dataDir, PUSH_SUBSCRIPTIONS_FILE)).mode & 0o777, 0o600);

    const asked = fake.ask('Bash', { command: 'npm publish --tag next' });
    const [push] = await service.waitFor(1);
    assert.ok(push);
    assert.equal(push.path, '/push/phone');
    assert.equal(push.headers['content-encoding'], 'aes128gcm');
    assert.equal(push.headers['content-type'], 'application/octet-stream');
    assert.equal(push.headers.urgency, 'high');
    assert.equal(push.headers.ttl, '3600');
    assert.match(String(push.headers.topic), /^[\w-]{1,32}$/);
    assert.ok(!push.body.includes('npm publish'), 'the push service sees ciphertext only');
    const vapid = verifyVapid(push.headers.authorization, endpoint);
    assert.equal(vapid.publicKey, publicKey, 'signed with the key the page subscribed with');
    assert.equal(vapid.claims.sub, 'mailto:me@example.com');

    const [approval] = sup.listApprovals({ status: 'pending' });
    assert.ok(approval);
    const payload = payloadOf(push.body, phone);
    assert.deepEqual(
      { type: payload.type, tag: payload.tag, approvalId: payload.approvalId, title: payload.title },
      {
        type: 'approval.requested',
        tag: `warden-approval-${approval.id}`,
        approvalId: approval.id,
        title: 'Bash wants approval',
      },
    );
    assert.equal(payload.body, 'npm publish --tag next');
    assert.match(
      payload.actions.approve ?? '',
      new RegExp(`^/hooks/approvals/${approval.id}/allow\\?token=[\\w-]{43}$`),
    );
    assert.match(
      payload.actions.deny ?? '',
      new RegExp(`^/hooks/approvals/${approval.id}/deny\\?token=[\\w-]{43}$`),
    );
    assert.ok(!JSON.stringify(payload).includes(server.token), 'the API token never leaves');
    assert.ok(!JSON.stringify(payload).includes(sup.getThread(approval.threadId).thread.cwd), 'nor the cwd');

    // Settled elsewhere (the inbox, through the API): the device is told, under the same tag.
    const decided = await api('POST', `/api/approvals/${approval.id}/decision`, { behavior: 'allow' });
    assert.equal(decided.status, 200);
    assert.equal((await asked.result).behavior, 'allow');
    const [, second] = await service.waitFor(2);
    assert.ok(second);
    assert.equal(second.headers.topic, push.headers.topic, 'same topic: a held prompt is replaced');
    verifyVapid(second.headers.authorization, endpoint);
    const resolved = payloadOf(second.body, phone);
    assert.deepEqual(
      {
        type: resolved.type,
        tag: resolved.tag,
        title: resolved.title,
        body: resolved.body,
        actions: resolved.actions,
      },
      {
        type: 'approval.resolved',
        tag: payload.tag,
        title: 'Answered elsewhere',
        body: 'Bash: allowed by user',
        actions: {},
      },
    );
    // The device's tokens were spent by the decision made elsewhere.
    const late = await fetch(`${server.url}${payload.actions.deny}`, { method: 'POST' });
    assert.equal(late.status, 409);
    assert.deepEqual(errors, []);
  });

  it('the Approve action decides once, and the same token again is a 409', async (t) => {
    const service = await startPushService(t);
    const { sup, server, subscribe, fake } = await setup(t);
    const phone = deviceKeys();
    const laptop = deviceKeys();
    await subscribe(service.endpoint('phone'), phone);
    await subscribe(service.endpoint('laptop'), laptop);
    const asked = fake.ask('Write', { file_path: '/tmp/report.txt' });
    const pushes = await service.waitFor(2);
    const byPath = new Map(pushes.map((p) => [p.path, p]));
    const forPhone = payloadOf(byPath.get('/push/phone')!.body, phone);
    const forLaptop = payloadOf(byPath.get('/push/laptop')!.body, laptop);
    assert.equal(forPhone.body, '/tmp/report.txt');
    assert.notEqual(forPhone.actions.approve, forLaptop.actions.approve, 'each device holds its own tokens');
    assert.throws(
      () => decryptPush(byPath.get('/push/phone')!.body, laptop),
      'one device cannot read another’s push',
    );

    const first = await fetch(`${server.url}${forPhone.actions.approve}`, { method: 'POST' });
    assert.equal(first.status, 200);
    assert.equal((await asked.result).behavior, 'allow');
    const approval = sup.getApproval(forPhone.approvalId);
    assert.equal(approval.status, 'allowed');
    assert.equal(approval.decision?.by, 'webhook', 'recorded as decided through an action link');
    assert.equal((await fetch(`${server.url}${forPhone.actions.approve}`, { method: 'POST' })).status, 409);
    assert.equal((await fetch(`${server.url}${forLaptop.actions.approve}`, { method: 'POST' })).status, 409);
    // Both devices are told it was answered.
    const after = await service.waitFor(4);
    const resolvedPaths = after
      .slice(2)
      .map((p) => p.path)
      .sort();
    assert.deepEqual(resolvedPaths, ['/push/laptop', '/push/phone']);
  });

  it('shows only what the device chose: no preview and no Approve for `tool`, nothing for `none`, no Approve for a cut preview', async (t) => {
    const service = await startPushService(t);
    const { subscribe, fake } = await setup(t);
    const terse = deviceKeys();
    const blank = deviceKeys();
    await subscribe(service.endpoint('terse'), terse, 'tool');
    await subscribe(service.endpoint('blank'), blank, 'none');
    const full = deviceKeys();
    await subscribe(service.endpoint('full'), full);
    fake.ask('Bash', { command: 'cat ~/.ssh/id_ed25519 \u202e#\u001b[2J' });
    const pushes = await service.waitFor(3);
    const of = (path: string, device: DeviceKeys) =>
      payloadOf(pushes.find((p) => p.path === path)!.body, device);
    const toolOnly = of('/push/terse', terse);
    assert.equal(toolOnly.title, 'Bash wants approval');
    assert.ok(!JSON.stringify(toolOnly).includes('ssh'), 'no preview');
    assert.equal(toolOnly.actions.approve, undefined, 'nothing approved unseen');
    assert.match(toolOnly.actions.deny ?? '', /\/deny\?token=/);
    const nothing = of('/push/blank', blank);
    assert.equal(nothing.title, 'Warden: an approval is waiting');
    assert.ok(!JSON.stringify(nothing).includes('Bash'));
    assert.deepEqual(nothing.actions, {});
    const shown = of('/push/full', full);
    assert.equal(
      shown.body,
      'cat ~/.ssh/id_ed25519 ⟨U+202E⟩#⟨U+001B⟩[2J',
      'invisible and control characters are shown as markers, as in the terminal',
    );

    const long = deviceKeys();
    const third = await setup(t);
    await third.subscribe(service.endpoint('long'), long);
    third.fake.ask('Bash', { command: `echo ${'x'.repeat(400)} \u202e done` });
    const [, , , cutPush] = await service.waitFor(4);
    const cut = payloadOf(cutPush!.body, long);
    assert.equal(cut.actions.approve, undefined, 'a cut preview offers no Approve');
    assert.match(cut.body, /truncated — 200 of \d+ characters shown — open Warden to approve\)$/);
  });

  it('checks subscriptions at the boundary, keeps them across a restart, and removes one on request', async (t) => {
    const service = await startPushService(t);
    const { api, start, server, subscribe } = await setup(t);
    const device = deviceKeys();
    const bad = async (subscription: unknown, expected: RegExp) => {
      const response = await api('POST', '/api/push/subscriptions', { subscription });
      assert.equal(response.status, 400);
      const body = (await response.json()) as any;
      assert.equal(body.error.code, 'VALIDATION');
      assert.match(body.error.message, expected);
    };
    await bad({ endpoint: 'http://push.example/x', keys: device.keys }, /https URL/);
    await bad({ endpoint: 'http://localhost:9/x', keys: device.keys }, /https URL/);
    await bad({ endpoint: 'https://u:p@push.example/x', keys: device.keys }, /credentials/);
    await bad({ endpoint: 'https://push.example/x', keys: { ...device.keys, auth: 'AAAA' } }, /auth/);
    const offCurve = Buffer.alloc(65, 1);
    offCurve[0] = 4;
    await bad(
      {
        endpoint: 'https://push.example/x',
        keys: { ...device.keys, p256dh: offCurve.toString('base64url') },
      },
      /P-256/,
    );
    const anonymous = await fetch(`${server.url}/api/push/subscriptions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ subscription: { endpoint: 'https://push.example/x', keys: device.keys } }),
    });
    assert.equal(anonymous.status, 401);
    assert.equal((await fetch(`${server.url}/api/push/key`)).status, 401);

    const added = await subscribe(service.endpoint('a'), device);
    const secure = await subscribe('https://push.example/send/abc', deviceKeys(), 'tool');
    const listed = await (await api('GET', '/api/push/subscriptions')).text();
    assert.deepEqual(
      (JSON.parse(listed) as { subscriptions: { id: string }[] }).subscriptions.map((s) => s.id).sort(),
      [added.id, secure.id].sort(),
    );
    assert.ok(!listed.includes(device.keys.auth), 'keys are never listed');

    await server.close();
    const again = await start();
    t.after(() => again.close());
    const kept = await idsOf(await api('GET', '/api/push/subscriptions', undefined, again));
    assert.equal(kept.length, 2, 'subscriptions outlive the server');
    assert.equal((await api('DELETE', `/api/push/subscriptions/${secure.id}`, undefined, again)).status, 204);
    assert.equal((await api('DELETE', `/api/push/subscriptions/${secure.id}`, undefined, again)).status, 404);
    assert.deepEqual(await idsOf(await api('GET', '/api/push/subscriptions', undefined, again)), [added.id]);
  });

  it('forgets a subscription the push service says is gone (410), and is off by default', async (t) => {
    const service = await startPushService(t, (_n, path) => (path === '/push/gone' ? 410 : 201));
    const { api, subscribe, fake, errors } = await setup(t);
    await subscribe(service.endpoint('gone'), deviceKeys());
    const kept = await subscribe(service.endpoint('kept'), deviceKeys());
    fake.ask('Bash', { command: 'ls' });
    await service.waitFor(2);
    const deadline = Date.now() + 5000;
    let ids: string[] = [];
    while (Date.now() < deadline) {
      ids = await idsOf(await api('GET', '/api/push/subscriptions'));
      if (ids.length === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.deepEqual(ids, [kept.id]);
    assert.deepEqual(errors, [], 'a gone subscription is not an error');

    const off = await setup(t, {});
    assert.equal(off.server.vapidKeysPath, null);
    assert.equal((await off.api('GET', '/api/push/key')).status, 404);
    assert.equal((await off.api('GET', '/api/push/subscriptions')).status, 404);
  });

  it('a hanging push service delays neither another device nor the supervisor', async (t) => {
    const service = await startPushService(t, (_n, path) => (path === '/push/stuck' ? 'hang' : 201));
    const { sup, subscribe, fake } = await setup(t, {
      ...LOCAL_PUSH,
      delivery: { timeoutMs: 60_000 },
    });
    await subscribe(service.endpoint('stuck'), deviceKeys());
    const healthy = deviceKeys();
    await subscribe(service.endpoint('healthy'), healthy);
    fake.ask('Bash', { command: 'first' });
    await service.waitFor(2);
    const [first] = sup.listApprovals({ status: 'pending' });
    assert.ok(first);
    const started = Date.now();
    await sup.decide(first.id, { behavior: 'deny', message: 'no' });
    fake.ask('Bash', { command: 'second' });
    const deadline = Date.now() + 5000;
    while (service.received.filter((p) => p.path === '/push/healthy').length < 3 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const elapsed = Date.now() - started;
    const toHealthy = service.received
      .filter((p) => p.path === '/push/healthy')
      .map((p) => payloadOf(p.body, healthy));
    assert.deepEqual(
      toHealthy.map((p) => [p.type, p.body]),
      [
        ['approval.requested', 'first'],
        ['approval.resolved', 'Bash: denied by user'],
        ['approval.requested', 'second'],
      ],
    );
    assert.ok(elapsed < 5000, `delivered in ${elapsed} ms`);
    assert.equal(
      service.received.filter((p) => p.path === '/push/stuck').length,
      1,
      'the stuck one holds the first',
    );
  });
});

describe('Web Push reminders', () => {
  it('pushes the prompt again before its deadline, then the default decision as answered', async (t) => {
    const service = await startPushService(t);
    const { sup, subscribe, fake, thread } = await setup(t);
    const phone = deviceKeys();
    await subscribe(service.endpoint('phone'), phone);
    await sup.setDeadlines(thread.id, { afterMs: 3000, rules: [] });
    const asked = fake.ask('Bash', { command: 'git push --force' });
    const pushes = await service.waitFor(3, 20_000);
    const [requested, reminder, resolved] = pushes.map((p) => payloadOf(p.body, phone));
    assert.ok(requested && reminder && resolved);
    assert.equal(requested.title, 'Bash wants approval');
    assert.equal(reminder.tag, requested.tag, 'the reminder replaces the prompt');
    assert.equal(reminder.title, 'Bash wants approval — denied in under a minute');
    assert.equal(reminder.body, 'git push --force\n(unanswered, it will be denied by default)');
    assert.notEqual(reminder.actions.approve, requested.actions.approve, 'fresh tokens');
    assert.ok(pushes[1]!.at - pushes[0]!.at >= 1000, 'about half the time before the deadline');
    assert.equal((await asked.result).behavior, 'deny');
    assert.deepEqual(
      [resolved.type, resolved.tag, resolved.body],
      ['approval.resolved', requested.tag, 'Bash: denied by timeout'],
    );
  });
});
