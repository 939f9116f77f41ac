// The `warden` command's one server client: found at the address the flags give or the server recorded
// (never a guess), the owner's token on every request, JSON in and out, and the server's refusals as
// Warden's error classes.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';

import { serverUrlFor, serverUrlOf } from '../../src/cli/client/server-address.js';
import { ServerClient } from '../../src/cli/client/server-client.js';
import { failureReason } from '../../src/cli/client/server-errors.js';
import {
  ConflictError,
  NotFoundError,
  ServerRequestError,
  ValidationError,
} from '../../src/protocol/errors.js';
import { writeAddressFile } from '../../src/server/address-file.js';
import { loadOrCreateToken } from '../../src/server/token.js';

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
}

/** A server that answers each path as `routes` says, and records what it was sent. */
async function fakeServer(
  t: TestContext,
  routes: Record<string, [status: number, body: string]>,
): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      seen.push({
        method: request.method ?? '',
        url: request.url ?? '',
        authorization: request.headers.authorization,
        body,
      });
      const [status, text] = routes[request.url ?? ''] ?? [500, 'boom'];
      response.writeHead(status, { 'content-type': 'application/json' }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function dataDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'warden-client-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('the server client', () => {
  it('is found where the flags say, else where the server recorded itself, else nowhere', (t) => {
    const dir = dataDir(t);
    assert.equal(serverUrlOf(dir, {}), undefined, 'no address file: no guess');
    assert.equal(ServerClient.locate(dir), undefined, 'and no token is read for nobody');
    assert.equal(serverUrlOf(dir, { port: 9 }), 'http://127.0.0.1:9');
    assert.equal(serverUrlFor('0.0.0.0', 1), 'http://127.0.0.1:1');
    assert.equal(serverUrlFor('::1', 1), 'http://[::1]:1');
    assert.equal(serverUrlFor(), 'http://127.0.0.1:4390');
    assert.throws(() => ServerClient.locate(dir, { port: 9 }), /No server token/, 'a token is needed to ask');
    loadOrCreateToken(dir);
    writeAddressFile(dir, 'http://127.0.0.1:4567');
    assert.equal(ServerClient.locate(dir)?.url, 'http://127.0.0.1:4567');
    assert.equal(ServerClient.locate(dir, { host: 'h' })?.url, 'http://h:4390', 'the flags win');
  });

  it('sends the owner token and JSON, and returns the JSON answer', async (t) => {
    const dir = dataDir(t);
    const { token } = loadOrCreateToken(dir);
    const { url, seen } = await fakeServer(t, {
      '/api/tokens': [201, '{"ok":true}'],
      '/api/tokens/ann': [200, '{"decider":{"name":"ann"}}'],
      '/api/audit?format=csv': [200, 'a,b\n1,2\n'],
    });
    const client = new ServerClient(url, token);
    assert.deepEqual(await client.post('/api/tokens', { name: 'ann' }), { ok: true });
    assert.deepEqual(await client.delete('/api/tokens/ann'), { decider: { name: 'ann' } });
    const body = await client.download('/api/audit?format=csv', { timeoutMs: 0 });
    assert.equal(await new Response(body).text(), 'a,b\n1,2\n');
    assert.deepEqual(
      seen.map((s) => [s.method, s.url, s.authorization, s.body]),
      [
        ['POST', '/api/tokens', `Bearer ${token}`, '{"name":"ann"}'],
        ['DELETE', '/api/tokens/ann', `Bearer ${token}`, ''],
        ['GET', '/api/audit?format=csv', `Bearer ${token}`, ''],
      ],
    );
  });

  it("maps the server's refusals to Warden's classes with the server's message", async (t) => {
    const error = (code: string, message: string, field?: string): string =>
      JSON.stringify({ error: { code, message, ...(field === undefined ? {} : { field }) } });
    const { url } = await fakeServer(t, {
      '/conflict': [409, error('CONFLICT', 'approval a1 is already allowed')],
      '/missing': [404, error('NOT_FOUND', 'no thread t1')],
      '/invalid': [400, error('VALIDATION', 'bad name', 'name')],
      '/denied': [401, error('UNAUTHORIZED', 'a token is needed')],
      '/plain': [503, 'not json'],
    });
    const client = new ServerClient(url, 'x');
    await assert.rejects(
      client.post('/conflict'),
      (e) => e instanceof ConflictError && /already allowed/.test(e.message),
    );
    await assert.rejects(
      client.get('/missing'),
      (e) => e instanceof NotFoundError && e.message === 'no thread t1',
    );
    await assert.rejects(
      client.post('/invalid'),
      (e) => e instanceof ValidationError && e.message === 'bad name',
    );
    await assert.rejects(
      client.get('/denied'),
      (e) => e instanceof ServerRequestError && e.status === 401 && e.serverCode === 'UNAUTHORIZED',
    );
    await assert.rejects(
      client.download('/plain'),
      (e) => e instanceof ServerRequestError && e.message === 'GET /plain: HTTP 503',
    );
  });

  it('says which server did not answer, and why', async () => {
    // A port that was free a moment ago: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const client = new ServerClient(`http://127.0.0.1:${port}`, 'x');
    const error = await client.get('/api/threads').then(
      () => assert.fail('answered'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ServerRequestError && error.status === null);
    assert.equal(error.message, `the server at http://127.0.0.1:${port} did not answer`);
    assert.match(failureReason(error), /ECONNREFUSED/);
  });
});
