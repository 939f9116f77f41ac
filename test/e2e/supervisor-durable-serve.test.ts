// `warden serve` and its agents at shutdown: SIGTERM detaches by default (the agent keeps running with its
// approval pending, and the command says so); the next serve re-attaches and the approval is still
// pending over HTTP; with --stop-agents, SIGTERM ends the agent and leaves no spool behind.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { scenario } from '../../src/testing/index.js';
import { signalGroup } from '../../src/transport/process-tree.js';
import { processesUsingHome } from './helpers/sdk-session.js';
import { killProcesses } from '../../src/testing/world-processes.js';
import { spawnWarden, startCommandSession } from './helpers/server-command.js';
import { waitForNoProcess } from './helpers/supervisor-session.js';

async function serve(dataDir: string, env: Record<string, string>, extra: string[] = []) {
  const server = spawnWarden(['serve', '--port', '0', '--data-dir', dataDir, ...extra], env);
  await server.waitFor('stdout', /Press Ctrl-C to stop\./);
  const url = /(http:\/\/127\.0\.0\.1:\d+)\/login#/.exec(server.stdout())?.[1];
  assert.ok(url !== undefined, server.stdout());
  const token = readFileSync(join(dataDir, 'server-token'), 'utf8').trim();
  const api = async (path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const response = await fetch(`${url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    assert.ok(response.ok, `${path}: ${response.status} ${await response.clone().text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  return { server, api };
}

async function pendingApprovals(api: (path: string) => Promise<Record<string, unknown>>) {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const { approvals } = (await api('/api/approvals?status=pending')) as { approvals: { id: string }[] };
    if (approvals.length > 0) return approvals.map((a) => a.id);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('no pending approval within 60 s');
}

describe('warden serve: agents at shutdown', { timeout: 180_000 }, () => {
  it('detaches them on SIGTERM by default, re-attaches on the next start, ends them with --stop-agents', async (t) => {
    const session = await startCommandSession(
      t,
      scenario()
        .on('ask')
        .callTool('Bash', { command: 'touch served.txt', description: 'Create a file' })
        .thenAnswer('done')
        .build(),
    );
    const cliPids = new Set<number>();
    t.after(() => {
      for (const pid of cliPids) signalGroup(pid, 'SIGKILL');
      killProcesses(processesUsingHome(session.scratch.home));
    });
    const first = await serve(session.dataDir, session.env);
    t.after(() => {
      if (first.server.child.exitCode === null) first.server.child.kill('SIGKILL');
    });
    await first.api('/api/threads', { cwd: session.scratch.cwd, mode: 'supervised', prompt: '[[ask]] go' });
    const [approvalId] = await pendingApprovals(first.api);
    const cli = processesUsingHome(session.scratch.home);
    assert.equal(cli.length > 0, true, 'the agent runs');
    for (const pid of cli) cliPids.add(pid);

    first.server.child.kill('SIGTERM');
    assert.deepEqual(await first.server.exited, { code: 0, signal: null });
    assert.match(first.server.stderr(), /agents keep running detached/);
    assert.ok(processesUsingHome(session.scratch.home).length > 0, 'the agent outlives the server');

    const second = await serve(session.dataDir, session.env, ['--stop-agents']);
    t.after(() => {
      if (second.server.child.exitCode === null) second.server.child.kill('SIGKILL');
    });
    assert.match(second.server.stderr(), /re-attached to 1 agent/);
    assert.deepEqual(await pendingApprovals(second.api), [approvalId], 'the same approval is pending');
    second.server.child.kill('SIGTERM');
    assert.deepEqual(await second.server.exited, { code: 0, signal: null });
    assert.match(second.server.stderr(), /stopping the agents/);
    await waitForNoProcess(session.scratch.home);
    assert.deepEqual(processesUsingHome(session.scratch.home), [], 'no orphan');
    assert.deepEqual(readdirSync(join(session.dataDir, 'cli')), [], 'no stale spool');
  });
});
