// A host that opens and closes at once (close() detaches by default) must leave the CLIs it re-attached to
// running, for the next host: the CLI is not stopped, nothing of its thread is closed out, and its pending
// approval stays pending. Re-attaching is not instant (the query sets up before it takes the transport),
// and a close() in that window must still detach.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

import { SqliteStore } from '../../src/store/index.js';
import { runningDetachedThread } from '../fixtures/detached-thread.js';
import { DATABASE_FILE, Supervisor } from '../../src/supervisor/index.js';
import { removeDetachedFiles, spawnDetached } from '../../src/transport/detached-child.js';
import { isAlive } from '../../src/transport/exit-watch.js';
import { signalGroup } from '../../src/transport/process-tree.js';
import { assertNoProcesses } from '../integration/transport-helpers.js';

const CLAUDE = fileURLToPath(
  new URL('../../node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude', import.meta.url),
);

test(
  'close() right after open() detaches a re-attached CLI instead of stopping it',
  { timeout: 30_000 },
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-quick-close-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const dataDir = join(dir, 'data');
    const cwd = join(dir, 'work');
    mkdirSync(cwd);
    mkdirSync(join(dataDir, 'cli'), { recursive: true, mode: 0o700 });
    // Stands in for the CLI an earlier host left: alive, detached, with its pipe and spool.
    const marker = 'quick-close';
    const cli = await spawnDetached({
      command: 'sleep',
      args: ['30'],
      cwd: undefined,
      env: { PATH: process.env.PATH },
      marker,
      dir: join(dataDir, 'cli', 't1.1'),
    });
    const identity = { pid: cli.pid, startTicks: cli.startTicks };
    t.after(() => {
      signalGroup(cli.pid, 'SIGKILL');
      removeDetachedFiles(cli.paths);
    });
    const store = SqliteStore.open(join(dataDir, DATABASE_FILE));
    store.commit(
      't1',
      runningDetachedThread(cwd, {
        pid: cli.pid,
        startTime: cli.startTicks ?? null,
        spoolDir: cli.paths.dir,
        marker,
      }),
    );
    store.close();

    const sup = await Supervisor.open({ dataDir, claudePath: CLAUDE });
    assert.equal(sup.recovered.processesReattached, 1);
    await sup.close();

    assert.equal(isAlive(identity), true, 'the CLI is left running for the next host');
    const after = SqliteStore.open(join(dataDir, DATABASE_FILE));
    try {
      const types = after.readEvents({ threadId: 't1' }).map((event) => event.type);
      assert.ok(types.includes('session.detached'), `detached; the log says ${types.join(', ')}`);
      assert.ok(!types.includes('session.stopping'), 'not stopped');
      assert.equal(after.getRun('r1')?.status, 'running', 'the run goes on');
      assert.equal(after.getThread('t1')?.cliProcess?.pid, cli.pid, 'the process stays on record');
    } finally {
      after.close();
    }
    signalGroup(cli.pid, 'SIGKILL');
    await assertNoProcesses([cli.pid], { deadNow: false });
  },
);
