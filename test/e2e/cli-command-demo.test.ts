/* eslint-disable @typescript-eslint/no-explicit-any -- JSON responses are inspected loosely, as in the other tests */
// `warden demo` (what `npm start` runs), end to end as a user meets it: the login link from the terminal,
// the event stream opened as the inbox does, the pending approval in the API — raised by the background subagent only after the root run ended —
// answered through the API; then Ctrl-C removes everything (processes, temp dirs) and exits 0.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import type { ServerMessage, WardenServer } from '../../src/server/index.js';
import { spawnWarden, startCommandSession } from './helpers/server-command.js';
import { loginWithLink } from './helpers/server-login.js';
import { connectSocket } from './helpers/server-session.js';
import { processesUsingHome } from './helpers/sdk-session.js';
import { waitForNoProcess } from './helpers/supervisor-session.js';

describe('warden demo', () => {
  it('serves a thread whose background subagent asks after the root run ended; Ctrl-C cleans up', async (t) => {
    const session = await startCommandSession(t);
    const env = { PATH: session.env.PATH!, HOME: session.scratch.home, TMPDIR: session.scratch.tmpdir };
    const demo = spawnWarden(['demo'], env);
    t.after(() => {
      if (demo.child.exitCode === null) demo.child.kill('SIGKILL');
    });
    await demo.waitFor('stdout', /^Data: \S+/m);
    const loginUrl = /(http:\/\/127\.0\.0\.1:\d+\/login#\S+)/.exec(demo.stdout())?.[1];
    const dataDir = /^Data: (\S+)/m.exec(demo.stdout())?.[1];
    assert.ok(loginUrl !== undefined && dataDir !== undefined, demo.stdout());
    const demoRoot = join(dataDir, '..');
    assert.ok(demoRoot.startsWith(session.scratch.tmpdir), 'the demo keeps its files in TMPDIR');
    const url = new URL(loginUrl).origin;

    // The login link, as the browser's login page trades it.
    const login = await loginWithLink(loginUrl);
    assert.equal(login.status, 204);
    const { cookie } = login;
    const api = async (path: string, body?: unknown) => {
      const response = await fetch(`${url}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          cookie,
          origin: url,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, json: (await response.json()) as any };
    };
    // Someone looking, as a person with the inbox open: the demo's subagent asks only then (or after a
    // minute with nobody there).
    const server = { url, token: 'unused' } as WardenServer;
    const socket = connectSocket(server, '?since=0', { auth: false, headers: { cookie, origin: url } });
    await demo.waitFor('stdout', /approval pending: Read: \/etc\/hostname/);

    const inbox = await api('/api/approvals?status=pending');
    assert.equal(inbox.status, 200);
    const [read] = inbox.json.approvals;
    assert.deepEqual(
      [read.toolName, read.input, read.subagentDescription],
      ['Read', { file_path: '/etc/hostname' }, 'Inspect the host'],
    );
    const events = (await api(`/api/threads/${read.threadId}/events`)).json.events as any[];
    const rootEnded = events.findIndex((e) => e.type === 'run.ended' && e.data.runId === read.runId);
    const asked = events.findIndex((e) => e.type === 'approval.requested');
    assert.ok(rootEnded >= 0 && rootEnded < asked, 'the root run had completed before the subagent asked');
    assert.equal(events[rootEnded].data.status, 'completed');

    const isEvent = (type: string) => (m: ServerMessage) => m.type === 'event' && m.event.type === type;
    assert.equal((await api(`/api/approvals/${read.id}/decision`, { behavior: 'allow' })).status, 200);
    const bash = await socket.waitFor(
      (m) =>
        m.type === 'event' && m.event.type === 'approval.requested' && m.event.data.approvalId !== read.id,
    );
    assert.ok(bash.type === 'event' && bash.event.type === 'approval.requested');
    assert.equal(bash.event.data.input.command, 'cat /etc/os-release');
    assert.equal(
      (await api(`/api/approvals/${bash.event.data.approvalId}/decision`, { behavior: 'allow' })).status,
      200,
    );
    const ended = await socket.waitFor(isEvent('subagent.ended'));
    assert.ok(ended.type === 'event' && ended.event.type === 'subagent.ended');
    assert.match(ended.event.data.summary ?? '', /^Done\. This machine runs /);
    await socket.waitFor(
      (m) => m.type === 'event' && m.event.type === 'run.ended' && m.event.data.runId !== read.runId,
    );
    socket.close();

    demo.child.kill('SIGINT');
    assert.deepEqual(await demo.exited, { code: 0, signal: null }, demo.stderr());
    assert.match(demo.stderr(), /stopping the demo/);
    assert.equal(existsSync(demoRoot), false, 'the demo removed its temporary directory');
    assert.deepEqual(
      readdirSync(session.scratch.tmpdir).filter((name) => name.startsWith('warden-demo-')),
      [],
    );
    await waitForNoProcess(join(demoRoot, 'home'));
    assert.deepEqual(processesUsingHome(join(demoRoot, 'home')), [], 'no CLI process is left');
  });
});
