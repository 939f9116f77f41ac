// What the SQLite store keeps in memory for its readers must read exactly as the database does: the event
// tail (the last committed events) against the same queries on the file opened again, a thread's row
// after each commit that changes it, and commitMany's commits each all or nothing, as commit() has them.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';

import { ConflictError } from '../../src/protocol/errors.js';
import { SqliteStore } from '../../src/store/index.js';
import { decided, requested, threadDrafts } from '../../bench/lib/decision-drafts.js';
import { created, titled } from '../helpers/store-drafts.js';

function openStore(t: TestContext): { store: SqliteStore; path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'warden-recent-reads-'));
  const path = join(dir, 'warden.db');
  const store = SqliteStore.open(path);
  t.after(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { store, path };
}

describe('the SQLite store’s reads from memory', () => {
  it('reads the last events as the database has them, whatever the query', (t) => {
    const { store, path } = openStore(t);
    store.commit('a', [created]);
    store.commit('b', [created]);
    for (let i = 0; i < 30; i += 1) store.commit(i % 3 === 0 ? 'b' : 'a', [titled(`t${i}`)]);
    const queries = [
      {},
      { after: 5 },
      { after: 5, limit: 3 },
      { threadId: 'b' },
      { threadId: 'a', after: 20, limit: 4 },
      { types: ['thread.created' as const] },
      { types: [] },
      { after: 1000 },
    ];
    const fromMemory = queries.map((query) => store.readEvents(query));
    const textsFromMemory = queries.map((query) => store.readEventTexts(query));
    store.close();
    // The same file opened again: nothing in memory, every read is SQLite's.
    const reopened = SqliteStore.open(path);
    t.after(() => reopened.close());
    assert.deepEqual(
      queries.map((query) => reopened.readEvents(query)),
      fromMemory,
    );
    assert.deepEqual(
      queries.map((query) => reopened.readEventTexts(query)),
      textsFromMemory,
    );
    assert.equal(fromMemory[0]!.length, 32);
  });

  it('gives a fresh record of the thread as of its last commit', (t) => {
    const { store } = openStore(t);
    store.commit('a', [created]);
    const first = store.getThread('a')!;
    first.title = 'changed by a caller';
    assert.equal(store.getThread('a')!.title, null);
    store.commit('a', [titled('named')]);
    assert.equal(store.getThread('a')!.title, 'named');
    assert.equal(store.getThread('a')!.lastThreadSeq, 2);
    assert.equal(store.getThread('missing'), undefined);
  });

  it('keeps a thread’s row across the commits that change only its last seq, as the database has it', (t) => {
    const { store, path } = openStore(t);
    store.commit('t', threadDrafts('t'));
    store.commit('u', threadDrafts('u'));
    const seen: unknown[] = [];
    // Read before each commit, so that every commit finds a row kept in memory.
    const read = (): void => void seen.push(store.getThread('t'), store.getThread('u'));
    read();
    store.commit('t', [requested(1)]);
    read();
    store.commit('t', [decided(1), requested(2)]);
    read();
    store.commitMany([
      { threadId: 't', drafts: [requested(3)] },
      { threadId: 'u', drafts: [requested(1, 'u')] },
      // Refused alone (approval t-a3 is not decided twice): rolled back to its savepoint.
      { threadId: 't', drafts: [decided(3), decided(3)] },
      { threadId: 't', drafts: [decided(2)] },
    ]);
    read();
    // A change of the row itself is read back, not kept.
    store.commitMany([
      { threadId: 't', drafts: [titled('named')] },
      { threadId: 'u', drafts: [decided(1, 'u')] },
    ]);
    read();
    const last = seen.slice(-2);
    store.close();
    const reopened = SqliteStore.open(path);
    t.after(() => reopened.close());
    assert.deepEqual(last, [reopened.getThread('t'), reopened.getThread('u')]);
    assert.equal((last[0] as { title: string }).title, 'named');
    assert.deepEqual(
      seen.map((thread) => (thread as { lastThreadSeq: number }).lastThreadSeq),
      [2, 2, 3, 2, 5, 2, 7, 3, 8, 4],
    );
  });

  it('commits many changes in one transaction, each standing or failing alone', (t) => {
    const { store } = openStore(t);
    store.commit('a', [created]);
    const results = store.commitMany([
      { threadId: 'a', drafts: [titled('one')] },
      // A second thread.created of the same thread does not fit: it alone is refused.
      { threadId: 'a', drafts: [titled('half'), created] },
      { threadId: 'b', drafts: [created, titled('two')] },
    ]);
    assert.equal((results[0] as { type: string }[]).length, 1);
    assert.ok(results[1] instanceof ConflictError);
    assert.deepEqual(
      (results[2] as { type: string }[]).map((event) => event.type),
      ['thread.created', 'thread.titled'],
    );
    assert.deepEqual(
      store.readEvents().map((event) => [event.threadId, event.type]),
      [
        ['a', 'thread.created'],
        ['a', 'thread.titled'],
        ['b', 'thread.created'],
        ['b', 'thread.titled'],
      ],
    );
    assert.equal(store.getThread('a')!.title, 'one');
    assert.equal(store.getThread('a')!.lastThreadSeq, 2);
  });
});
