/* eslint-disable @typescript-eslint/no-explicit-any -- JSON responses are inspected loosely, as in the other tests */
// The decision route is served by node:http itself ahead of Hono (src/server/decision-fast-path.ts). The
// same request with a query string is Hono's to route: each case is sent both ways to one server, and the
// two replies must be the same — status, body and the headers a client reads — for every way a decision
// can be refused, and for the decision that stands. Which requests the fast path takes is shown apart:
// only the plain route, every near miss left to Hono.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect } from 'node:net';
import { describe, it } from 'node:test';

import type { IncomingMessage, ServerResponse } from 'node:http';

import { decisionFastPath, type FastPathDeps } from '../../src/server/decision-fast-path.js';
import { ApiError } from '../../src/server/http-error.js';
import { scenario } from '../../src/testing/index.js';
import { connectSocket, startServerSession, type ServerSession } from '../e2e/helpers/server-session.js';

interface Reply {
  status: number;
  body: any;
  headers: Record<string, string | undefined>;
}

const READ_HEADERS = ['content-type', 'cache-control', 'x-content-type-options', 'retry-after'];

/** A POST through node:http, so that any Host and repeated headers can be sent. */
function post(
  session: ServerSession,
  path: string,
  body: string,
  headers: [string, string][],
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, session.server.url);
    const req = request({
      host: url.hostname,
      port: url.port,
      path: url.pathname + url.search,
      method: 'POST',
      headers: headers.flat(),
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: JSON.parse(text),
          headers: Object.fromEntries(READ_HEADERS.map((name) => [name, res.headers[name] as string])),
        }),
      );
    });
    req.end(body);
  });
}

