/* eslint-disable @typescript-eslint/no-explicit-any -- JSON responses are inspected loosely, as in the other tests */
// `warden demo` (what `npm start` runs), end to end as a user meets it: the login link from the terminal,
// the event stream opened as the inbox does, the pending approval in the API — raised by the background
// subagent only after the root run ended — answered through the API; the commands the demo prints for a
// new login link and for `warden inbox` run as printed, from another directory; once the subagent has
// reported, the agent's question and its plan are answered too, and the note the answer chose is written;
// then Ctrl-C removes everything (processes, temp dirs) and exits 0.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { DEMO_QUESTION, DEMO_QUESTIONS } from '../../src/cli/demo-follow-up.js';
import type { ServerMessage, WardenServer } from '../../src/server/index.js';
import { printedCommands, runPrinted } from './helpers/printed-commands.js';
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

    // The commands the demo printed work as printed, from any directory: a new login link, the inbox.
    const printed = printedCommands(demo.stdout());
    const newLink = await runPrinted(printed.login, session.scratch.home);
    assert.equal(newLink.code, 0, newLink.stderr);
    assert.match(newLink.stdout, new RegExp(`^${url}/login#\\S+\\n$`), 'a fresh link for this demo');
    const listed = await runPrinted(printed.inbox, session.scratch.home);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^1 approval waiting:\n/);
    assert.match(listed.stdout, /Read: \/etc\/hostname/);

    const isEvent = (type: string) => (m: ServerMessage) => m.type === 'event' && m.event.type === type;
    const requested = (tool: string) => async (): Promise<any> => {
      const found = await socket.waitFor(
        (m) => m.type === 'event' && m.event.type === 'approval.requested' && m.event.data.toolName === tool,
      );
      assert.ok(found.type === 'event' && found.event.type === 'approval.requested');
      return found.event.data;
    };
    assert.equal((await api(`/api/approvals/${read.id}/decision`, { behavior: 'allow' })).status, 200);
    const bash = await requested('Bash')();
    assert.equal(bash.input.command, 'cat /etc/os-release');
    assert.equal(
      (await api(`/api/approvals/${bash.approvalId}/decision`, { behavior: 'allow' })).status,
      200,
    );
    const ended = await socket.waitFor(isEvent('subagent.ended'));
    assert.ok(ended.type === 'event' && ended.event.type === 'subagent.ended');
    assert.match(ended.event.data.summary ?? '', /^Done\. This machine runs /);

    // The CLI's own turn: a question, then the plan the answer shaped, then the note it plans.
    const question = await requested('AskUserQuestion')();
    assert.deepEqual(question.input.questions, DEMO_QUESTIONS);
    const answers = { [DEMO_QUESTION]: 'NOTES.md' };
    const answered = await api(`/api/approvals/${question.approvalId}/decision`, {
      behavior: 'allow',
      answers,
    });
    assert.equal(answered.status, 200, JSON.stringify(answered.json));
    const plan = await requested('ExitPlanMode')();
    assert.match(plan.input.plan, /^# Write down which machine this is\n/);
    assert.match(plan.input.plan, /1\. Create `NOTES\.md` in the project folder/);
    assert.match(plan.input.plan, /> This machine runs /, 'the plan quotes what the background agent found');
    assert.equal(
      (await api(`/api/approvals/${plan.approvalId}/decision`, { behavior: 'allow' })).status,
      200,
    );
    const write = await requested('Write')();
    assert.equal(write.input.file_path, join(demoRoot, 'work', 'NOTES.md'));
    assert.match(write.input.content, /^# This machine\n\nThis machine runs /);
    assert.equal(
      (await api(`/api/approvals/${write.approvalId}/decision`, { behavior: 'allow' })).status,
      200,
    );
    const followUp = await socket.waitFor(
      (m) => m.type === 'event' && m.event.type === 'run.ended' && m.event.data.runId !== read.runId,
    );
    assert.ok(followUp.type === 'event' && followUp.event.type === 'run.ended');
    assert.equal(followUp.event.data.status, 'completed');
    assert.match(followUp.event.data.result?.text ?? '', /^NOTES\.md is written: This machine runs /);
    socket.close();

    // The terminal told the same story, in words.
    for (const line of [
      '• approval pending: Read: /etc/hostname',
      '• approval pending: Bash: cat /etc/os-release',
      `• the agent asks you: ${DEMO_QUESTION} (HOST.md / NOTES.md)`,
      '  answered: allow (NOTES.md)',
      '• the agent’s plan waits for your approval',
      `• approval pending: Write: ${join(demoRoot, 'work', 'NOTES.md')}`,
    ])
      assert.ok(demo.stdout().includes(line), `the terminal says ${JSON.stringify(line)}:\n${demo.stdout()}`);

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
