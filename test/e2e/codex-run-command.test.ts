// `warden run --agent codex` end to end: an in-process Supervisor runs the real Codex app-server against
// the mock Responses API; the command's approval is answered on stdin, the command runs, the model's
// answer is printed, and the command exits 0 once the turn is through, leaving no process behind.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { startCodexWorld } from './helpers/codex-world.js';
import { spawnWarden } from './helpers/server-command.js';
import { waitForNoProcess } from './helpers/supervisor-session.js';

const COMMAND = 'echo from-the-terminal > run.txt';

void test(
  'warden run --agent codex asks on stdin, runs the allowed command and exits 0',
  { timeout: 90_000 },
  async (t) => {
    const { world, env } = await startCodexWorld(
      t,
      (ctx) => {
        if (ctx.turnMarker !== 'go') return null;
        if (ctx.turnRounds === 0) return { items: [{ type: 'exec', cmd: COMMAND }] };
        return { items: [{ type: 'text', text: 'the file is written' }] };
      },
      'warden-codex-run-',
    );
    const { scratch } = world;
    const args = ['run', '[[go]] write a file', '--agent', 'codex', '--ask'];
    const warden = spawnWarden([...args, '--cwd', scratch.cwd, '--data-dir', world.dataDir], env);
    await warden.waitFor('stderr', /\? Allow Bash: echo from-the-terminal > run\.txt/);
    warden.child.stdin.write('y\n');
    assert.deepEqual(await warden.exited, { code: 0, signal: null }, warden.stderr());
    assert.equal(readFileSync(join(scratch.cwd, 'run.txt'), 'utf8'), 'from-the-terminal\n');
    assert.match(warden.stdout(), /the file is written/);
    await waitForNoProcess(scratch.home);
  },
);
