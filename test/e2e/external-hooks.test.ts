// Sessions Warden did not start, end to end: the real CLI in `-p` mode (started by the test as a person
// would, not by Warden) with `warden hook run` in its settings, against the mock model. Its Bash request
// becomes an approval of an external thread, answered over the API: allowed (edited), the edited command
// runs; denied
// with a reason, the model's next request carries it. With no server, the hook prints nothing at once and
// nothing is allowed. A server restarted while the hook waits finds the same approval answerable.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { WebSocket } from 'ws';

import type { ApprovalRecord, ThreadRecord } from '../../src/store/records.js';
import { poll, scenario } from '../../src/testing/index.js';
import { startExternalWorld } from './helpers/external-session.js';
import { REPO_ROOT, spawnWarden } from './helpers/server-command.js';

const touchScript = () =>
  scenario()
    .on('touch')
    .callTool('Bash', { command: 'touch made-by-bash', description: 'Make the file' })
    .thenAnswer((ctx) =>
      ctx.toolResults[0]?.isError === true ? `refused: ${ctx.toolResults[0].text}` : 'the file is there',
    )
    .build();

describe('an external claude -p session through warden hook run', () => {
  it('asks through the API: allowed, the command runs; denied, the reason reaches the model', async (t) => {
    const world = await startExternalWorld(t, touchScript());
    const { cwd } = world.session.scratch;

    const first = world.claudeP('[[touch]] make the file');
    const approval = await world.pendingApproval();
    assert.equal(approval.toolName, 'Bash');
    assert.deepEqual(approval.input, { command: 'touch made-by-bash', description: 'Make the file' });
    const { body: view } = await world.api<{ thread: ThreadRecord }>(
      'GET',
      `/api/threads/${approval.threadId}`,
    );
    assert.equal(view.thread.kind, 'external');
    assert.equal(view.thread.cwd, cwd);
    assert.equal(view.thread.title, 'make the file', 'titled by the first prompt');
    assert.match(view.thread.sessionId ?? '', /^[0-9a-f-]{36}$/);
    // `warden inbox` lists it with the others, saying it is an external session.
    const inbox = spawnWarden(['inbox', '--json', '--data-dir', world.session.dataDir], world.session.env, {
      closeStdin: true,
    });
    assert.equal((await inbox.exited).code, 0, inbox.stderr());
    const listed = (
      JSON.parse(inbox.stdout()) as { approvals: { id: string; external: boolean; threadTitle: string }[] }
    ).approvals;
    assert.deepEqual(
      listed.map((row) => [row.id, row.external, row.threadTitle]),
      [[approval.id, true, 'make the file']],
    );
    // Warden drives no external session: a message to it is refused.
    const sent = await world.api<{ error: { code: string } }>(
      'POST',
      `/api/threads/${approval.threadId}/messages`,
      { text: 'hi' },
    );
    assert.equal(sent.status, 409);

    // The hook's token reports and waits; it reads nothing, decides nothing, starts nothing.
    const hookToken = world.hookToken;
    for (const [method, path, body] of [
      ['GET', '/api/threads', undefined],
      ['GET', `/api/approvals/${approval.id}`, undefined],
      ['POST', `/api/approvals/${approval.id}/decision`, { behavior: 'allow' }],
      ['POST', '/api/threads', { cwd }],
      ['POST', '/api/tokens', { name: 'more', role: 'operator' }],
    ] as const) {
      const refusedCall = await world.api(method, path, body, hookToken);
      assert.equal(refusedCall.status, 403, `${method} ${path} with the hook token`);
    }
    const socketStatus = await new Promise<number>((resolve) => {
      const socket = new WebSocket(`${world.server().url.replace('http', 'ws')}/ws`, {
        headers: { authorization: `Bearer ${hookToken}`, origin: world.server().url },
      });
      socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.on('open', () => {
        socket.close();
        resolve(101);
      });
      socket.on('error', () => undefined);
    });
    assert.equal(socketStatus, 403, 'no event stream for the hook token');

    const decided = await world.api<{ approval: ApprovalRecord }>(
      'POST',
      `/api/approvals/${approval.id}/decision`,
      // Allowed as a person edited it: the CLI runs the edited command.
      {
        behavior: 'allow',
        updatedInput: { command: 'touch edited-in-warden', description: 'Make the file' },
      },
    );
    assert.equal(decided.status, 200, JSON.stringify(decided.body));
    const ran = await first.done;
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(ran.result?.result, 'the file is there');
    assert.ok(existsSync(join(cwd, 'edited-in-warden')), 'the allowed command ran, as edited');
    assert.ok(!existsSync(join(cwd, 'made-by-bash')), 'not as it was asked');
    assert.equal(view.thread.sessionId, ran.result?.session_id);

    // The same session's thread would be found again; a new session is a new thread, denied with a reason.
    const second = world.claudeP('[[touch]] make it again');
    const asked = await world.pendingApproval();
    assert.notEqual(asked.threadId, approval.threadId, 'a new session is a thread of its own');
    await world.api('POST', `/api/approvals/${asked.id}/decision`, {
      behavior: 'deny',
      message: 'not in this folder',
    });
    const refused = await second.done;
    assert.equal(refused.code, 0, refused.stderr);
    assert.match(String(refused.result?.result), /^refused: .*not in this folder/);

    // The turn's end (Stop) ended its run.
    const runs = await world.api<{ runs: { status: string; trigger: string }[] }>(
      'GET',
      `/api/threads/${asked.threadId}`,
    );
    assert.deepEqual(
      runs.body.runs.map((run) => [run.trigger, run.status]),
      [['external', 'completed']],
    );
  });

  it('with no server: the hook prints nothing and exits at once, and the CLI allows nothing', async (t) => {
    const world = await startExternalWorld(t, touchScript());
    await world.stopServer();
    const payload = JSON.stringify({
      session_id: '00000000-0000-4000-8000-000000000000',
      cwd: world.session.scratch.cwd,
      hook_event_name: 'PermissionRequest',
      tool_name: 'Bash',
      tool_input: { command: 'touch x' },
    });
    const hook = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(REPO_ROOT, 'src/cli/main.ts'),
        'hook',
        'run',
        'PermissionRequest',
        '--config',
        world.configPath,
      ],
      {
        cwd: REPO_ROOT,
        env: world.session.env,
      },
    );
    world.session.world.track(hook.pid);
    let out = '';
    hook.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    hook.stdin.end(payload);
    const code = await new Promise<number | null>((resolve) => hook.on('close', resolve));
    assert.equal(code, 0);
    assert.equal(out, '', 'no output: the CLI asks in its own terminal');

    const run = world.claudeP('[[touch]] make the file');
    const ended = await run.done;
    assert.equal(ended.code, 0, ended.stderr);
    assert.ok(!existsSync(join(world.session.scratch.cwd, 'made-by-bash')), 'nothing was allowed');
    assert.match(String(ended.result?.result), /^refused: /);
  });

  for (const signal of ['SIGINT', 'SIGKILL'] as const)
    it(`a server restarted (${signal}) while the hook waits: the same approval is still answerable`, async (t) => {
      const world = await startExternalWorld(t, touchScript());
      const run = world.claudeP('[[touch]] make the file');
      const before = await world.pendingApproval();
      await world.stopServer(signal);
      await world.serve();
      const after = await world.pendingApproval();
      assert.equal(after.id, before.id, 'the same approval, pending under its id');
      // The decision waits until the hook has asked again (it retries while its own wait lasts).
      const decided = await world.api<{ approval: ApprovalRecord }>(
        'POST',
        `/api/approvals/${after.id}/decision`,
        {
          behavior: 'allow',
        },
      );
      assert.equal(decided.status, 200, JSON.stringify(decided.body));
      assert.equal(decided.body.approval.status, 'allowed');
      const ended = await run.done;
      assert.equal(ended.code, 0, ended.stderr);
      assert.ok(existsSync(join(world.session.scratch.cwd, 'made-by-bash')));
    });
});

