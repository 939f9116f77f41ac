// A permission request in flight when the host detaches is not answered by this host: the CLI still waits
// on it and asks the next host. Nothing may be recorded for it as if the CLI had withdrawn it or it had been
// refused (the log would show a denial the CLI never received).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { SqliteStore } from '../../src/store/index.js';
import { runningDetachedThread } from '../fixtures/detached-thread.js';
import { DATABASE_FILE, Supervisor, type QueryFunction } from '../../src/supervisor/index.js';
import { startTicksOf } from '../../src/transport/process-tree.js';
import { FakeQuery } from '../fixtures/supervisor-fake-query.js';

test('a request in flight when the host detaches is left for the next host, not refused', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'warden-detach-gate-'));
  // Stands in for the CLI process an earlier host left: alive, with the recorded start time.
  const cli = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
  t.after(() => {
    if (cli.exitCode === null) cli.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  const pid = cli.pid ?? 0;
  const dataDir = join(dir, 'data');
  const cwd = join(dir, 'work');
  mkdirSync(cwd);
  const spoolDir = join(dataDir, 'cli', 't1.1');
  mkdirSync(spoolDir, { recursive: true });
  writeFileSync(join(spoolDir, 'output'), '');
  const store = SqliteStore.open(join(dataDir, DATABASE_FILE));
  store.commit(
    't1',
    runningDetachedThread(cwd, { pid, startTime: startTicksOf(pid) ?? null, spoolDir, marker: 'm' }),
  );
  store.close();

  const made: FakeQuery[] = [];
  const query: QueryFunction = ({ prompt, options }) => {
    let letGo!: () => void;
    const fake: FakeQuery = Object.assign(new FakeQuery(prompt, options), {
      redeliveredRequests: () => Promise.resolve([]),
      // Letting go ends iteration and aborts the requests in flight, as the control channel's dispose
      // does; the transport is let go a turn of the event loop later (a real one finishes its writes).
      detach: () => {
        fake.close();
        setImmediate(letGo);
      },
      closed: new Promise<void>((resolve) => (letGo = resolve)),
    });
    made.push(fake);
    return fake;
  };
  const sup = await Supervisor.open({ dataDir, query });
  await sup.reattached;
  const [fake] = made;
  assert.ok(fake !== undefined);

  // A foreground subagent's request: the gate gives the reader a turn to learn the agent first.
  const asked = fake.ask('Bash', { command: 'echo hi' }, { agentID: 'agent-1' });
  await sup.close();
  await asked.result;

  const after = SqliteStore.open(join(dataDir, DATABASE_FILE));
  try {
    const types = after.readEvents({ threadId: 't1' }).map((event) => event.type);
    assert.ok(types.includes('session.detached'));
    assert.deepEqual(
      types.filter((type) => type.startsWith('permission.') || type.startsWith('approval.')),
      [],
      `nothing is decided for a request the CLI still waits on; the log says ${types.join(', ')}`,
    );
  } finally {
    after.close();
  }
});
