/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-return -- JSON responses are inspected loosely, as in the other tests */
// The HTTP + WebSocket API against a real Supervisor on 127.0.0.1: authentication (token, session cookie,
// token file), Origin and Host checks, body validation and limits, status codes, and the event stream's
// replay. The approval tests drive the pinned real CLI with the mock model.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { createServer, TOKEN_FILE, type ServerMessage } from '../../src/server/index.js';
import { BACKGROUND_AGENT_PROMPT, backgroundSubagentScenario, scenario } from '../../src/testing/index.js';
import { loginWithLink } from '../e2e/helpers/server-login.js';
import { connectSocket, startServerSession } from '../e2e/helpers/server-session.js';

const isEvent = (type: string) => (m: ServerMessage) => m.type === 'event' && m.event.type === type;

describe('server API: authentication', () => {
  it('refuses a request without the token, or with a wrong one (401)', async (t) => {
    const { api } = await startServerSession(t);
    const missing = await api('/api/threads', { auth: false });
    assert.equal(missing.status, 401);
    assert.equal(missing.json.error.code, 'UNAUTHORIZED');
    const wrong = await api('/api/threads', { auth: false, headers: { authorization: 'Bearer nope' } });
    assert.equal(wrong.status, 401);
    assert.equal((await api('/api/threads')).status, 200);
  });

  it('refuses a WebSocket without the token (401)', async (t) => {
    const { server } = await startServerSession(t);
    const socket = connectSocket(server, '', { auth: false });
    await assert.rejects(socket.opened, { status: 401 });
  });

  it('keeps the token in a file only its owner can read, and reuses it on the next start', async (t) => {
    const { server, dataDir, sup } = await startServerSession(t);
    const path = join(dataDir, TOKEN_FILE);
    assert.equal(server.tokenPath, path);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(readFileSync(path, 'utf8').trim(), server.token);
    assert.equal(server.tokenCreated, true);
    assert.ok(server.token.length >= 43, 'at least 32 random bytes');
    const again = await createServer({ supervisor: sup, dataDir });
    t.after(() => again.close());
    assert.equal(again.token, server.token);
    assert.equal(again.tokenCreated, false);
  });

  it('the login link signs a browser in with an HttpOnly SameSite=Strict session cookie', async (t) => {
    const { server, api } = await startServerSession(t);
    const page = await fetch(`${server.url}/login`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await page.text(), /src="\/login\.js"/);
    const login = await loginWithLink(server.loginLink());
    assert.equal(login.status, 204);
    assert.match(login.setCookie, /HttpOnly/);
    assert.match(login.setCookie, /SameSite=Strict/);
    assert.match(login.cookie, new RegExp(`^warden_session_${server.port}=`));

    const withCookie = await api('/api/threads', { auth: false, headers: { cookie: login.cookie } });
    assert.equal(withCookie.status, 200);
    assert.deepEqual(withCookie.json.threads, []);
    const socket = connectSocket(server, '?since=0', { auth: false, headers: { cookie: login.cookie } });
    await socket.opened;
    assert.deepEqual(await socket.replay(), []);
    socket.close();

    const badLogin = await loginWithLink(server.loginLink(), 'wrong');
    assert.equal(badLogin.status, 401);
    assert.equal(badLogin.setCookie, '');
  });

  it('refuses a WebSocket from a foreign Origin (403), and accepts its own', async (t) => {
    const { server } = await startServerSession(t);
    const foreign = connectSocket(server, '', { headers: { origin: 'http://evil.example' } });
    await assert.rejects(foreign.opened, { status: 403 });
    const own = connectSocket(server, '', { headers: { origin: server.url } });
    await own.opened;
    own.close();
  });

  it('refuses state changes from a foreign Origin, and requests naming another Host (403)', async (t) => {
    const { api, scratch, server } = await startServerSession(t);
    const body = { cwd: scratch.cwd, mode: 'supervised' };
    const foreign = await api('/api/threads', { body, headers: { origin: 'http://evil.example' } });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.json.error.code, 'FORBIDDEN');
    const crossSite = await api('/api/threads', { body, headers: { 'sec-fetch-site': 'cross-site' } });
    assert.equal(crossSite.status, 403);
    // fetch() will not send another Host header; node:http will (as a DNS-rebound page's browser would).
    const rebound = await new Promise<number>((resolve, reject) =>
      request(
        `${server.url}/api/threads`,
        { headers: { host: `evil.example:${server.port}`, authorization: `Bearer ${server.token}` } },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      )
        .on('error', reject)
        .end(),
    );
    assert.equal(rebound, 403);
    assert.equal((await api('/api/threads')).json.threads.length, 0, 'nothing was created');
    assert.equal((await api('/api/threads', { body, headers: { origin: server.url } })).status, 201);
  });
});