describe('an external approval nobody answers in time', () => {
  it('is closed out when the hook stops waiting, and the CLI asks in its own way (in -p: denies)', async (t) => {
    const world = await startExternalWorld(t, touchScript(), 1500);
    const run = world.claudeP('[[touch]] make the file');
    const asked = await world.pendingApproval();
    const ended = await run.done;
    assert.equal(ended.code, 0, ended.stderr);
    assert.ok(!existsSync(join(world.session.scratch.cwd, 'made-by-bash')), 'nothing was allowed');
    const { body } = await world.api<{ approvals: ApprovalRecord[] }>(
      'GET',
      `/api/approvals?threadId=${asked.threadId}`,
    );
    assert.deepEqual(
      body.approvals.map((approval) => [approval.status, approval.reason]),
      [['cancelled', 'hook_wait_over']],
    );
  });

  it('is closed out when the hook goes away (the terminal moved on), and a late decision is refused', async (t) => {
    const world = await startExternalWorld(t, touchScript());
    const gone = new AbortController();
    const reported = fetch(`${world.server().url}/api/hook-events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${world.hookToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        event: 'PermissionRequest',
        payload: {
          session_id: '11111111-1111-4111-8111-111111111111',
          cwd: world.session.scratch.cwd,
          tool_name: 'Bash',
          tool_input: { command: 'rm -rf build' },
        },
      }),
      signal: gone.signal,
    });
    const response = await reported;
    const reader = response.body?.getReader();
    const first = new TextDecoder().decode((await reader?.read())?.value);
    const { approvalId } = JSON.parse(first) as { approvalId: string };
    gone.abort();
    const closed = await poll(async () => {
      const { body } = await world.api<{ approvals: ApprovalRecord[] }>('GET', '/api/approvals');
      const approval = body.approvals.find((a) => a.id === approvalId);
      return approval?.status === 'pending' ? undefined : approval;
    });
    assert.deepEqual([closed?.status, closed?.reason], ['cancelled', 'terminal_moved_on']);
    const late = await world.api('POST', `/api/approvals/${approvalId}/decision`, { behavior: 'allow' });
    assert.equal(late.status, 409);

    // What the CLI tells its user (its Notification hook) shows on the session's thread.
    const noted = await fetch(`${world.server().url}/api/hook-events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${world.hookToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        event: 'Notification',
        payload: {
          session_id: '11111111-1111-4111-8111-111111111111',
          cwd: world.session.scratch.cwd,
          message: 'Claude needs your permission to use Bash',
          notification_type: 'permission_prompt',
        },
      }),
    });
    assert.equal((await noted.text()).trim(), '{"output":null}');
    const { body: detail } = await world.api<{
      thread: ThreadRecord;
      timeline: { kind: string; text?: string }[];
    }>('GET', `/api/threads/${closed?.threadId ?? ''}`);
    assert.equal(detail.thread.title, 'Bash: rm -rf build', 'titled by its first request');
    assert.deepEqual(
      detail.timeline.filter((item) => item.kind === 'notice').map((item) => item.text),
      ['Claude needs your permission to use Bash'],
    );
  });
});
