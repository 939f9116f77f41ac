/* eslint-disable @typescript-eslint/no-unsafe-return -- JSON responses are inspected loosely, as in the other tests */
// Named deciders against a real Supervisor and server on 127.0.0.1 (the CLI is the scripted stand-in):
// the owner makes, lists and revokes tokens over HTTP; decisions made by two deciders are recorded with
// their names (approval, event, audit record); a browser login for a decider decides as that decider
// through the web; revoking a token closes its open WebSockets with 4001 within a second (measured), and
// its Bearer token, its cookie and a new WebSocket get 401.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';

import WebSocket from 'ws';

import { createServer, type WardenServer } from '../../src/server/index.js';
import type { AuditRecord } from '../../src/store/audit-chain.js';
import { waitForEvent } from '../e2e/helpers/supervisor-session.js';
import { loginWithLink } from '../e2e/helpers/server-login.js';
import { openFakeSupervisor, startTurn } from '../fixtures/supervisor-fake-query.js';

async function setup(t: TestContext) {
  const fixture = await openFakeSupervisor(t);
  const errors: unknown[] = [];
  const server = await createServer({
    supervisor: fixture.sup,
    dataDir: fixture.dataDir,
    onError: (error) => errors.push(error),
  });
  t.after(() => server.close());
  const api = async (
    path: string,
    init: { token?: string; cookie?: string; method?: string; body?: unknown } = {},
  ) => {
    const headers: Record<string, string> = {};
    if (init.cookie !== undefined) headers.cookie = init.cookie;
    else headers.authorization = `Bearer ${init.token ?? server.token}`;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    if (init.cookie !== undefined) headers.origin = server.url;
    const response = await fetch(`${server.url}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers,
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    const text = await response.text();
    const isJson = /^application\/json(;|$)/.test(response.headers.get('content-type') ?? '');
    return { status: response.status, json: isJson ? JSON.parse(text) : null, text };
  };
  return { ...fixture, server, api, errors };
}

function openSocket(server: WardenServer, headers: Record<string, string>) {
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws`, {
    headers: { origin: server.url, ...headers },
  });
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_request, response) =>
      reject(Object.assign(new Error('refused'), { status: response.statusCode })),
    );
    ws.once('error', reject);
  });
  opened.catch(() => undefined);
  const closed = new Promise<{ code: number; at: number }>((resolve) =>
    ws.once('close', (code) => resolve({ code, at: performance.now() })),
  );
  return { opened, closed };
}

