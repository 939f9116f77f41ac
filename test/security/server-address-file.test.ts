// `warden status` sends the API token (as a Bearer header) to the server of a held data directory. It
// may only send it where the user said (--host/--port) or where the server itself recorded its address:
// an address file another user could have planted or swapped — in a directory others may write to, owned
// by someone else, or writable by others — is not trusted, and with no trusted address the token goes
// nowhere (not to a default port another local user may be listening on).
import assert from 'node:assert/strict';
import { chmodSync, chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';

import { DEFAULT_PORT } from '../../src/cli/serve-command.js';
import { ADDRESS_FILE } from '../../src/server/address-file.js';
import { loadOrCreateToken } from '../../src/server/token.js';
import { Supervisor } from '../../src/supervisor/index.js';
import { startTicksOf } from '../../src/transport/process-tree.js';
import { spawnWarden } from '../e2e/helpers/server-command.js';

/** A listener that records every Authorization header it is sent (what a hostile local server would do). */
async function listen(port = 0): Promise<{ server: Server; url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((request, response) => {
    seen.push(request.headers.authorization ?? '');
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"threads":[]}');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** A data directory held by a supervisor of this process (as `warden run` or `warden serve` would). */
async function heldDataDir(t: TestContext): Promise<{ dataDir: string; token: string }> {
  const root = mkdtempSync(join(tmpdir(), 'warden-addr-'));
  const dataDir = join(root, 'data');
  const supervisor = await Supervisor.open({ dataDir });
  const { token } = loadOrCreateToken(dataDir);
  t.after(async () => {
    await supervisor.close();
    rmSync(root, { recursive: true, force: true });
  });
  return { dataDir, token };
}

/** What a server would record: this (live) process as the server at `url`. */
function plantAddress(dataDir: string, url: string): string {
  const path = join(dataDir, ADDRESS_FILE);
  const address = { url, pid: process.pid, startTicks: startTicksOf(process.pid) ?? null };
  writeFileSync(path, `${JSON.stringify(address)}\n`, { mode: 0o600 });
  return path;
}

async function status(dataDir: string, args: string[] = []) {
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: tmpdir() };
  const command = spawnWarden(['status', '--data-dir', dataDir, ...args], env, { closeStdin: true });
  const { code } = await command.exited;
  return { code, stdout: command.stdout(), stderr: command.stderr() };
}

describe('the address file warden status trusts', { timeout: 60_000 }, () => {
  it('sends the token to the address the server recorded in its private directory', async (t) => {
    const { dataDir, token } = await heldDataDir(t);
    const server = await listen();
    t.after(() => server.server.close());
    plantAddress(dataDir, server.url);
    const result = await status(dataDir);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Server: running/);
    assert.deepEqual(server.seen, [`Bearer ${token}`]);
  });

  it('ignores an address file in a directory others may write to', async (t) => {
    const { dataDir } = await heldDataDir(t);
    const planted = await listen();
    t.after(() => planted.server.close());
    plantAddress(dataDir, planted.url);
    chmodSync(dataDir, 0o777);
    const result = await status(dataDir);
    assert.deepEqual(planted.seen, [], 'the token went to an address anyone could have written');
    assert.equal(result.code, 1);
    assert.match(result.stderr, /--port/);
  });

  it('ignores an address file owned by another user, or writable by others', async (t) => {
    const { dataDir } = await heldDataDir(t);
    const planted = await listen();
    t.after(() => planted.server.close());
    const path = plantAddress(dataDir, planted.url);
    // Only root can give a file away; elsewhere the mode case stands for both.
    if (process.getuid?.() === 0) {
      chownSync(path, 4242, 4242);
      assert.equal((await status(dataDir)).code, 1);
      chownSync(path, 0, 0);
    }
    chmodSync(path, 0o666);
    assert.equal((await status(dataDir)).code, 1);
    assert.deepEqual(planted.seen, [], 'the token went to an address another user wrote');
  });

  it('sends the token nowhere when no server recorded an address', async (t) => {
    const { dataDir } = await heldDataDir(t);
    // Whoever listens on the default port (any local user can) must not receive the token.
    const squatter = await listen(DEFAULT_PORT).catch(() => undefined);
    t.after(() => squatter?.server.close());
    const result = await status(dataDir);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /no server address is recorded/);
    assert.deepEqual(squatter?.seen ?? [], []);
  });
});

describe('the address warden login names', { timeout: 60_000 }, () => {
  it('prints no link, to the default port or elsewhere, when no server recorded its address', async (t) => {
    const root = mkdtempSync(join(tmpdir(), 'warden-login-'));
    t.after(() => rmSync(root, { recursive: true, force: true }));
    const dataDir = join(root, 'data');
    loadOrCreateToken(dataDir);
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: tmpdir() };
    const login = spawnWarden(['login', '--data-dir', dataDir], env, { closeStdin: true });
    const { code } = await login.exited;
    // A ticket opened at a guessed address would go to whoever listens there, while the server it is
    // good for may run on another port.
    assert.equal(login.stdout(), '', 'a link was printed for a guessed address');
    assert.equal(code, 1);
    assert.match(login.stderr(), /no running server/);
  });
});