describe('server API: requests and errors', () => {
  it('answers malformed JSON, invalid fields and unknown fields with 400', async (t) => {
    const { api, scratch } = await startServerSession(t);
    const malformed = await api('/api/threads', { raw: '{"cwd": ' });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.json.error.code, 'BAD_REQUEST');
    const badMode = await api('/api/threads', { body: { cwd: scratch.cwd, mode: 'yolo' } });
    assert.equal(badMode.status, 400);
    assert.equal(badMode.json.error.code, 'VALIDATION');
    assert.match(badMode.json.error.message, /^mode: /);
    const extra = await api('/api/threads', {
      body: { cwd: scratch.cwd, mode: 'supervised', colour: 'red' },
    });
    assert.equal(extra.status, 400);
    const missingDir = await api('/api/threads', {
      body: { cwd: join(scratch.cwd, 'nope'), mode: 'supervised' },
    });
    assert.equal(missingDir.status, 400, 'the supervisor’s ValidationError is a 400 too');
    const notJson = await api('/api/threads', { raw: 'cwd=x', headers: { 'content-type': 'text/plain' } });
    assert.equal(notJson.status, 415);
  });

  it('refuses a body over 64 KiB with 413', async (t) => {
    const { api, scratch } = await startServerSession(t);
    const big = await api('/api/threads', {
      body: { cwd: scratch.cwd, mode: 'supervised', model: 'm'.repeat(70_000) },
    });
    assert.equal(big.status, 413);
    assert.equal(big.json.error.code, 'PAYLOAD_TOO_LARGE');
    assert.equal((await api('/api/threads')).json.threads.length, 0);
  });

  it('reads a decision body from the node request itself: 415, 400 and a 413 counted while reading', async (t) => {
    const { api, server } = await startServerSession(t);
    const decision = '/api/approvals/no-such-approval/decision';
    const notJson = await api(decision, { raw: 'behavior=allow', headers: { 'content-type': 'text/plain' } });
    assert.equal(notJson.status, 415);
    assert.equal((await api(decision, { raw: '{"behavior":' })).status, 400);
    assert.equal((await api(decision, { body: { behavior: 'maybe' } })).status, 400);
    // Chunked, without a Content-Length: the limit holds as the body arrives.
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${server.url}${decision}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      });
      req.on('error', reject);
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.write('{"behavior":"allow","message":"');
      for (let i = 0; i < 70; i += 1) req.write('m'.repeat(1024));
      req.end('"}');
    });
    assert.equal(chunked.status, 413);
    assert.equal(JSON.parse(chunked.body).error.code, 'PAYLOAD_TOO_LARGE');
    // A well-formed decision on an unknown approval reaches the supervisor: 404.
    assert.equal((await api(decision, { body: { behavior: 'allow' } })).status, 404);
  });

  it('answers unknown ids and routes with 404', async (t) => {
    const { api } = await startServerSession(t);
    for (const [path, init] of [
      ['/api/threads/no-such-thread', {}],
      ['/api/threads/no-such-thread/events', {}],
      ['/api/threads/no-such-thread/messages', { body: { text: 'hi' } }],
      ['/api/threads/no-such-thread', { method: 'PATCH', body: { mode: 'full-access' } }],
      ['/api/approvals/no-such-approval/decision', { body: { behavior: 'allow' } }],
      ['/api/nothing-here', {}],
    ] as const) {
      const response = await api(path, init);
      assert.equal(response.status, 404, path);
      assert.equal(response.json.error.code, 'NOT_FOUND', path);
    }
  });

  it('creates, lists, reads and changes threads', async (t) => {
    const { api, scratch } = await startServerSession(t);
    const created = await api('/api/threads', { body: { cwd: scratch.cwd, mode: 'supervised' } });
    assert.equal(created.status, 201);
    const id = created.json.thread.id;
    assert.equal(created.json.run, null);
    const patched = await api(`/api/threads/${id}`, { method: 'PATCH', body: { mode: 'auto-edits' } });
    assert.equal(patched.json.thread.mode, 'auto-edits');
    const list = await api('/api/threads');
    assert.deepEqual(
      list.json.threads.map((th: any) => [th.id, th.mode, th.pendingApprovals, th.busy]),
      [[id, 'auto-edits', 0, false]],
    );
    assert.equal(list.json.lastSeq, 2);
    const detail = await api(`/api/threads/${id}`);
    assert.deepEqual(Object.keys(detail.json).sort(), [
      'approvals',
      'host',
      'lastSeq',
      'runs',
      'subagents',
      'thread',
      'timeline',
    ]);
    assert.equal(detail.json.lastSeq, 2);
    assert.equal(detail.json.host, null, 'no fleet: no host to name');
    const events = await api(`/api/threads/${id}/events?since=1`);
    assert.deepEqual(
      events.json.events.map((e: any) => e.type),
      ['thread.mode_changed'],
    );
    assert.equal(events.json.more, false);
    const info = await api('/api/info');
    assert.deepEqual(info.json.modes, ['supervised', 'auto-edits', 'full-access']);
    assert.equal(typeof info.json.sandbox.enforced, 'boolean', 'the UI can show whether the OS confines');
  });

  it('serves the UI without the token, with headers that forbid framing, and nothing outside it', async (t) => {
    const { server } = await startServerSession(t);
    const page = await fetch(`${server.url}/`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    assert.match(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    const escape = await fetch(`${server.url}/%2e%2e/package.json`);
    assert.equal(escape.status, 404);
  });
});

