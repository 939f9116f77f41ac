/* eslint-disable @typescript-eslint/no-explicit-any -- webhook bodies are inspected loosely */
// The webhook channel against receivers on 127.0.0.1, with a supervisor whose CLI is scripted: signed
// bodies, single-use action links, "resolved" notices, isolation from a hanging receiver, retries with
// backoff, and the Slack and ntfy shapes.
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import {
  createServer,
  verifySignature,
  WEBHOOK_SECRET_FILE,
  type NotifyOptions,
  type WardenServer,
} from '../../src/server/index.js';
import { ActionLinks } from '../../src/server/notify/action-links.js';
import { openFakeSupervisor, startTurn } from '../fixtures/supervisor-fake-query.js';
import { startReceiver } from './helpers/webhook-receiver.js';

type T = Parameters<typeof openFakeSupervisor>[0];

async function setup(t: T, notify: NotifyOptions) {
  const fixture = await openFakeSupervisor(t);
  const errors: unknown[] = [];
  const server: WardenServer = await createServer({
    supervisor: fixture.sup,
    dataDir: fixture.dataDir,
    notify,
    onError: (error) => errors.push(error),
  });
  t.after(() => server.close());
  const { fake } = await startTurn(fixture.sup, fixture.made, fixture.thread.id, 'go');
  const secret = readFileSync(join(fixture.dataDir, WEBHOOK_SECRET_FILE), 'utf8').trim();
  return { ...fixture, server, fake, errors, secret };
}

const post = (url: string) => fetch(url, { method: 'POST' });

