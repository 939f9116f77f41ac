// Browsers keep cookies per host, not per port: any other server on 127.0.0.1 the browser visits can set
// a cookie under this server's session cookie name — with a longer Path, so the browser sends it first.
// The server must not let such a planted value shadow the live session beside it (else one visit to
// that page locks the user out, and every new login with it), nor let it stand in for a session.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { loginWithLink } from '../e2e/helpers/server-login.js';
import { connectSocket, startServerSession } from '../e2e/helpers/server-session.js';

describe('a session cookie planted by another local server', () => {
  it('neither shadows the live session sent beside it nor opens anything by itself', async (t) => {
    const { server, api } = await startServerSession(t);
    const login = await loginWithLink(server.loginLink());
    const [name, secret] = login.cookie.split('=') as [string, string];
    const planted = `${name}=planted-by-another-server`;
    const as = (cookie: string) => ({ auth: false, headers: { cookie, origin: server.url } });

    // The browser sends the cookie with the longer Path first.
    const both = `${planted}; other=1; ${name}=${secret}`;
    assert.equal(
      (await api('/api/threads', as(both))).status,
      200,
      'the planted cookie shadowed the session',
    );
    const socket = connectSocket(server, '', { auth: false, headers: { cookie: both } });
    await socket.opened;

    assert.equal((await api('/api/threads', as(planted))).status, 401);
    assert.equal((await api('/api/threads', as(`${planted}; ${planted}x`))).status, 401);

    // Logout with both ends the live session, and its socket.
    assert.equal((await api('/api/session', { method: 'DELETE', ...as(both) })).status, 204);
    assert.equal((await socket.closed).code, 4001);
    assert.equal((await api('/api/threads', as(login.cookie))).status, 401);
  });
});