describe('the decision route served ahead of Hono', () => {
  it('answers every refusal and the decision as the Hono route does', async (t) => {
    const script = scenario()
      .on('touch')
      .callTool('Bash', { command: 'touch notes.txt', description: 'Create notes' })
      .thenAnswer('created')
      .build();
    const session = await startServerSession(t, { script });
    const { api, server, scratch } = session;
    const created = await api('/api/threads', {
      body: { cwd: scratch.cwd, mode: 'supervised', prompt: '[[touch]] make a notes file' },
    });
    const socket = connectSocket(server, `?since=0&threadId=${created.json.thread.id}`);
    const requested: any = await socket.waitFor(
      (m) => m.type === 'event' && m.event.type === 'approval.requested',
    );
    const approvalId: string = requested.event.data.approvalId;
    socket.close();
    const observer = server.deciders.create('olive', { role: 'observer' }).token;
    const approver = server.deciders.create('abe', { role: 'approver' }).token;

    const host: [string, string] = ['host', `127.0.0.1:${server.port}`];
    const owner: [string, string] = ['authorization', `Bearer ${server.token}`];
    const json: [string, string] = ['content-type', 'application/json'];
    const allow = JSON.stringify({ behavior: 'allow' });
    const path = `/api/approvals/${approvalId}/decision`;
    const cases: [name: string, path: string, body: string, headers: [string, string][], status: number][] = [
      ['no credentials', path, allow, [host, json], 401],
      ['a wrong token', path, allow, [host, json, ['authorization', 'Bearer nope']], 401],
      ['two Authorization headers', path, allow, [host, json, owner, owner], 401],
      ['another Host', path, allow, [['host', `evil.example:${server.port}`], owner, json], 403],
      ['a foreign Origin', path, allow, [host, owner, json, ['origin', 'http://evil.example']], 403],
      ['a cross-site fetch', path, allow, [host, owner, json, ['sec-fetch-site', 'cross-site']], 403],
      ['an observer', path, allow, [host, json, ['authorization', `Bearer ${observer}`]], 403],
      [
        'an approver changing the mode',
        path,
        JSON.stringify({ behavior: 'allow', mode: 'full-access' }),
        [host, json, ['authorization', `Bearer ${approver}`]],
        403,
      ],
      ['not JSON', path, 'behavior=allow', [host, owner, ['content-type', 'text/plain']], 415],
      ['malformed JSON', path, '{"behavior":', [host, owner, json], 400],
      ['an invalid field', path, JSON.stringify({ behavior: 'maybe' }), [host, owner, json], 400],
      ['an unknown field', path, JSON.stringify({ behavior: 'allow', x: 1 }), [host, owner, json], 400],
      ['an unknown approval', '/api/approvals/no-such-approval/decision', allow, [host, owner, json], 404],
    ];
    for (const [name, casePath, body, headers, status] of cases) {
      const fast = await post(session, casePath, body, headers);
      const viaHono = await post(session, `${casePath}?via=hono`, body, headers);
      assert.equal(fast.status, status, name);
      assert.deepEqual(fast, viaHono, name);
    }

    // No Host at all (HTTP/1.0 allows it; Node refuses an HTTP/1.1 request without one): Hono's adapter
    // refuses it before the application, with an empty 400; served here, the guard refuses it (403).
    const noHost = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', () =>
        socket.end(
          `POST ${path} HTTP/1.0\r\nauthorization: Bearer ${server.token}\r\n` +
            `content-type: application/json\r\ncontent-length: ${allow.length}\r\n\r\n${allow}`,
        ),
      );
      let text = '';
      socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      socket.on('error', reject).on('close', () => resolve(text));
    });
    assert.match(noHost, /^HTTP\/1\.1 403 /);
    assert.match(noHost, /"code":"FORBIDDEN"/);

    const decided = await post(session, path, allow, [host, owner, json]);
    assert.equal(decided.status, 200);
    assert.equal(decided.body.approval.status, 'allowed');
    assert.equal(decided.body.approval.decision.decidedBy.name, 'owner');
    const again = await post(session, path, allow, [host, owner, json]);
    const againViaHono = await post(session, `${path}?via=hono`, allow, [host, owner, json]);
    assert.equal(again.status, 409);
    assert.deepEqual(again, againViaHono);
    // The reply to the decision that stood has the headers Hono's replies have.
    assert.deepEqual(decided.headers, { ...again.headers });
  });

  it('takes only the plain route: another method, a query, a trailing slash or an odd id is Hono’s', async () => {
    const refused: number[] = [];
    let answered = (): void => undefined;
    const deps = {
      // Every request it takes is refused at the guard: the reply says it was taken.
      guard: {
        checkOrigin: () => {
          throw new ApiError(401, 'UNAUTHORIZED', 'Missing credentials');
        },
      },
      onError: () => undefined,
    } as unknown as FastPathDeps;
    const fastPath = decisionFastPath(deps);
    const outgoing = {
      headersSent: false,
      destroyed: false,
      writeHead: (status: number) => void refused.push(status),
      end: () => answered(),
    } as unknown as ServerResponse;
    const takes = async (method: string, url: string): Promise<boolean> => {
      const done = new Promise<void>((resolve) => (answered = resolve));
      const taken = fastPath({ method, url, headersDistinct: {} } as IncomingMessage, outgoing);
      if (taken) await done;
      return taken;
    };
    assert.equal(await takes('POST', '/api/approvals/4f0c-9a_b/decision'), true);
    for (const [method, url] of [
      ['GET', '/api/approvals/a1/decision'],
      ['PUT', '/api/approvals/a1/decision'],
      ['POST', '/api/approvals/a1/decision?via=web'],
      ['POST', '/api/approvals/a1/decision/'],
      ['POST', '/api/approvals/a%2F1/decision'],
      ['POST', '/api/approvals/a.1/decision'],
      ['POST', '/api/approvals//decision'],
      ['POST', '/api/approvals/a1/b/decision'],
      ['POST', '//api/approvals/a1/decision'],
      ['POST', 'http://127.0.0.1/api/approvals/a1/decision'],
    ])
      assert.equal(await takes(method!, url!), false, `${method} ${url}`);
    assert.deepEqual(refused, [401]);
  });
});
