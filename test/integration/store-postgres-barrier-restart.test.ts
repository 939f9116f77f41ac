// The durability barrier across a server that goes away and comes back (store-postgres-durable.test.ts
// covers a server that stays away). A barrier whose connection is lost is tried again on a fresh one
// while the server restarts, and it holds once the server is back, provided the log still has the
// store's last event; a server that came back without it lost what it had acknowledged, and the store
// says so and takes no more commits.
import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';

import { StoreError } from '../../src/protocol/errors.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import {
  postgresBinDir,
  startThrowawayCluster,
  type PostgresCluster,
} from '../../src/testing/postgres-cluster.js';
import { until } from '../../src/testing/until.js';
import { created, titled } from '../helpers/store-drafts.js';

function open(t: TestContext, url: string): PostgresStore {
  const store = PostgresStore.open(url);
  t.after(() => store.close());
  return store;
}

describe(
  'PostgreSQL barrier across a restart',
  { skip: postgresBinDir() === undefined, timeout: 180_000 },
  () => {
    let cluster: PostgresCluster;
    before(async () => {
      cluster = await startThrowawayCluster();
    });
    after(() => cluster?.stop());

    /** Resolves once the server's WAL writer has written (and so kept through a crash) every commit so far. */
    async function walWritten(database: string): Promise<void> {
      const [inserted] = await cluster.sql('SELECT pg_current_wal_insert_lsn()::text AS lsn', [], database);
      await until(
        async () => {
          const [row] = await cluster.sql(
            'SELECT pg_current_wal_flush_lsn() >= $1::pg_lsn AS written',
            [inserted?.lsn],
            database,
          );
          return row?.written === true ? true : undefined;
        },
        { what: 'the WAL writer to write the commits' },
      );
    }

    it('a barrier asked while the server is down holds once it is back with the commits; the store goes on', async (t) => {
      const url = await cluster.createDatabase();
      const database = new URL(url).pathname.slice(1);
      const store = open(t, url);
      store.commit('a', [created]);
      await store.durable();
      store.commit('a', [titled('before the crash')]);
      await walWritten(database);

      await cluster.crash();
      const barrier = store.durable();
      await cluster.start();
      await barrier;

      store.commit('a', [titled('after the restart')]);
      await store.durable();
      const events = open(t, url).readEvents({ threadId: 'a' });
      assert.deepEqual(
        events.map((e) => [e.seq, e.type, e.type === 'thread.titled' ? e.data.title : null]),
        [
          [1, 'thread.created', null],
          [2, 'thread.titled', 'before the crash'],
          [3, 'thread.titled', 'after the restart'],
        ],
      );
    });

    it('a server back without the last event the store committed fails the barrier with a StoreError naming it', async (t) => {
      const url = await cluster.createDatabase();
      const database = new URL(url).pathname.slice(1);
      const store = open(t, url);
      store.commit('a', [created]);
      await store.durable();
      store.commit('a', [titled('lost')]);
      await walWritten(database);

      // What a crash that lost the unflushed commit leaves: the log as it was before it.
      await cluster.crash();
      await cluster.start();
      await cluster.sql('DELETE FROM warden_events WHERE seq = 2', [], database);
      await cluster.sql('UPDATE warden_log_head SET seq = 1 WHERE id = 1', [], database);

      await assert.rejects(store.durable(), (error: unknown) => {
        assert.ok(error instanceof StoreError);
        assert.match(error.message, /lost changes this host committed \(event 2 is not in its log\)/);
        return true;
      });
      assert.throws(
        () => store.commit('a', [titled('refused')]),
        StoreError,
        'the store takes no more commits',
      );
      assert.deepEqual(
        open(t, url)
          .readEvents({ threadId: 'a' })
          .map((e) => e.type),
        ['thread.created'],
      );
    });
  },
);
