// `warden hook install|status|uninstall` as a person runs them: the diff first, nothing written without
// --yes off a terminal, the token in a file of its own (never in the settings file), the installed hooks
// bringing a `claude -p` session into the inbox, and uninstall leaving the settings file byte-identical
// and the token revoked.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { scenario } from '../../src/testing/index.js';
import type { ApprovalRecord } from '../../src/store/records.js';
import { poll } from '../../src/testing/index.js';
import { spawnWarden, startCommandSession } from './helpers/server-command.js';

const ORIGINAL = `{\n\t"model":   "sonnet",\n\t"permissions": { "allow": ["Bash(ls:*)"] }\n}`;

describe('warden hook install', () => {
  it('shows the diff, asks, installs hooks that bring claude -p into the inbox, and uninstalls byte for byte', async (t) => {
    const session = await startCommandSession(
      t,
      scenario()
        .on('touch')
        .callTool('Bash', { command: 'touch installed-ok', description: 'Make the file' })
        .thenAnswer('done')
        .build(),
    );
    const settings = join(session.scratch.home, '.claude', 'settings.json');
    mkdirSync(join(session.scratch.home, '.claude'), { recursive: true });
    writeFileSync(settings, ORIGINAL, { mode: 0o600 });
    const hookArgs = (...rest: string[]) => ['hook', ...rest, '--data-dir', session.dataDir];
    const run = async (args: string[]) => {
      const warden = spawnWarden(args, session.env, { closeStdin: true });
      return { ...(await warden.exited), stdout: warden.stdout(), stderr: warden.stderr() };
    };

    // Off a terminal and without --yes: the diff is shown and nothing is written.
    const refused = await run(hookArgs('install'));
    assert.equal(refused.code, 1);
    assert.match(refused.stdout, /Changes to .*settings\.json:\n/);
    assert.match(refused.stdout, /\+ .*hook run PermissionRequest --config /);
    assert.match(refused.stderr, /pass --yes/);
    assert.equal(readFileSync(settings, 'utf8'), ORIGINAL);

    const installed = await run(hookArgs('install', '--yes', '--wait', '90s', '--headless-wait', '60s'));
    assert.equal(installed.code, 0, installed.stderr);
    const config = join(session.dataDir, 'hook.json');
    const { token, waitMs, headlessWaitMs } = JSON.parse(readFileSync(config, 'utf8')) as {
      token: string;
      waitMs: number;
      headlessWaitMs: number;
    };
    assert.deepEqual([waitMs, headlessWaitMs], [90_000, 60_000]);
    assert.equal(statSync(config).mode & 0o777, 0o600);
    const written = readFileSync(settings, 'utf8');
    assert.ok(!written.includes(token), 'the token is not in the settings file');
    assert.match(written, /"timeout": 100/, "the CLI's hook timeout outlasts the wait");
    assert.equal(statSync(settings).mode & 0o777, 0o600, 'the settings file keeps its mode');
    assert.match((await run(hookArgs('status'))).stdout, /user .*settings\.json: installed/);

    // The installed hooks, with a server running: the session's request is answered through the API.
    const serve = spawnWarden(['serve', '--port', '0', '--data-dir', session.dataDir], session.env);
    session.world.track(serve.child.pid);
    await serve.waitFor('stdout', /Press Ctrl-C to stop\./);
    const url = /(http:\/\/127\.0\.0\.1:\d+)\/login#/.exec(serve.stdout())?.[1] ?? '';
    const owner = readFileSync(join(session.dataDir, 'server-token'), 'utf8').trim();
    const api = async (path: string, body?: unknown) => {
      const response = await fetch(`${url}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return (await response.json()) as { approvals: ApprovalRecord[] };
    };
    const claude = spawn(session.world.claudePath, ['-p', '[[touch]] make it', '--output-format', 'json'], {
      cwd: session.scratch.cwd,
      env: session.world.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    session.world.track(claude.pid);
    const exited = new Promise<number | null>((resolve) => claude.on('close', resolve));
    const pending = await poll(async () => (await api('/api/approvals?status=pending')).approvals[0]);
    assert.ok(pending !== undefined);
    await api(`/api/approvals/${pending.id}/decision`, { behavior: 'allow' });
    assert.equal(await exited, 0);
    assert.ok(existsSync(join(session.scratch.cwd, 'installed-ok')));
    serve.child.kill('SIGINT');
    await serve.exited;

    const removed = await run(hookArgs('uninstall', '--yes'));
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(removed.stdout, /- .*hook run Stop --config /);
    assert.equal(readFileSync(settings, 'utf8'), ORIGINAL, 'byte-identical after install and uninstall');
    assert.ok(!existsSync(config), 'the hook configuration is gone');
    const tokens = JSON.parse(readFileSync(join(session.dataDir, 'deciders.json'), 'utf8')) as {
      deciders: { name: string; role: string; revokedAt: string | null }[];
    };
    assert.deepEqual(
      tokens.deciders.map((d) => [d.name, d.role, d.revokedAt !== null]),
      [['hook', 'hook', true]],
    );
  });
});
