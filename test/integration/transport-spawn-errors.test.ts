// A CLI that cannot be started is a SpawnError with the errno and a hint, within a second, never a hang.

import assert from 'node:assert/strict';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { SpawnError } from '../../src/protocol/errors.js';
import { spawnTransport, trackedTreeCount, type ChildTransportOptions } from '../../src/transport/index.js';
import { FAKE_CLI } from './transport-helpers.js';

async function expectSpawnError(options: ChildTransportOptions, errno: string, hint: RegExp): Promise<void> {
  const started = performance.now();
  const tracked = trackedTreeCount();
  const error = await spawnTransport(options).then(
    () => assert.fail('spawned'),
    (failure: unknown) => failure,
  );
  assert.ok(performance.now() - started < 1000, 'SpawnError took a second or more');
  assert.ok(error instanceof SpawnError, String(error));
  assert.equal(error.code, 'SPAWN_FAILED');
  assert.equal(error.errno, errno);
  assert.equal(error.command, options.command);
  assert.match(error.hint ?? '', hint);
  assert.equal(trackedTreeCount(), tracked, 'a failed spawn left a tree to reap');
}

async function tempDir(t: TestContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'warden-spawn-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const PATH = process.env['PATH'];

describe('spawn failures', { timeout: 10_000 }, () => {
  test('a missing binary: ENOENT', async (t) => {
    const dir = await tempDir(t);
    await expectSpawnError({ command: join(dir, 'no-such-claude'), env: { PATH } }, 'ENOENT', /no such file/);
  });

  test('a bare command name not on PATH: ENOENT', async (t) => {
    const dir = await tempDir(t);
    await expectSpawnError({ command: 'no-such-claude-xyz', env: { PATH: dir } }, 'ENOENT', /PATH/);
  });

  test('a file that is not executable: EACCES', async (t) => {
    const file = join(await tempDir(t), 'claude');
    await writeFile(file, '#!/bin/sh\necho hi\n');
    await chmod(file, 0o644);
    await expectSpawnError({ command: file, env: { PATH } }, 'EACCES', /not executable/);
  });

  test('a directory as the command: EACCES', async (t) => {
    const dir = await tempDir(t);
    await expectSpawnError({ command: dir, env: { PATH } }, 'EACCES', /directory/);
  });

  test('env without PATH and a bare command name: refused up front', async () => {
    await expectSpawnError({ command: 'node', args: [FAKE_CLI], env: { HOME: '/' } }, 'ENOENT', /no PATH/);
  });

  test('a working directory that does not exist: ENOENT about the cwd, not the binary', async (t) => {
    const cwd = join(await tempDir(t), 'missing');
    await expectSpawnError({ command: process.execPath, cwd, env: { PATH } }, 'ENOENT', /working directory/);
  });

  test('a working directory that is a file: ENOTDIR', async (t) => {
    const cwd = join(await tempDir(t), 'file');
    await writeFile(cwd, '');
    await expectSpawnError({ command: process.execPath, cwd, env: { PATH } }, 'ENOTDIR', /not a directory/);
  });
});
