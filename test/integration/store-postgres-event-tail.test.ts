// A PostgresStore serves the reads at the log's edge from the events its replica took in last (its own
// commits and what it folded in from other stores): they must read exactly as the server's log does,
// other stores' commits included as soon as they are made, whatever the query.
import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';

import type { EventQuery, StoredEvent } from '../../src/store/index.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { eventFromRow } from '../../src/store/rows.js';
import {
  startPostgresCluster,
  postgresAvailable,
  type PostgresCluster,
} from '../../src/testing/postgres-cluster.js';
import { appendElsewhere, created, titled } from '../helpers/store-drafts.js';

const titleOf = (event: StoredEvent | undefined): unknown => (event?.data as { title?: unknown })?.title;

const QUERIES: EventQuery[] = [
  {},
  { after: 5 },
  { after: 5, limit: 3 },
  { threadId: 'b' },
  { threadId: 'a', after: 20, limit: 4 },
  { types: ['thread.created'] },
  { types: [] },
  { after: 1000 },
];

describe(
  'a PostgreSQL store’s reads at the log’s edge',
  { skip: !postgresAvailable(), timeout: 120_000 },
  () => {
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

    /** What the server's log answers to `query`, read with SQL of the test's own. */
    async function logSays(database: string, query: EventQuery): Promise<StoredEvent[]> {
      const rows = await cluster.sql(
        'SELECT seq, thread_id, thread_seq, type, at, data FROM warden_events WHERE seq > $1 ORDER BY seq',
        [query.after ?? 0],
        database,
      );
      return rows
        .map(eventFromRow)
        .filter((e) => query.threadId === undefined || e.threadId === query.threadId)
        .filter((e) => query.types === undefined || query.types.includes(e.type))
        .slice(0, query.limit ?? 500);
    }

    it('reads its own commits and another store’s, just made, as the log has them', async (t) => {
      const url = await cluster.createDatabase();
      const database = new URL(url).pathname.slice(1);
      const a = open(t, url);
      const b = open(t, url);
      a.commit('a', [created]);
      b.commit('b', [created]);
      for (let i = 0; i < 30; i += 1) {
        (i % 3 === 0 ? b : a).commit(i % 3 === 0 ? 'b' : 'a', [titled(`t${i}`)]);
        // In the same turn as the other store's commit: it is read at once.
        assert.equal(titleOf(a.readEvents({ after: i + 1 }).at(-1)), `t${i}`);
        assert.equal(titleOf(b.readEvents({ after: i + 1 }).at(-1)), `t${i}`);
      }
      await Promise.all([a.durable(), b.durable()]);
      for (const store of [a, b])
        for (const query of QUERIES)
          assert.deepEqual(store.readEvents(query), await logSays(database, query));
      assert.equal(a.readEvents().length, 32);
    });

    it('reads commits another process made, from the next turn on', async (t) => {
      const url = await cluster.createDatabase();
      const database = new URL(url).pathname.slice(1);
      const a = open(t, url);
      a.commit('a', [created]);
      await a.durable();
      assert.equal(a.readEvents().length, 1);
      // Another writer, outside this process.
      await appendElsewhere(cluster, database, {
        seq: 2,
        threadId: 'a',
        threadSeq: 2,
        draft: titled('from elsewhere'),
      });
      const events = a.readEvents();
      assert.deepEqual(events, await logSays(database, {}));
      assert.equal(titleOf(events.at(-1)), 'from elsewhere');
    });
  },
);
