// The runner's leak check kills what its own run left, and nothing else: a process carrying Warden's marker
// but another run's id (a second test run on the machine) or none (a real `warden serve`) survives it.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { test } from 'node:test';

import { offlineClaudeEnv } from '../../src/testing/index.js';
import { startChild } from '../../src/transport/index.js';
import { killLeftovers, processesOfRun, TEST_RUN_VARIABLE } from '../helpers/leak-check.js';
import { exists } from '../helpers/process-exists.js';

function marked(extra: Record<string, string>): ChildProcess {
  return spawn('sleep', ['60'], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', WARDEN_SESSION_MARKER: randomUUID(), ...extra },
    stdio: 'ignore',
  });
}

test(
  'the leak check kills only the processes of its own run',
  { skip: process.platform !== 'linux' && 'reads /proc' },
  async (t) => {
    const runId = randomUUID();
    const ours = marked({ [TEST_RUN_VARIABLE]: runId });
    const otherRun = marked({ [TEST_RUN_VARIABLE]: randomUUID() });
    const noRun = marked({});
    const unmarked = spawn('sleep', ['60'], { env: { [TEST_RUN_VARIABLE]: runId }, stdio: 'ignore' });
    const all = [ours, otherRun, noRun, unmarked];
    t.after(async () => {
      const running = all.filter((child) => child.exitCode === null && child.signalCode === null);
      const exits = running.map((child) => once(child, 'exit'));
      for (const child of running) child.kill('SIGKILL');
      await Promise.all(exits);
      for (const child of all) assert.equal(exists(child.pid!), false, 'no sleep is left');
    });
    await Promise.all(all.map((child) => once(child, 'spawn')));

    assert.deepEqual(processesOfRun(runId), [ours.pid]);
    const exited = once(ours, 'exit');
    const left = await killLeftovers(runId, { graceMs: 0 });
    assert.deepEqual(
      left.map(({ pid }) => pid),
      [ours.pid],
    );
    assert.match(left[0]!.command, /^sleep 60/);
    assert.deepEqual(await exited, [null, 'SIGKILL']);
    assert.equal(exists(otherRun.pid!), true, "another run's process survives");
    assert.equal(exists(noRun.pid!), true, 'a process of no test run survives');
    assert.equal(exists(unmarked.pid!), true, 'a process without the marker survives');
  },
);

test('an empty run id is refused', () => {
  assert.throws(() => processesOfRun(''), TypeError);
});

test('what a test starts carries its run id: the offline environment and the transport pass it on', async (t) => {
  const saved = process.env[TEST_RUN_VARIABLE];
  const runId = randomUUID();
  process.env[TEST_RUN_VARIABLE] = runId;
  t.after(() => {
    if (saved === undefined) delete process.env[TEST_RUN_VARIABLE];
    else process.env[TEST_RUN_VARIABLE] = saved;
  });
  assert.equal(offlineClaudeEnv({ mockUrl: 'http://127.0.0.1:9' })[TEST_RUN_VARIABLE], runId);

  // An explicit environment without the id (options.env replaces process.env) still gets it.
  const { child, spawned } = startChild({
    command: process.execPath,
    args: ['-e', `process.stdout.write(process.env.${TEST_RUN_VARIABLE} ?? 'none')`],
    cwd: undefined,
    env: { PATH: process.env.PATH },
    marker: randomUUID(),
  });
  await spawned;
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await once(child, 'close');
  assert.equal(out, runId);
});
