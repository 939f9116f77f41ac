// Killing what a CLI left must never reach a process group that is not the CLI's. The CLI leads its own
// group, whose id is its pid; once the CLI and its group are gone, the kernel may give that pid to another
// process, which may lead a group of its own (any detached spawn does). A kill of "the CLI's group" then
// must look at who holds the pid first: a process with another start time is not the CLI.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';

import { isRunning, killTree, startTicksOf } from '../../src/transport/process-tree.js';

test('killTree leaves alone a group whose leader reused the CLI pid', { timeout: 30_000 }, async (t) => {
  // Stands in for an unrelated program that got the pid: it leads its own group, as the CLI did.
  const stranger = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
  t.after(() => {
    if (stranger.exitCode === null) stranger.kill('SIGKILL');
  });
  const pid = stranger.pid ?? 0;
  const startedAt = startTicksOf(pid);
  assert.ok(startedAt !== undefined && startedAt > 0);

  // The CLI on record had this pid and started one tick earlier: the pid now names another process.
  const result = await killTree({ pgid: pid, marker: 'not-the-stranger', startTicks: startedAt - 1 });

  assert.equal(isRunning(pid), true, 'the process that reused the pid is still running');
  assert.deepEqual(result.killed, []);
});

test('killTree still kills the group of the recorded CLI', { timeout: 30_000 }, async (t) => {
  const cli = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
  t.after(() => {
    if (cli.exitCode === null) cli.kill('SIGKILL');
  });
  const pid = cli.pid ?? 0;
  const exited = new Promise((resolve) => cli.once('exit', resolve));
  await killTree({ pgid: pid, marker: 'cli-marker', startTicks: startTicksOf(pid) });
  await exited;
  assert.equal(isRunning(pid), false);
});
