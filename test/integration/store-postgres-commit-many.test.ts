// PostgresStore.commitMany, the commits of one turn: written together in one statement when the replica
// has every event, each refused alone when its drafts do not fit, and tried again one by one when another
// store moved the log meanwhile, so that a replica behind the log never refuses what the log accepts.
import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';

import { ConflictError } from '../../src/protocol/errors.js';
import type { StoredEvent } from '../../src/store/index.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import {
  startPostgresCluster,
  postgresAvailable,
  type PostgresCluster,
} from '../../src/testing/postgres-cluster.js';
import { appendElsewhere, created, titled } from '../helpers/store-drafts.js';

const events = (result: StoredEvent[] | Error | undefined): StoredEvent[] => {
  if (!Array.isArray(result)) throw new Error(`not committed: ${String(result)}`);
  return result;
};

describe('PostgreSQL commitMany', { skip: !postgresAvailable(), timeout: 120_000 }, () => {
  let cluster: PostgresCluster;
  before(async () => {
    cluster = await startPostgresCluster();
  });
  after(() => cluster?.stop());

  function open(t: TestContext, url: string): PostgresStore {
    const store = PostgresStore.open(url);
    t.after(() => store.close());
    return store;
  }

  it('writes the commits together, refusing alone the one that does not fit', async (t) => {
    const url = await cluster.createDatabase();
    const store = open(t, url);
    store.commit('a', [created]);
    store.commit('b', [created]);
    await store.durable();
    const results = store.commitMany([
      { threadId: 'a', drafts: [titled('one')] },
      { threadId: 'a', drafts: [created] },
      { threadId: 'b', drafts: [titled('two'), titled('three')] },
    ]);
    assert.deepEqual(
      events(results[0]).map((e) => e.seq),
      [3],
    );
    assert.ok(results[1] instanceof ConflictError, 'the second commit is refused alone');
    assert.deepEqual(
      events(results[2]).map((e) => e.seq),
      [4, 5],
    );
    await store.durable();
    const log = open(t, url).readEvents();
    assert.deepEqual(
      log.map((e) => [e.seq, e.threadId, e.type]),
      [
        [1, 'a', 'thread.created'],
        [2, 'b', 'thread.created'],
        [3, 'a', 'thread.titled'],
        [4, 'b', 'thread.titled'],
        [5, 'b', 'thread.titled'],
      ],
    );
    assert.equal(open(t, url).getThread('b')?.title, 'three');
  });

  it('tries each again alone when another store moved the log, also for a thread only the log has yet', async (t) => {
    const url = await cluster.createDatabase();
    const database = new URL(url).pathname.slice(1);
    const a = open(t, url);
    a.commit('a', [created]);
    await a.durable();
    // Another writer outside this process creates thread c: a's replica knows nothing of it.
    await appendElsewhere(cluster, database, { seq: 2, threadId: 'c', threadSeq: 1, draft: created });
    const results = a.commitMany([
      { threadId: 'c', drafts: [titled('on c')] },
      { threadId: 'a', drafts: [titled('on a')] },
    ]);
    assert.deepEqual(
      results.map((result) => events(result).map((e) => e.seq)),
      [[3], [4]],
    );
    await a.durable();
    assert.deepEqual(
      open(t, url)
        .readEvents()
        .map((e) => [e.seq, e.threadId, e.type]),
      [
        [1, 'a', 'thread.created'],
        [2, 'c', 'thread.created'],
        [3, 'c', 'thread.titled'],
        [4, 'a', 'thread.titled'],
      ],
    );
  });
});