describe('named deciders', () => {
  it('the owner makes, lists and revokes tokens; a decider may not', async (t) => {
    const { api } = await setup(t);
    const made = await api('/api/tokens', { body: { name: 'alice' } });
    assert.equal(made.status, 201);
    assert.equal(made.json.decider.name, 'alice');
    assert.match(made.json.token, /^wdn_[A-Za-z0-9_-]{43}$/);
    assert.match(made.json.loginLink, /\/login#[0-9a-z]+\.[A-Za-z0-9_-]{22}\.alice\.[A-Za-z0-9_-]{43}$/);
    assert.equal((await api('/api/tokens', { body: { name: 'alice' } })).status, 409);
    assert.equal((await api('/api/tokens', { body: { name: 'Not A Name' } })).status, 400);
    assert.equal((await api('/api/tokens', { body: { name: 'owner' } })).status, 400);

    const listed = await api('/api/tokens');
    assert.deepEqual(Object.keys(listed.json.deciders[0]).sort(), [
      'createdAt',
      'lastUsedAt',
      'name',
      'revokedAt',
      'role',
      'scope',
    ]);
    assert.equal(listed.json.deciders[0].role, 'approver', 'a new token is decide-only unless asked');
    assert.ok(!listed.text.includes(made.json.token), 'the list never holds a token');

    const asAlice = await api('/api/threads', { token: made.json.token });
    assert.equal(asAlice.status, 200, 'a named token is a Bearer credential');
    assert.equal((await api('/api/tokens', { token: made.json.token })).status, 403);
    assert.equal(
      (await api('/api/tokens', { token: made.json.token, body: { name: 'mallory' } })).status,
      403,
    );
    assert.notEqual((await api('/api/tokens')).json.deciders[0].lastUsedAt, null, 'last use is recorded');
    assert.equal((await api('/api/sessions', { token: made.json.token, method: 'DELETE' })).status, 403);
    const operator = (await api('/api/tokens', { body: { name: 'oscar', role: 'operator' } })).json;
    const signOutAll = await api('/api/sessions', { token: operator.token, method: 'DELETE' });
    assert.equal(signOutAll.status, 403, 'not even an operator can sign everyone else out');
    assert.equal(
      signOutAll.json.error.message,
      'Only the owner (the server token) ends every browser session',
    );

    const revoked = await api('/api/tokens/alice', { method: 'DELETE' });
    assert.equal(revoked.status, 200);
    assert.notEqual(revoked.json.decider.revokedAt, null);
    assert.equal((await api('/api/threads', { token: made.json.token })).status, 401);
    assert.equal((await api('/api/tokens/nobody', { method: 'DELETE' })).status, 404);
    // A revoked name may be given a new token; the old one stays dead.
    const again = await api('/api/tokens', { body: { name: 'alice' } });
    assert.equal(again.status, 201);
    assert.equal((await api('/api/threads', { token: again.json.token })).status, 200);
    assert.equal((await api('/api/threads', { token: made.json.token })).status, 401);
  });

  it('an approver answers and reads but cannot start or steer an agent; an operator can', async (t) => {
    const { sup, made, thread, api } = await setup(t);
    const approver = (await api('/api/tokens', { body: { name: 'carol' } })).json;
    const operator = (await api('/api/tokens', { body: { name: 'dan', role: 'operator' } })).json;
    assert.equal(operator.decider.role, 'operator');
    const badRole = await api('/api/tokens', { body: { name: 'eve', role: 'owner' } });
    assert.equal(badRole.status, 400);
    assert.match(badRole.json.error.message, /role must be one of approver, operator/);

    const asCarol = (path: string, init: { method?: string; body?: unknown } = {}) =>
      api(path, { ...init, token: approver.token });
    assert.equal((await asCarol('/api/threads')).status, 200, 'an approver reads');
    assert.equal((await asCarol(`/api/threads/${thread.id}`)).status, 200);
    const steering: [string, { method?: string; body?: unknown }][] = [
      ['/api/threads', { body: { cwd: '/tmp', mode: 'full-access' } }],
      [`/api/threads/${thread.id}`, { method: 'PATCH', body: { mode: 'full-access' } }],
      [`/api/threads/${thread.id}/messages`, { body: { text: 'rm -rf everything' } }],
      [`/api/threads/${thread.id}/deadlines`, { method: 'PUT', body: { afterMs: 1000 } }],
      [`/api/threads/${thread.id}/rules`, { method: 'DELETE', body: { rule: 'Bash(ls:*)' } }],
      ['/api/sessions', { method: 'DELETE' }],
    ];
    for (const [path, init] of steering) {
      const refused = await asCarol(path, init);
      assert.equal(refused.status, 403, `${init.method ?? 'POST'} ${path}`);
      assert.equal(refused.json.error.code, 'FORBIDDEN');
      assert.match(
        refused.json.error.message,
        /^A decide-only token \(role approver\) answers approvals and reads/,
      );
    }
    assert.equal(sup.listThreads().length, 1, 'no thread was made');
    assert.equal(sup.getThread(thread.id).thread.mode, 'supervised', 'the mode is unchanged');

    const { fake } = await startTurn(sup, made, thread.id, 'work');
    const ask = async (command: string) => {
      const seen = new Set(sup.listApprovals().map((a) => a.id));
      const asked = fake.ask('Bash', { command });
      const event = await waitForEvent(sup, 'approval.requested', (e) => !seen.has(e.data.approvalId));
      return { id: event.data.approvalId, asked };
    };
    const first = await ask('make');
    const widening = await asCarol(`/api/approvals/${first.id}/decision`, {
      body: { behavior: 'allow_always', scope: 'project' },
    });
    assert.equal(widening.status, 403);
    assert.match(widening.json.error.message, /project's settings file/);
    const moding = await asCarol(`/api/approvals/${first.id}/decision`, {
      body: { behavior: 'allow', mode: 'full-access' },
    });
    assert.equal(moding.status, 403);
    assert.match(moding.json.error.message, /may not change the mode/);
    const answered = await asCarol(`/api/approvals/${first.id}/decision`, { body: { behavior: 'allow' } });
    assert.equal(answered.status, 200, answered.text);
    assert.deepEqual(answered.json.approval.decision.decidedBy, { name: 'carol', via: 'api' });
    await first.asked.result;

    const byOperator = await api(`/api/threads/${thread.id}/deadlines`, {
      method: 'PUT',
      body: { afterMs: 60_000 },
      token: operator.token,
    });
    assert.equal(byOperator.status, 200, byOperator.text);
  });

  it('decisions by two deciders (API and web) are recorded with their names, in the approval and the audit', async (t) => {
    const { sup, made, thread, server, api } = await setup(t);
    const alice = (await api('/api/tokens', { body: { name: 'alice' } })).json;
    const bob = (await api('/api/tokens', { body: { name: 'bob' } })).json;
    const bobLogin = await loginWithLink(bob.loginLink);
    assert.equal(bobLogin.status, 204);

    const { fake } = await startTurn(sup, made, thread.id, 'work');
    const decideAs = async (command: string, how: { token?: string; cookie?: string }, behavior: string) => {
      const seen = new Set(sup.listApprovals().map((a) => a.id));
      const asked = fake.ask('Bash', { command });
      const event = await waitForEvent(sup, 'approval.requested', (e) => !seen.has(e.data.approvalId));
      const answer = await api(`/api/approvals/${event.data.approvalId}/decision`, {
        ...how,
        body: { behavior },
      });
      assert.equal(answer.status, 200, answer.text);
      await asked.result;
      return answer.json.approval;
    };
    const byAlice = await decideAs('make', { token: alice.token }, 'allow');
    const byBob = await decideAs('rm -rf /tmp/x', { cookie: bobLogin.cookie }, 'deny');
    const byOwner = await decideAs('ls', {}, 'allow');
    assert.deepEqual(byAlice.decision.decidedBy, { name: 'alice', via: 'api' });
    assert.deepEqual(byBob.decision.decidedBy, { name: 'bob', via: 'web' });
    assert.deepEqual(byOwner.decision.decidedBy, { name: 'owner', via: 'api' });

    const exported = await api('/api/audit?format=jsonl');
    assert.equal(exported.status, 200);
    const records = exported.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as AuditRecord & { hash: string });
    const decisions = records.filter((r) => r.kind === 'decision');
    assert.deepEqual(
      decisions.map((r) => [r.decidedBy?.name, r.decidedBy?.via, r.outcome, r.input?.command]),
      [
        ['alice', 'api', 'allow', 'make'],
        ['bob', 'web', 'deny', 'rm -rf /tmp/x'],
        ['owner', 'api', 'allow', 'ls'],
      ],
    );
    assert.deepEqual((await api('/api/audit/verify')).json, {
      ok: true,
      records: 4,
      head: records.at(-1)?.hash,
      covers: { fromEventSeq: 1, throughEventSeq: sup.lastSeq() },
    });
    void server;
  });

  it('revoking a token closes its WebSockets (4001) within a second; then its token, cookie and sockets get 401', async (t) => {
    const { server, api } = await setup(t);
    const carol = (await api('/api/tokens', { body: { name: 'carol' } })).json;
    const login = await loginWithLink(carol.loginLink);
    assert.equal(login.status, 204);
    const viaToken = openSocket(server, { authorization: `Bearer ${carol.token}` });
    const viaCookie = openSocket(server, { cookie: login.cookie });
    const owners = openSocket(server, { authorization: `Bearer ${server.token}` });
    await Promise.all([viaToken.opened, viaCookie.opened, owners.opened]);

    const started = performance.now();
    const revoked = await api('/api/tokens/carol', { method: 'DELETE' });
    assert.equal(revoked.status, 200);
    const [tokenClosed, cookieClosed] = await Promise.all([viaToken.closed, viaCookie.closed]);
    const elapsed = Math.max(tokenClosed.at, cookieClosed.at) - started;
    t.diagnostic(`revoke → both sockets closed (4001) in ${elapsed.toFixed(1)} ms`);
    assert.equal(tokenClosed.code, 4001);
    assert.equal(cookieClosed.code, 4001);
    assert.ok(elapsed < 1000, `closed within a second (took ${elapsed} ms)`);

    assert.equal((await api('/api/threads', { token: carol.token })).status, 401);
    assert.equal((await api('/api/threads', { cookie: login.cookie })).status, 401);
    await assert.rejects(openSocket(server, { authorization: `Bearer ${carol.token}` }).opened, {
      status: 401,
    });
    await assert.rejects(openSocket(server, { cookie: login.cookie }).opened, { status: 401 });
    // A login link minted for carol before the revocation opens nothing now.
    assert.equal((await loginWithLink(server.loginLink('carol'))).status, 401);
    // The owner's socket is untouched.
    const stillOpen = await Promise.race([owners.closed.then(() => false), Promise.resolve(true)]);
    assert.equal(stillOpen, true);
  });
});
