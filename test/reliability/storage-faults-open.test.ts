// The database file as a host finds it: held by another host, truncated, damaged, capped in size, or left
// by a host killed while a full disk refused its commits. Every case is a StoreError with a stable code
// that names the file; a damaged file is never opened as an empty log and never written to. Each test is
// named after the bug it found, or the guarantee it pins.
import assert from 'node:assert/strict';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
  existsSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import Database from 'better-sqlite3';

import { StoreError } from '../../src/protocol/errors.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { DATABASE_FILE, Supervisor } from '../../src/supervisor/index.js';
import { startHost } from './storage-faults/host-process.js';
import { assertLogSettled } from './storage-faults/host-on-disk.js';

function dataDir(t: { after(fn: () => void): void }): { dir: string; db: string } {
  const root = mkdtempSync(join(tmpdir(), 'warden-store-faults-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const dir = join(root, 'data');
  return { dir, db: join(dir, DATABASE_FILE) };
}

/** A store with a thread and enough events to span several pages, closed cleanly. */
function writeStore(db: string): Buffer {
  mkdirSync(join(db, '..'), { recursive: true });
  const store = SqliteStore.open(db);
  store.commit('thread-1', [
    {
      type: 'thread.created',
      data: { cwd: '/project', mode: 'supervised', model: null, rules: { allow: [], deny: [] } },
    },
  ]);
  for (let i = 0; i < 100; i += 1)
    store.commit('thread-1', [
      { type: 'thread.titled', data: { title: `t${i} ${'x'.repeat(500)}`, source: 'user' } },
    ]);
  store.close();
  return readFileSync(db);
}

function assertStoreError(error: unknown, code: string, db: string): true {
  assert.ok(error instanceof StoreError, `a StoreError, not ${String(error)}`);
  assert.equal(error.code, code);
  assert.ok(error.message.includes(db), `the message names the file: ${error.message}`);
  return true;
}

describe('storage faults: the database file at open', () => {
  it('a database held by another host process is refused with STORE_LOCKED naming the file, and opens once that host is gone', async (t) => {
    const { dir, db } = dataDir(t);
    writeStore(db);
    const other = startHost(['hold', db]);
    t.after(() => other.kill());
    await other.line((line) => line === 'open');
    assert.throws(
      () => SqliteStore.open(db),
      (e) => assertStoreError(e, 'STORE_LOCKED', db),
    );
    assert.throws(() => SqliteStore.open(db), /in use by another process/);
    await assert.rejects(Supervisor.open({ dataDir: dir }), (e) => assertStoreError(e, 'STORE_LOCKED', db));
    // The OS drops the lock of a host that dies.
    await other.kill();
    const store = SqliteStore.open(db);
    assert.equal(store.lastSeq(), 101);
    store.close();
  });

  it('a database locked by another connection in this process is refused the same way', (t) => {
    const { db } = dataDir(t);
    writeStore(db);
    const other = new Database(db);
    t.after(() => other.close());
    other.pragma('locking_mode = EXCLUSIVE');
    other.exec('BEGIN EXCLUSIVE');
    assert.throws(
      () => SqliteStore.open(db),
      (e) => assertStoreError(e, 'STORE_LOCKED', db),
    );
  });

  it('a database file truncated to nothing is refused with STORE_CORRUPT, not opened as an empty log and overwritten', async (t) => {
    const { dir, db } = dataDir(t);
    writeStore(db);
    truncateSync(db, 0);
    assert.throws(
      () => SqliteStore.open(db),
      (e) => assertStoreError(e, 'STORE_CORRUPT', db),
    );
    await assert.rejects(Supervisor.open({ dataDir: dir }), (e) => assertStoreError(e, 'STORE_CORRUPT', db));
    assert.equal(readFileSync(db).length, 0, 'nothing was written to it');
    assert.equal(existsSync(`${db}-wal`), false);
  });

  for (const [damage, change] of [
    ['truncated halfway', (bytes: Buffer) => bytes.subarray(0, Math.floor(bytes.length / 2))],
    ['truncated inside its header', (bytes: Buffer) => bytes.subarray(0, 50)],
    [
      'with a damaged header',
      (bytes: Buffer) => Buffer.concat([Buffer.alloc(100, 0x41), bytes.subarray(100)]),
    ],
  ] as const)
    it(`a database file ${damage} is refused with STORE_CORRUPT naming the file, and left as it was`, async (t) => {
      const { dir, db } = dataDir(t);
      const damaged = change(writeStore(db));
      writeFileSync(db, damaged);
      assert.throws(
        () => SqliteStore.open(db),
        (e) => assertStoreError(e, 'STORE_CORRUPT', db),
      );
      await assert.rejects(Supervisor.open({ dataDir: dir }), (e) =>
        assertStoreError(e, 'STORE_CORRUPT', db),
      );
      assert.deepEqual(readFileSync(db), damaged, 'not a byte changed');
    });

  it('a database damaged in its middle gives STORE_CORRUPT naming the file when the page is read, not a bare SQLite error', async (t) => {
    const { dir, db } = dataDir(t);
    const bytes = writeStore(db);
    // Pages 3 and 4 (4 KiB each) hold the log's rows: opening reads only the first pages.
    const damaged = Buffer.concat([
      bytes.subarray(0, 4096 * 3),
      Buffer.alloc(4096 * 2, 0x41),
      bytes.subarray(4096 * 5),
    ]);
    writeFileSync(db, damaged);
    const opened: { store?: SqliteStore } = {};
    try {
      opened.store = SqliteStore.open(db);
      const store = opened.store;
      assert.throws(
        () => store.readEvents({ limit: 1000 }),
        (e) => assertStoreError(e, 'STORE_CORRUPT', db),
      );
    } catch (error) {
      // Or at open, when the damaged pages are among those it reads.
      assertStoreError(error, 'STORE_CORRUPT', db);
    } finally {
      opened.store?.close();
    }
    // A supervisor opens it (recovery reads other pages) and says so when the log is read.
    const sup = await Supervisor.open({ dataDir: dir, detached: false });
    try {
      assert.throws(
        () => sup.readEvents({ limit: 1000 }),
        (e) => assertStoreError(e, 'STORE_CORRUPT', db),
      );
    } finally {
      await sup.close();
    }
    assert.deepEqual(readFileSync(db), damaged, 'not a byte changed');
  });

  it('a commit past the size cap fails with STORE_FULL, writes nothing, and succeeds once the cap is lifted', (t) => {
    const { db } = dataDir(t);
    writeStore(db);
    const store = SqliteStore.open(db);
    t.after(() => store.close());
    store.limitSize(1);
    const before = store.readEvents({ limit: 1000 });
    const big = {
      type: 'thread.titled' as const,
      data: { title: 'y'.repeat(60_000), source: 'user' as const },
    };
    assert.throws(
      () => store.commit('thread-1', [big]),
      (e) => assertStoreError(e, 'STORE_FULL', db) && (e as StoreError).retryable,
    );
    assert.deepEqual(store.readEvents({ limit: 1000 }), before, 'the log is as it was');
    assert.equal(store.getThread('thread-1')?.title, `t99 ${'x'.repeat(500)}`, 'and so are the projections');
    store.limitSize(null);
    assert.equal(store.commit('thread-1', [big])[0]?.seq, 102);
  });

  it('a host killed while a full disk refuses its commits leaves a log that opens and folds', async (t) => {
    const { dir, db } = dataDir(t);
    writeStore(db);
    const host = startHost(['commits', db, String(256 * 1024)]);
    t.after(() => host.kill());
    // Killed mid-stream, after the cap has refused commits for a while.
    const last = await host.line((line) => Number(/full (\d+)/.exec(line)?.[1] ?? 0) >= 100);
    await host.kill();
    console.log(`[reliability] storage faults: store host killed under a size cap at "${last}"`);
    const sup = await Supervisor.open({ dataDir: dir });
    t.after(() => sup.close());
    assert.ok(sup.lastSeq() > 101, 'what was committed before the disk filled is there');
    await assertLogSettled(sup);
  });
});
