// Group commit on PostgreSQL: commits return before their WAL is flushed (synchronous_commit off), and
// durable() is the barrier that flushes it. After durable() the server's WAL is flushed past every commit
// made before the call, and they survive a crash of the server (an immediate stop: no shutdown
// checkpoint, startup replays the WAL). A barrier that cannot reach the server rejects with a StoreError,
// and the store then takes no more commits. A server of its own, with PostgreSQL's durable settings.
import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';

import { StoreError } from '../../src/protocol/errors.js';
import type { EventDraft } from '../../src/store/event-types.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import {
  postgresBinDir,
  startThrowawayCluster,
  type PostgresCluster,
} from '../../src/testing/postgres-cluster.js';

const created: EventDraft = {
  type: 'thread.created',
  data: { cwd: '/w', mode: 'supervised', model: null, rules: { allow: [], deny: [] } },
};
const titled = (title: string): EventDraft => ({ type: 'thread.titled', data: { title, source: 'user' } });

function open(t: TestContext, url: string): PostgresStore {
  const store = PostgresStore.open(url);
  t.after(() => store.close());
  return store;
}

describe('PostgreSQL group commit', { skip: postgresBinDir() === undefined, timeout: 180_000 }, () => {
  let cluster: PostgresCluster;
  before(async () => {
    cluster = await startThrowawayCluster({ durable: true });
  });
  after(() => cluster?.stop());

  it('after durable() the WAL is flushed past every earlier commit, and a crash of the server keeps them', async (t) => {
    const url = await cluster.createDatabase();
    const database = new URL(url).pathname.slice(1);
    const store = open(t, url);
    store.commit('a', [created]);
    for (let i = 0; i < 20; i++) store.commit('a', [titled(`title ${i}`)]);
    // Every commit's WAL record was inserted before this point.
    const [written] = await cluster.sql('SELECT pg_current_wal_insert_lsn()::text AS lsn', [], database);
    // Calls in one tick share one barrier; all of them resolve.
    await Promise.all(Array.from({ length: 10 }, () => store.durable()));
    const [flushed] = await cluster.sql(
      'SELECT pg_current_wal_flush_lsn() >= $1::pg_lsn AS covered',
      [written?.lsn],
      database,
    );
    assert.equal(flushed?.covered, true, 'the WAL is flushed past the commits');

    await cluster.crash();
    await cluster.start();
    const reopened = open(t, url);
    const events = reopened.readEvents({ threadId: 'a' });
    assert.deepEqual(
      events.map((e) => [e.seq, e.type]),
      [[1, 'thread.created'], ...Array.from({ length: 20 }, (_, i) => [i + 2, 'thread.titled'])],
    );
    assert.equal(reopened.getThread('a')?.title, 'title 19');
  });

  it('a barrier that cannot reach the server rejects durable() with a StoreError; the store then takes no more commits', async (t) => {
    const url = await cluster.createDatabase();
    const store = open(t, url);
    store.commit('a', [created]);
    await store.durable();
    store.commit('a', [titled('unsure')]);
    await cluster.crash();
    try {
      await assert.rejects(store.durable(), StoreError);
      await assert.rejects(store.durable(), StoreError, 'a failed barrier stays failed');
      assert.throws(() => store.commit('a', [titled('refused')]), StoreError);
    } finally {
      await cluster.start();
    }
    assert.throws(
      () => store.commit('a', [titled('refused')]),
      StoreError,
      'the server back does not make the unsure commit durable',
    );
    const events = open(t, url).readEvents({ threadId: 'a' });
    assert.ok(
      !events.some((e) => e.type === 'thread.titled' && e.data.title === 'refused'),
      'nothing was committed after the failed barrier',
    );
  });
});