describe('webhook notifications', () => {
  it('posts a signed body whose allow link decides the approval once, then 409, then a resolved body', async (t) => {
    const receiver = await startReceiver(t);
    const { sup, server, fake, secret, dataDir, thread, cwd } = await setup(t, {
      webhooks: [{ url: receiver.url }],
    });
    assert.equal(server.webhookSecretPath, join(dataDir, WEBHOOK_SECRET_FILE));
    assert.equal(statSync(join(dataDir, WEBHOOK_SECRET_FILE)).mode & 0o777, 0o600);

    const asked = fake.ask('Bash', { command: 'rm -rf build\u202e && echo \u001b[2Jdone' });
    const [requested] = await receiver.waitFor(1);
    assert.ok(requested);
    assert.equal(requested.headers['content-type'], 'application/json');
    assert.equal(requested.headers['x-warden-event'], 'approval.requested');
    assert.ok(verifySignature(secret, requested.body, String(requested.headers['x-warden-signature'])));
    assert.ok(
      !verifySignature(secret, `${requested.body} `, String(requested.headers['x-warden-signature'])),
    );
    assert.ok(!requested.body.includes(server.token), 'the API token never leaves in a body');
    const body = JSON.parse(requested.body);
    const [approval] = sup.listApprovals({ status: 'pending' });
    assert.ok(approval);
    assert.equal(body.type, 'approval.requested');
    assert.equal(body.approval.id, approval.id);
    assert.equal(body.approval.threadId, thread.id);
    assert.equal(body.approval.toolName, 'Bash');
    assert.equal(body.approval.cwd, cwd);
    assert.equal(body.approval.createdAt, approval.createdAt);
    assert.equal(body.approval.preview.text, 'rm -rf build⟨U+202E⟩ && echo ⟨U+001B⟩[2Jdone');
    assert.equal(body.actions.allow.method, 'POST');
    assert.match(
      body.actions.allow.url,
      new RegExp(`^${server.url}/hooks/approvals/${approval.id}/allow\\?token=`),
    );

    // A link of one action does not work for the other, nor a forged token.
    const denyWithAllowToken = body.actions.allow.url.replace('/allow?', '/deny?');
    assert.equal((await post(denyWithAllowToken)).status, 401);
    assert.equal((await post(body.actions.allow.url.replace(/token=.*/, 'token=forged'))).status, 401);
    assert.equal((await post(body.actions.allow.url.replace(/\?token=.*/, ''))).status, 401);

    const first = await post(body.actions.allow.url);
    assert.equal(first.status, 200);
    assert.equal((await asked.result).behavior, 'allow');
    const decided = sup.getApproval(approval.id);
    assert.equal(decided.status, 'allowed');
    assert.equal(decided.decision?.by, 'webhook');

    const again = await post(body.actions.allow.url);
    assert.equal(again.status, 409);
    assert.equal(((await again.json()) as any).error.code, 'CONFLICT');
    assert.equal((await post(body.actions.deny.url)).status, 409);

    const [, resolved] = await receiver.waitFor(2);
    assert.ok(resolved);
    assert.equal(resolved.headers['x-warden-event'], 'approval.resolved');
    assert.ok(verifySignature(secret, resolved.body, String(resolved.headers['x-warden-signature'])));
    const resolvedBody = JSON.parse(resolved.body);
    assert.deepEqual(
      { id: resolvedBody.approval.id, outcome: resolvedBody.outcome, by: resolvedBody.by },
      { id: approval.id, outcome: 'allowed', by: 'webhook' },
    );
  });

  it('keeps the Host check on action links', async (t) => {
    const receiver = await startReceiver(t);
    const { fake } = await setup(t, { webhooks: [{ url: receiver.url }] });
    fake.ask('Bash', { command: 'ls' });
    const [requested] = await receiver.waitFor(1);
    const url = new URL(JSON.parse(requested?.body ?? '').actions.allow.url);
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: url.port,
          path: url.pathname + url.search,
          method: 'POST',
          headers: { host: 'evil.example' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    assert.equal(status, 403);
  });

  it('sends a resolved body when the approval is decided through the API, and says by whom', async (t) => {
    const receiver = await startReceiver(t);
    const { sup, server, fake } = await setup(t, { webhooks: [{ url: receiver.url }] });
    const asked = fake.ask('Write', { file_path: '/tmp/x', content: 'x' });
    await receiver.waitFor(1);
    const [approval] = sup.listApprovals({ status: 'pending' });
    assert.ok(approval);
    const response = await fetch(`${server.url}/api/approvals/${approval.id}/decision`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ behavior: 'deny', message: 'no' }),
    });
    assert.equal(response.status, 200);
    assert.equal((await asked.result).behavior, 'deny');
    const [, resolved] = await receiver.waitFor(2);
    const body = JSON.parse(resolved?.body ?? '');
    assert.deepEqual(
      { type: body.type, id: body.approval.id, outcome: body.outcome, by: body.by },
      { type: 'approval.resolved', id: approval.id, outcome: 'denied', by: 'user' },
    );
  });

  it('sends a resolved body when a mode change settles the approval by policy', async (t) => {
    const receiver = await startReceiver(t);
    const { sup, fake, thread } = await setup(t, { webhooks: [{ url: receiver.url }] });
    const asked = fake.ask('Bash', { command: 'ls' });
    await receiver.waitFor(1);
    await sup.setMode(thread.id, 'full-access');
    assert.equal((await asked.result).behavior, 'allow');
    const [, resolved] = await receiver.waitFor(2);
    const body = JSON.parse(resolved?.body ?? '');
    assert.deepEqual({ outcome: body.outcome, by: body.by }, { outcome: 'allowed', by: 'policy' });
  });

  it('a hanging receiver delays neither another receiver nor the supervisor', async (t) => {
    const hanging = await startReceiver(t, () => 'hang');
    const healthy = await startReceiver(t);
    const { sup, fake } = await setup(t, {
      webhooks: [{ url: hanging.url }, { url: healthy.url }],
      delivery: { timeoutMs: 60_000 },
    });
    fake.ask('Bash', { command: 'first' });
    await healthy.waitFor(1);
    await hanging.waitFor(1); // and it never answers
    const [first] = sup.listApprovals({ status: 'pending' });
    assert.ok(first);

    const started = Date.now();
    const decided = await sup.decide(first.id, { behavior: 'allow' });
    assert.equal(decided.status, 'allowed');
    fake.ask('Bash', { command: 'second' });
    const got = await healthy.waitFor(3, 2000);
    const elapsed = Date.now() - started;
    assert.deepEqual(
      got.map((r) => r.headers['x-warden-event']),
      ['approval.requested', 'approval.resolved', 'approval.requested'],
    );
    assert.equal(JSON.parse(got[2]?.body ?? '').approval.preview.text, 'second');
    assert.ok(elapsed < 2000, `delivered in ${elapsed} ms`);
    assert.equal(hanging.received.length, 1, 'the hanging receiver still holds the first delivery');
  });

  it('retries with backoff a receiver that fails twice, then gives up on one that keeps failing', async (t) => {
    const flaky = await startReceiver(t, (n) => (n <= 2 ? 503 : 200));
    const dead = await startReceiver(t, () => 500);
    const { fake, errors } = await setup(t, {
      webhooks: [{ url: flaky.url }, { url: dead.url }],
      delivery: { baseDelayMs: 100, attempts: 3 },
    });
    fake.ask('Bash', { command: 'ls' });
    const tries = await flaky.waitFor(3);
    assert.deepEqual(
      tries.map((r) => r.headers['x-warden-attempt']),
      ['1', '2', '3'],
    );
    assert.equal(new Set(tries.map((r) => r.headers['x-warden-delivery'])).size, 1, 'one delivery id');
    const [a, b, c] = tries.map((r) => r.at);
    assert.ok(b! - a! >= 50, `first retry after ${b! - a!} ms (at least half of 100)`);
    assert.ok(c! - b! >= 100, `second retry after ${c! - b!} ms (at least half of 200)`);
    await dead.waitFor(3);
    const deadline = Date.now() + 2000;
    while (errors.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    assert.equal(errors.length, 1);
    assert.equal((errors[0] as any).code, 'WEBHOOK_FAILED');
    assert.match((errors[0] as Error).message, /answered 500/);
    assert.equal(flaky.received.length, 3, 'a success is not retried');
  });

  it('renders Slack and ntfy shapes, and an ntfy action decides', async (t) => {
    const slack = await startReceiver(t);
    const ntfy = await startReceiver(t);
    const { sup, fake, secret } = await setup(t, {
      webhooks: [
        { url: slack.url, format: 'slack' },
        { url: ntfy.url, format: 'ntfy' },
      ],
    });
    const asked = fake.ask('Bash', { command: 'echo <@channel> & <http://x|y>' });
    const [slackBody] = await slack.waitFor(1);
    const [ntfyBody] = await ntfy.waitFor(1);
    assert.ok(slackBody && ntfyBody);
    assert.ok(verifySignature(secret, slackBody.body, String(slackBody.headers['x-warden-signature'])));
    assert.ok(verifySignature(secret, ntfyBody.body, String(ntfyBody.headers['x-warden-signature'])));

    const message = JSON.parse(slackBody.body);
    assert.equal(typeof message.text, 'string');
    assert.ok(Array.isArray(message.blocks));
    const section = message.blocks[0].text.text as string;
    assert.match(section, /echo &lt;@channel&gt; &amp; &lt;http:\/\/x\|y&gt;/);
    assert.ok(!section.includes('<@channel>'), 'agent text cannot mention or link in Slack');

    assert.match(String(ntfyBody.headers['content-type']), /^text\/plain/);
    assert.equal(ntfyBody.headers.title, 'Warden: Bash wants approval');
    const actions = String(ntfyBody.headers.actions);
    const allow = /http, Allow, (\S+), method=POST, clear=true/.exec(actions)?.[1];
    assert.match(actions, /http, Deny, \S+, method=POST, clear=true/);
    assert.match(ntfyBody.body, /echo <@channel> & <http:\/\/x\|y>/);
    assert.ok(allow);
    assert.equal((await post(allow)).status, 200);
    assert.equal((await asked.result).behavior, 'allow');
    assert.equal(sup.listApprovals({ status: 'allowed' }).length, 1);

    const [, slackResolved] = await slack.waitFor(2);
    const [, ntfyResolved] = await ntfy.waitFor(2);
    assert.match(JSON.parse(slackResolved?.body ?? '').text, /was allowed by webhook; answered elsewhere/);
    assert.equal(ntfyResolved?.headers.title, 'Warden: Bash allowed');
  });

  it('refuses URLs that are not http(s) and formats it does not know; is off without webhooks', async (t) => {
    const { sup, dataDir } = await openFakeSupervisor(t);
    await assert.rejects(
      createServer({ supervisor: sup, dataDir, notify: { webhooks: [{ url: 'file:///etc/passwd' }] } }),
      TypeError,
    );
    await assert.rejects(
      createServer({
        supervisor: sup,
        dataDir,
        notify: { webhooks: [{ url: 'http://x', format: 'xml' as never }] },
      }),
      TypeError,
    );
    const plain = await createServer({ supervisor: sup, dataDir });
    t.after(() => plain.close());
    assert.equal(plain.webhookSecretPath, null);
    assert.equal((await post(`${plain.url}/hooks/approvals/a/allow?token=x`)).status, 404);
  });

  it('reminds before the deadline with fresh links, in every format; the deadline then settles it', async (t) => {
    const json = await startReceiver(t);
    const slack = await startReceiver(t);
    const ntfy = await startReceiver(t);
    const { sup, fake, thread, secret } = await setup(t, {
      webhooks: [{ url: json.url }, { url: slack.url, format: 'slack' }, { url: ntfy.url, format: 'ntfy' }],
    });
    // The scripted CLI holds no pipes: keep the process up while the deadline runs.
    const hold = setInterval(() => undefined, 1000);
    t.after(() => clearInterval(hold));
    await sup.setDeadlines(thread.id, { afterMs: 3000 });
    const asked = fake.ask('Bash', { command: 'git push --force' });
    const [requested, reminded, resolved] = await json.waitFor(3);
    assert.ok(requested && reminded && resolved);
    assert.ok(verifySignature(secret, reminded.body, String(reminded.headers['x-warden-signature'])));
    const first = JSON.parse(requested.body);
    const again = JSON.parse(reminded.body);
    assert.equal(first.reminder, undefined);
    assert.deepEqual(again.reminder, { deadlineAt: sup.listApprovals()[0]?.deadline?.at, behavior: 'deny' });
    assert.notEqual(again.actions.allow.url, first.actions.allow.url, 'fresh links');
    assert.equal((await asked.result).behavior, 'deny');
    assert.deepEqual(
      [JSON.parse(resolved.body).outcome, JSON.parse(resolved.body).by],
      ['denied', 'timeout'],
    );
    const [, slackReminder] = await slack.waitFor(2);
    assert.match(JSON.parse(slackReminder?.body ?? '{}').text, /reminder: denied by default at /);
    const [, ntfyReminder] = await ntfy.waitFor(2);
    assert.match(String(ntfyReminder?.headers.title), /reminder: denied by default at /);
  });

  it('an action link expires', () => {
    let now = 1_000_000;
    const links = new ActionLinks({ ttlMs: 1000, now: () => now });
    const token = links.mint('a1', 'allow');
    now += 1000;
    assert.equal(links.redeem('a1', 'allow', token), 'expired');
    const fresh = links.mint('a1', 'deny');
    assert.equal(links.size, 1, 'expired tokens are dropped');
    assert.equal(links.redeem('a1', 'deny', fresh), 'ok');
    assert.equal(links.redeem('a1', 'deny', fresh), 'spent');
  });
});