describe('server API: approvals', () => {
  it('decides a pending approval once; a second decision is a 409', async (t) => {
    const script = scenario()
      .on('touch')
      .callTool('Bash', { command: 'touch notes.txt', description: 'Create notes' })
      .thenAnswer('created')
      .build();
    const { api, server, scratch } = await startServerSession(t, { script });
    const created = await api('/api/threads', {
      body: { cwd: scratch.cwd, mode: 'supervised', prompt: '[[touch]] make a notes file' },
    });
    assert.equal(created.status, 201);
    const threadId = created.json.thread.id;
    assert.equal(created.json.run.prompt, '[[touch]] make a notes file');
    const socket = connectSocket(server, `?since=0&threadId=${threadId}`);
    const requested = await socket.waitFor(isEvent('approval.requested'));
    assert.ok(requested.type === 'event' && requested.event.type === 'approval.requested');
    const approvalId = requested.event.data.approvalId;

    const inbox = await api('/api/approvals?status=pending');
    assert.deepEqual(
      inbox.json.approvals.map((a: any) => [a.id, a.toolName, a.input.command, a.cwd]),
      [[approvalId, 'Bash', 'touch notes.txt', scratch.cwd]],
    );
    const decided = await api(`/api/approvals/${approvalId}/decision`, { body: { behavior: 'allow' } });
    assert.equal(decided.status, 200);
    assert.equal(decided.json.approval.status, 'allowed');
    const again = await api(`/api/approvals/${approvalId}/decision`, { body: { behavior: 'deny' } });
    assert.equal(again.status, 409);
    assert.equal(again.json.error.code, 'CONFLICT');

    const ended = await socket.waitFor(isEvent('run.ended'));
    assert.ok(ended.type === 'event' && ended.event.type === 'run.ended');
    assert.equal(ended.event.data.status, 'completed');
    assert.equal(existsSync(join(scratch.cwd, 'notes.txt')), true, 'the allowed command ran');
    const detail = await api(`/api/threads/${threadId}`);
    const call = detail.json.timeline.find((item: any) => item.kind === 'tool_call');
    assert.deepEqual(call.permission, {
      via: 'approval',
      outcome: 'allowed',
      approvalId,
      behavior: 'allow',
      by: 'user',
      detail: null,
      decider: 'owner',
      channel: 'api',
      updatedInput: null,
      interrupt: false,
    });
    assert.equal((await api('/api/approvals?status=pending')).json.approvals.length, 0);
    assert.equal((await api('/api/approvals?status=bogus')).status, 400);
    socket.close();
  });
});

