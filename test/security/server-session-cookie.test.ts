// The browser's credential is a session of its own, never the API token: the login link carries a ticket
// that opens one session once, the cookie it sets holds a random session secret (12 h at most), sessions
// end on logout, on revoke-all, when they expire and when the server restarts, and a cookie holding the
// token is refused. The Bearer token keeps working for API clients.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { createServer, SessionRegistry } from '../../src/server/index.js';
import { mintLoginTicket } from '../../src/server/login-ticket.js';
import { loginWithLink } from '../e2e/helpers/server-login.js';
import { connectSocket, startServerSession } from '../e2e/helpers/server-session.js';

describe('login and sessions', () => {
  it('sets a session cookie that is not the token, and the link holds no token', async (t) => {
    const { server, api } = await startServerSession(t);
    const link = server.loginLink();
    assert.ok(!link.includes(server.token), 'the token is not in the link');
    assert.match(link, /^http:\/\/127\.0\.0\.1:\d+\/login#[\w.-]+$/, 'the secret rides in the fragment');

    const login = await loginWithLink(link);
    assert.equal(login.status, 204);
    assert.match(login.setCookie, /HttpOnly/);
    assert.match(login.setCookie, /SameSite=Strict/);
    assert.match(login.setCookie, /Max-Age=43200(;|$)/, 'twelve hours at most');
    const [name, value] = login.cookie.split('=') as [string, string];
    assert.equal(name, `warden_session_${server.port}`);
    assert.ok(value.length >= 43, 'at least 32 random bytes');
    assert.ok(!login.setCookie.includes(server.token), 'the cookie is not the token');

    const withCookie = await api('/api/threads', { auth: false, headers: { cookie: login.cookie } });
    assert.equal(withCookie.status, 200);
    const socket = connectSocket(server, '?since=0', { auth: false, headers: { cookie: login.cookie } });
    await socket.opened;
    socket.close();
    assert.equal((await api('/api/threads')).status, 200, 'the Bearer token still works');
  });

  it('accepts a login ticket once; a forged or stale one never', async (t) => {
    const { server } = await startServerSession(t);
    const link = server.loginLink();
    assert.equal((await loginWithLink(link)).status, 204);
    const again = await loginWithLink(link);
    assert.equal(again.status, 401);
    assert.equal(again.setCookie, '', 'nothing is set the second time');

    const [issued, nonce, mac] = new URL(server.loginLink()).hash.slice(1).split('.');
    const forged = `${issued}.${nonce}.${mac!.slice(0, -2)}AA`;
    assert.equal((await loginWithLink(link, forged)).status, 401);
    assert.equal((await loginWithLink(link, server.token)).status, 401, 'the token is not a ticket');

    // The old way in: the token in the query string sets nothing.
    const old = await fetch(`${server.url}/login?token=${server.token}`, { redirect: 'manual' });
    await old.arrayBuffer();
    assert.equal(old.headers.get('set-cookie'), null);
  });

  it('refuses the login POST from another origin', async (t) => {
    const { server } = await startServerSession(t);
    const ticket = new URL(server.loginLink()).hash.slice(1);
    const response = await fetch(`${server.url}/login`, {
      method: 'POST',
      headers: { origin: 'http://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ ticket }),
    });
    assert.equal(response.status, 403);
    assert.equal(response.headers.get('set-cookie'), null);
  });

  it('refuses a cookie that holds the API token', async (t) => {
    const { server, api } = await startServerSession(t);
    for (const cookie of [
      `warden_token_${server.port}=${server.token}`,
      `warden_session_${server.port}=${server.token}`,
    ]) {
      const response = await api('/api/threads', { auth: false, headers: { cookie } });
      assert.equal(response.status, 401, cookie.split('=')[0]);
      assert.equal(response.json.error.code, 'UNAUTHORIZED');
      const socket = connectSocket(server, '', { auth: false, headers: { cookie } });
      await assert.rejects(socket.opened, { status: 401 });
    }
  });

  it('ends a session on logout, and every session on revoke-all (401 after)', async (t) => {
    const { server, api } = await startServerSession(t);
    const first = await loginWithLink(server.loginLink());
    const second = await loginWithLink(server.loginLink());
    const third = await loginWithLink(server.loginLink());
    const as = (cookie: string) => ({ auth: false, headers: { cookie, origin: server.url } });

    const socket = connectSocket(server, '', { auth: false, headers: { cookie: first.cookie } });
    await socket.opened;
    const logout = await api('/api/session', { method: 'DELETE', ...as(first.cookie) });
    assert.equal(logout.status, 204);
    assert.equal((await api('/api/threads', as(first.cookie))).status, 401);
    assert.equal((await socket.closed).code, 4001, "the session's socket is closed too");
    assert.equal((await api('/api/threads', as(second.cookie))).status, 200, 'others live on');

    const all = await api('/api/sessions', { method: 'DELETE', ...as(second.cookie) });
    assert.equal(all.status, 200);
    assert.equal(all.json.revoked, 2);
    assert.equal((await api('/api/threads', as(second.cookie))).status, 401);
    assert.equal((await api('/api/threads', as(third.cookie))).status, 401);
    assert.equal((await api('/api/threads')).status, 200, 'the token is not a session');
  });

  it('ends a session when it expires, and every session when the server restarts', async (t) => {
    let now = Date.now();
    const sessions = new SessionRegistry({ now: () => now });
    const { server, api, sup, dataDir } = await startServerSession(t, { server: { sessions } });
    const login = await loginWithLink(server.loginLink());
    const as = { auth: false, headers: { cookie: login.cookie } };
    assert.equal((await api('/api/threads', as)).status, 200);
    now += 12 * 3600_000 - 1000;
    assert.equal((await api('/api/threads', as)).status, 200, 'still inside twelve hours');
    now += 1000;
    assert.equal((await api('/api/threads', as)).status, 401, 'expired');

    // A ticket older than its lifetime opens nothing.
    const stale = server.loginLink();
    now += 15 * 60_000;
    assert.equal((await loginWithLink(stale)).status, 401);

    // A new server (as after a restart) knows none of the old sessions nor the old server's links.
    const fresh = await loginWithLink(server.loginLink());
    // Minted a millisecond before the restart at the latest: tickets carry millisecond times.
    const link = `${server.url}/login#${mintLoginTicket(server.token, Date.now() - 1)}`;
    await server.close();
    const restarted = await createServer({ supervisor: sup, dataDir });
    t.after(() => restarted.close());
    const cookie = fresh.cookie.replace(`_${server.port}=`, `_${restarted.port}=`);
    const response = await fetch(`${restarted.url}/api/threads`, { headers: { cookie } });
    assert.equal(response.status, 401);
    const oldLink = link.replace(server.url, restarted.url);
    assert.equal((await loginWithLink(oldLink)).status, 401, 'a link from before the restart');
    assert.equal((await loginWithLink(restarted.loginLink())).status, 204);
  });
});
