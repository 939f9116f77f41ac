// The data directory check: Warden's own spool directories may hold any number of entries, while a
// directory with more than a thousand entries of other kinds is refused untouched.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

import { StoreError } from '../../src/protocol/errors.js';
import { securePrivateDir } from '../../src/store/private-dir.js';

const root = mkdtempSync(join(tmpdir(), 'warden-private-'));
after(() => rmSync(root, { recursive: true, force: true }));

test('hundreds of CLI spool directories do not make the data directory look foreign', () => {
  const dir = join(root, 'many-clis');
  mkdirSync(join(dir, 'cli'), { recursive: true });
  for (let i = 0; i < 300; i++) {
    const spool = join(dir, 'cli', `thread-${i}.1`);
    mkdirSync(spool, { mode: 0o755 });
    for (const name of ['input', 'output', 'errors']) writeFileSync(join(spool, name), '', { mode: 0o644 });
  }
  const fixes = securePrivateDir(dir);
  // Every spool directory and file (and, under a 022 umask, the two directories made above).
  assert.ok(fixes.length >= 300 * 4, `${fixes.length} tightened`);
  assert.equal(statSync(join(dir, 'cli', 'thread-7.1', 'output')).mode & 0o777, 0o600);
});

test('a directory with more than a thousand entries of its own is refused and left as it was', () => {
  const dir = join(root, 'project');
  mkdirSync(dir);
  for (let i = 0; i < 1001; i++) writeFileSync(join(dir, `file-${i}.txt`), '', { mode: 0o644 });
  chmodSync(join(dir, 'file-0.txt'), 0o644);
  assert.throws(
    () => securePrivateDir(dir),
    (error: unknown) => error instanceof StoreError && /more than 1000 entries/.test(error.message),
  );
  assert.equal(statSync(join(dir, 'file-0.txt')).mode & 0o777, 0o644, 'nothing was changed');
});
