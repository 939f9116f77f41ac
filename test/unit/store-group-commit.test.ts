// Group commit on SQLite: commits return without an fsync, durable() makes every commit made before it
// durable with one fsync of the WAL shared by all who wait, and a failed fsync fails the barrier and every
// later commit with a StoreError. The fsync is counted (and held or failed) through walSync, the one
// seam the barrier calls: the disk is the fault here, the store is real.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, it, type TestContext } from 'node:test';

import { StoreError } from '../../src/protocol/errors.js';
import { SqliteStore, type EventDraft } from '../../src/store/index.js';
import { walSync } from '../../src/store/wal-barrier.js';

const realSync = walSync.sync;

const thread: EventDraft = {
  type: 'thread.created',
  data: { cwd: '/w', mode: 'supervised', model: null, rules: { allow: [], deny: [] } },
};
const titled = (title: string): EventDraft => ({ type: 'thread.titled', data: { title, source: 'user' } });

function openStore(t: TestContext): { store: SqliteStore; path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'warden-group-commit-'));
  const path = join(dir, 'warden.db');
  const store = SqliteStore.open(path);
  t.after(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { store, path };
}

/** Replaces the fsync: each call is counted and waits until `release()` (or fails with `error`). */
function holdSyncs(error?: Error): { calls: number[]; release(): void } {
  const calls: number[] = [];
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  walSync.sync = async (fd) => {
    calls.push(fd);
    await gate;
    if (error !== undefined) throw error;
    return realSync(fd);
  };
  return { calls, release: () => open() };
}

describe('SQLite group commit', () => {
  afterEach(() => {
    walSync.sync = realSync;
  });

  it('makes N commits durable with one fsync shared by every waiter', async (t) => {
    const { store } = openStore(t);
    store.commit('t', [thread]);
    const syncs = holdSyncs();
    const barriers: Promise<void>[] = [];
    for (let i = 0; i < 50; i++) {
      store.commit('t', [titled(`title ${i}`)]);
      barriers.push(store.durable());
    }
    let settled = 0;
    for (const barrier of barriers) void barrier.then(() => (settled += 1));
    // The fsync starts at the end of the turn; until it completes, nobody is told the commits are durable.
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(syncs.calls.length, 1);
    assert.equal(settled, 0);
    syncs.release();
    await Promise.all(barriers);
    assert.equal(settled, 50);
    assert.equal(syncs.calls.length, 1, 'one fsync for all fifty commits');
    // Nothing new since: the barrier resolves without another fsync.
    await store.durable();
    assert.equal(syncs.calls.length, 1);
  });

  it('puts a commit made during an fsync on the next one, not on the one under way', async (t) => {
    const { store } = openStore(t);
    store.commit('t', [thread]);
    const syncs = holdSyncs();
    const first = store.durable();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(syncs.calls.length, 1);
    store.commit('t', [titled('during the first fsync')]);
    let secondDone = false;
    const second = store.durable().then(() => (secondDone = true));
    syncs.release();
    await first;
    assert.equal(secondDone, false, 'the second commit waits for an fsync that started after it');
    await second;
    assert.equal(syncs.calls.length, 2);
  });

  it('fails the barrier and every later commit with a StoreError when the fsync fails', async (t) => {
    const { store } = openStore(t);
    store.commit('t', [thread]);
    const syncs = holdSyncs(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
    store.commit('t', [titled('lost with the disk')]);
    const barrier = store.durable();
    syncs.release();
    await assert.rejects(barrier, (error: unknown) => {
      assert.ok(error instanceof StoreError);
      assert.equal(error.code, 'STORE_UNAVAILABLE');
      assert.match(error.message, /fsync/);
      return true;
    });
    assert.throws(
      () => store.commit('t', [titled('after the failure')]),
      (error: unknown) => error instanceof StoreError && error.code === 'STORE_UNAVAILABLE',
    );
    await assert.rejects(store.durable(), StoreError);
    assert.equal(store.getThread('t')?.title, 'lost with the disk', 'the refused commit wrote nothing');
  });

  it('keeps every commit a reopened store had made durable, and syncs what is left at close', async (t) => {
    const { store, path } = openStore(t);
    store.commit('t', [thread, titled('before close')]);
    const syncs = holdSyncs();
    const pending = store.durable();
    // Closed before the fsync started: close syncs synchronously and settles the waiter.
    store.close();
    await pending;
    assert.equal(syncs.calls.length, 0);
    const reopened = SqliteStore.open(path);
    try {
      assert.equal(reopened.getThread('t')?.title, 'before close');
    } finally {
      reopened.close();
    }
  });

  it('resolves at once for a store in memory', async () => {
    const store = SqliteStore.open(':memory:');
    try {
      store.commit('t', [thread]);
      await store.durable();
    } finally {
      store.close();
    }
  });
});