describe('server API: stopping one subagent', () => {
  it('stops a running subagent and cancels its approval; 404 for a stranger, 409 once stopped', async (t) => {
    const { api, server, scratch } = await startServerSession(t, { script: backgroundSubagentScenario() });
    const created = await api('/api/threads', {
      body: { cwd: scratch.cwd, mode: 'supervised', prompt: BACKGROUND_AGENT_PROMPT },
    });
    const threadId = created.json.thread.id;
    const socket = connectSocket(server, `?since=0&threadId=${threadId}`);
    const requested = await socket.waitFor(isEvent('approval.requested'));
    assert.ok(requested.type === 'event' && requested.event.type === 'approval.requested');
    const { approvalId, subagentId } = requested.event.data;
    assert.ok(subagentId !== null, 'the request comes from the background subagent');
    const other = await api('/api/threads', { body: { cwd: scratch.cwd, mode: 'supervised' } });

    for (const path of [
      `/api/threads/${other.json.thread.id}/subagents/${subagentId}/stop`,
      `/api/threads/${threadId}/subagents/no-such-subagent/stop`,
      `/api/threads/no-such-thread/subagents/${subagentId}/stop`,
    ]) {
      const refused = await api(path, { method: 'POST' });
      assert.equal(refused.status, 404, path);
      assert.equal(refused.json.error.code, 'NOT_FOUND', path);
    }
    const path = `/api/threads/${threadId}/subagents/${subagentId}/stop`;
    const stopped = await api(path, { method: 'POST' });
    assert.equal(stopped.status, 200);
    assert.deepEqual([stopped.json.subagent.id, stopped.json.subagent.status], [subagentId, 'stopped']);
    const approval = (await api(`/api/threads/${threadId}`)).json.approvals.find(
      (a: any) => a.id === approvalId,
    );
    assert.deepEqual([approval.status, approval.reason], ['cancelled', 'subagent_stopped']);
    const again = await api(path, { method: 'POST' });
    assert.equal(again.status, 409);
    assert.equal(again.json.error.code, 'CONFLICT');
    socket.close();
  });
});

describe('server API: the event stream', () => {
  it('replays exactly the events after `since`, then follows live', async (t) => {
    const { api, server, scratch } = await startServerSession(t);
    const make = async () =>
      (await api('/api/threads', { body: { cwd: scratch.cwd, mode: 'supervised' } })).json.thread.id;
    const first = await make();
    await api(`/api/threads/${first}`, { method: 'PATCH', body: { mode: 'full-access' } });

    const everything = connectSocket(server, '?since=0');
    const seen = await everything.replay();
    assert.deepEqual(
      seen.map((e) => [e.seq, e.type]),
      [
        [1, 'thread.created'],
        [2, 'thread.mode_changed'],
      ],
    );
    everything.close();
    await everything.closed;

    // While disconnected: three more events, on two threads.
    const second = await make();
    await api(`/api/threads/${first}`, { method: 'PATCH', body: { mode: 'supervised' } });
    await api(`/api/threads/${second}`, { method: 'PATCH', body: { mode: 'auto-edits' } });

    const resumed = connectSocket(server, '?since=2');
    const missed = await resumed.replay();
    assert.deepEqual(
      missed.map((e) => [e.seq, e.threadId, e.type]),
      [
        [3, second, 'thread.created'],
        [4, first, 'thread.mode_changed'],
        [5, second, 'thread.mode_changed'],
      ],
    );
    assert.deepEqual(resumed.messages.at(-1), { type: 'live', seq: 5 });

    const oneThread = connectSocket(server, `?since=0&threadId=${second}`);
    assert.deepEqual(
      (await oneThread.replay()).map((e) => e.seq),
      [3, 5],
    );

    await api(`/api/threads/${first}`, { method: 'PATCH', body: { mode: 'auto-edits' } });
    const live = await resumed.waitFor((m) => m.type === 'event' && m.event.seq === 6);
    assert.ok(live.type === 'event' && live.event.type === 'thread.mode_changed');
    assert.equal(resumed.messages.length, 5, 'three replayed, the live marker, one live event');

    // Without `since`, a socket starts at the head: only new events.
    const fresh = connectSocket(server, '');
    assert.deepEqual(await fresh.replay(), []);
    assert.deepEqual(fresh.messages, [{ type: 'live', seq: 6 }]);
    fresh.send(JSON.stringify({ type: 'ping' }));
    assert.deepEqual(await fresh.waitFor((m) => m.type === 'pong'), { type: 'pong' });
    for (const socket of [resumed, oneThread, fresh]) socket.close();
  });

  it('says goodbye (1001) to sockets when the server closes', async (t) => {
    const { server } = await startServerSession(t);
    const socket = connectSocket(server, '');
    await socket.waitFor((m) => m.type === 'live');
    await server.close();
    assert.equal((await socket.closed).code, 1001);
  });
});
