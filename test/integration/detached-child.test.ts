// A detached CLI outlives the host that spawned it; a second host writes to its input pipe, reads its
// spool, and notices its exit by pid and start time, even while a grandchild holds the spool open.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { SpawnError, TransportClosedError } from '../../src/protocol/errors.js';
import { detachedPaths, removeDetachedFiles, spawnDetached } from '../../src/transport/detached-child.js';
import { isAlive, watchExit, type ProcessIdentity } from '../../src/transport/exit-watch.js';
import { openFifoWriter } from '../../src/transport/fifo.js';
import { signalGroup } from '../../src/transport/process-tree.js';
import { SpoolReader } from '../../src/transport/spool-reader.js';
import { assertNoProcesses, within } from './transport-helpers.js';

const HANG = { timeout: 30_000 };
const HOST = fileURLToPath(new URL('./detached-host-fixture.ts', import.meta.url));
const ECHO = fileURLToPath(new URL('../fixtures/echo-lines.mjs', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'warden-detached-'));
after(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const nextDir = (): string => join(root, `cli-${dirs++}`);

/** Reads spool lines as JSON until `until` says stop. */
async function readUntil(
  reader: SpoolReader,
  until: (frame: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>[]> {
  const frames: Record<string, unknown>[] = [];
  for await (const line of reader.lines()) {
    const frame = JSON.parse(line.text) as Record<string, unknown>;
    frames.push(frame);
    if (until(frame)) break;
  }
  return frames;
}

describe('detached CLI process', () => {
  test('outlives its host; a second host writes, reads on and sees it exit', HANG, async () => {
    const dir = nextDir();
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', HOST, dir]);
    const identity = JSON.parse(stdout) as ProcessIdentity;
    assert.ok(isAlive(identity), 'the CLI runs on after its host exited');
    const paths = detachedPaths(dir);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    assert.equal(statSync(paths.output).mode & 0o777, 0o600);

    const input = openFifoWriter(paths.input);
    input.write('from the second host\n');
    const reader = new SpoolReader({ path: paths.output, pollMs: 20 });
    const frames = await within(
      10_000,
      readUntil(reader, (f) => f['echo'] === 'from the second host'),
      'echo',
    );
    assert.deepEqual(frames, [
      { ready: identity.pid },
      { echo: 'from the first host' },
      { echo: 'from the second host' },
    ]);

    const exited = watchExit(identity, { pollMs: 20 });
    input.end('exit\n');
    await within(5_000, exited, 'the exit watch');
    assert.equal(isAlive(identity), false);
    removeDetachedFiles(paths);
    assert.equal(existsSync(dir), false);
    await assertNoProcesses([identity.pid]);
  });

  test('the exit is noticed promptly while a grandchild still holds the spool', HANG, async () => {
    const child = await spawnDetached({
      command: process.execPath,
      args: [ECHO],
      cwd: undefined,
      env: { PATH: process.env.PATH },
      marker: 'detached-grandchild',
      dir: nextDir(),
    });
    const identity = { pid: child.pid, startTicks: child.startTicks };
    const input = openFifoWriter(child.paths.input);
    input.write('grandchild\n');
    const reader = new SpoolReader({ path: child.paths.output, pollMs: 20 });
    const frames = await within(
      10_000,
      readUntil(reader, (f) => 'grandchild' in f),
      'grandchild',
    );
    const grandchild = frames.at(-1)?.['grandchild'];
    assert.ok(typeof grandchild === 'number');
    input.destroy();

    const exited = watchExit(identity, { pollMs: 20 });
    process.kill(child.pid, 'SIGKILL');
    const killedAt = performance.now();
    await within(5_000, exited, 'the exit watch');
    const noticedMs = performance.now() - killedAt;
    assert.ok(noticedMs < 1_000, `noticed after ${noticedMs.toFixed(0)} ms`);
    assert.ok(isAlive({ pid: grandchild, startTicks: undefined }), 'the grandchild still holds the spool');
    assert.equal(
      (await within(5_000, child.exited, 'the exit')).signal,
      'SIGKILL',
      'the spawning host hears the exit as a parent',
    );

    signalGroup(child.pid, 'SIGKILL');
    removeDetachedFiles(child.paths);
    await assertNoProcesses([child.pid, grandchild], { deadNow: false });
  });

  test('a pid with another start time is not the CLI', () => {
    const self: ProcessIdentity = { pid: process.pid, startTicks: undefined };
    assert.equal(isAlive(self), true);
    assert.equal(isAlive({ pid: process.pid, startTicks: 1 }), false, 'same pid, other process');
  });

  test(
    'writing to the input of a CLI that is gone fails with TransportClosedError at once',
    HANG,
    async () => {
      const child = await spawnDetached({
        command: process.execPath,
        args: [ECHO],
        cwd: undefined,
        env: { PATH: process.env.PATH },
        marker: 'detached-gone',
        dir: nextDir(),
      });
      process.kill(child.pid, 'SIGKILL');
      await within(5_000, child.exited, 'the exit');
      assert.throws(
        () => openFifoWriter(child.paths.input),
        (error: unknown) => error instanceof TransportClosedError && error.code === 'TRANSPORT_CLOSED',
      );
      removeDetachedFiles(child.paths);
    },
  );

  test('a command that cannot start is a SpawnError and leaves no directory', async () => {
    const dir = nextDir();
    await assert.rejects(
      spawnDetached({
        command: join(root, 'no-such-cli'),
        args: [],
        cwd: undefined,
        env: { PATH: process.env.PATH },
        marker: 'detached-missing',
        dir,
      }),
      (error: unknown) => error instanceof SpawnError && error.code === 'SPAWN_FAILED',
    );
    assert.equal(existsSync(dir), false);
  });
});
