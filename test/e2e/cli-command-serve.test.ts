// `warden serve`: prints a single-use login link once (and `warden login` a fresh one), keeps the token in
// the data directory (0600) and reuses it,
// refuses the API without it, serves the UI, keeps the data directory to itself, and on Ctrl-C exits 0
// and releases it.
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { spawnWarden, startCommandSession } from './helpers/server-command.js';
import { loginWithLink } from './helpers/server-login.js';

async function serveOnce(dataDir: string, env: Record<string, string>) {
  const serve = spawnWarden(['serve', '--port', '0', '--data-dir', dataDir], env);
  await serve.waitFor('stdout', /Press Ctrl-C to stop\./);
  const loginUrl = /(http:\/\/127\.0\.0\.1:\d+\/login#\S+)/.exec(serve.stdout())?.[1];
  assert.ok(loginUrl !== undefined, serve.stdout());
  const token = readFileSync(join(dataDir, 'server-token'), 'utf8').trim();
  return { serve, loginUrl, token, url: new URL(loginUrl).origin };
}

describe('warden serve', () => {
  it('prints the login link once, guards the API with the token, and stops cleanly', async (t) => {
    const session = await startCommandSession(t);
    const first = await serveOnce(session.dataDir, session.env);
    t.after(() => {
      if (first.serve.child.exitCode === null) first.serve.child.kill('SIGKILL');
    });
    assert.equal(first.serve.stdout().split('/login#').length, 2, 'the link is printed once');
    assert.ok(!first.serve.stdout().includes(first.token), 'the token is never printed');
    assert.equal(statSync(join(session.dataDir, 'server-token')).mode & 0o777, 0o600);
    const login = await loginWithLink(first.loginUrl);
    assert.equal(login.status, 204);
    const viaCookie = await fetch(`${first.url}/api/threads`, { headers: { cookie: login.cookie } });
    assert.equal(viaCookie.status, 200);
    assert.equal((await loginWithLink(first.loginUrl)).status, 401, 'the printed link works once');

    // `warden login` prints a fresh link for the running server.
    const port = new URL(first.url).port;
    const again = spawnWarden(['login', '--data-dir', session.dataDir, '--port', port], session.env);
    assert.deepEqual(await again.exited, { code: 0, signal: null }, again.stderr());
    const fresh = again.stdout().trim();
    assert.match(fresh, new RegExp(`^${first.url}/login#\\S+$`));
    assert.equal((await loginWithLink(fresh)).status, 204);
    assert.equal((await fetch(`${first.url}/api/threads`)).status, 401);
    const authed = await fetch(`${first.url}/api/threads`, {
      headers: { authorization: `Bearer ${first.token}` },
    });
    assert.equal(authed.status, 200);
    assert.equal((await fetch(`${first.url}/`)).status, 200, 'the UI needs no token');

    // One server per data directory: a second `warden serve` on it fails at once and says why (a
    // `warden run` next to it attaches instead: cli-attach-tmux.test.ts).
    const other = spawnWarden(['serve', '--port', '0', '--data-dir', session.dataDir], session.env, {
      closeStdin: true,
    });
    assert.equal((await other.exited).code, 1);
    assert.match(other.stderr(), /in use by another process .*pass --data-dir/);

    first.serve.child.kill('SIGINT');
    assert.deepEqual(await first.serve.exited, { code: 0, signal: null });

    const second = await serveOnce(session.dataDir, session.env);
    assert.equal(second.token, first.token, 'the token survives a restart');
    second.serve.child.kill('SIGTERM');
    assert.deepEqual(await second.serve.exited, { code: 0, signal: null });
  });
});

describe('warden serve --webhook', () => {
  it('says in its banner, before it is ready, where webhook bodies are signed from', async (t) => {
    const session = await startCommandSession(t);
    const serve = spawnWarden(
      ['serve', '--port', '0', '--data-dir', session.dataDir, '--webhook', 'http://127.0.0.1:9/hook'],
      session.env,
    );
    t.after(() => {
      if (serve.child.exitCode === null) serve.child.kill('SIGKILL');
    });
    await serve.waitFor('stdout', /Press Ctrl-C to stop\./);
    const banner = serve.stdout();
    const secret = join(session.dataDir, 'webhook-secret');
    const note = banner.indexOf(`Webhooks: 1 URL(s) receive approval previews`);
    assert.ok(note !== -1 && note < banner.indexOf('Press Ctrl-C to stop.'), banner);
    assert.ok(banner.includes(secret), banner);
    assert.equal(statSync(secret).mode & 0o777, 0o600);
    serve.child.kill('SIGINT');
    assert.equal((await serve.exited).code, 0);
  });
});

describe('the address of a running server', () => {
  it('is found by warden login and warden status without --port, and goes with the server', async (t) => {
    const session = await startCommandSession(t);
    const first = await serveOnce(session.dataDir, session.env);
    t.after(() => {
      if (first.serve.child.exitCode === null) first.serve.child.kill('SIGKILL');
    });
    const address = join(session.dataDir, 'server.json');
    assert.equal(statSync(address).mode & 0o777, 0o600);

    const login = spawnWarden(['login', '--data-dir', session.dataDir], session.env);
    assert.deepEqual(await login.exited, { code: 0, signal: null }, login.stderr());
    const link = login.stdout().trim();
    assert.ok(link.startsWith(`${first.url}/login#`), `${link} is on the server's own port`);
    assert.equal((await loginWithLink(link)).status, 204);

    const status = spawnWarden(['status', '--data-dir', session.dataDir], session.env);
    assert.deepEqual(await status.exited, { code: 0, signal: null }, status.stderr());
    assert.ok(status.stdout().includes(`Server: running, holds the data directory (${first.url})`));

    first.serve.child.kill('SIGINT');
    assert.equal((await first.serve.exited).code, 0);
    assert.throws(() => statSync(address), /ENOENT/, 'a stopped server leaves no address behind');
  });
});
