// The query a fleet host runs at open for the commands other hosts asked of it while it was down: on a log
// of 100,000 events PostgreSQL answers it through the partial indexes of schema version 4 (EXPLAIN names
// them and reads no table in full), it still answers exactly the requests with no mark of being done, and
// without those indexes the same query reads the whole log (so the plan check can tell the two apart).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { pendingCommandsStatement } from '../../src/store/postgres/command-queries.js';
import { freshDatabase, storeBackends, testCluster } from '../helpers/store-backends.js';

const enabled = storeBackends().some((backend) => backend.name === 'postgres');

const LOG_EVENTS = 100_000;
const REQUESTS = 300;
const INDEXES = ['warden_events_command_requests', 'warden_events_command_done', 'warden_events_run_created'];

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
}

describe(
  'the pending-commands query on PostgreSQL',
  { skip: enabled ? false : 'PostgreSQL is not available', timeout: 120_000 },
  () => {
    it('uses the command indexes on a large log and answers exactly the requests not yet done', async (t) => {
      const url = await freshDatabase(t);
      PostgresStore.open(url).close(); // migrates
      const server = await testCluster();
      const database = decodeURIComponent(new URL(url).pathname.slice(1));
      const sql = (text: string, params: readonly unknown[] = []) => server.sql(text, [...params], database);

      // The bulk of a log: conversation events of 1,000 threads, one in ten a run.created.
      await sql(
        `INSERT INTO warden_events (seq, thread_id, thread_seq, type, at, data, host)
         SELECT g, 't' || (g % 1000), g / 1000 + 1,
                CASE WHEN g % 10 = 0 THEN 'run.created' ELSE 'message.assistant' END,
                '2026-01-01T00:00:00.000Z',
                CASE WHEN g % 10 = 0 THEN json_build_object('runId', 'run-' || g)::text
                     ELSE json_build_object('text', repeat('x', 200))::text END,
                'host-a'
         FROM generate_series(1, $1::int) g`,
        [LOG_EVENTS],
      );
      // Requests: odd ones to host-a, even ones to host-b. One in three is marked done by a
      // thread.command_done, one in three became a run of its id, one in three has no mark; a mark on
      // another thread or before the request does not count.
      await sql(
        `INSERT INTO warden_events (seq, thread_id, thread_seq, type, at, data, host)
         SELECT $1::int + i, 't' || (i % 1000), 1000 + i, 'thread.command_requested', '2026-01-01T00:00:01.000Z',
                json_build_object('requestId', 'req-' || i, 'command', 'interrupt', 'args', '{}'::json,
                                  'by', 'host-c', 'to', CASE WHEN i % 2 = 1 THEN 'host-a' ELSE 'host-b' END)::text,
                'host-c'
         FROM generate_series(1, $2::int) i`,
        [LOG_EVENTS, REQUESTS],
      );
      await sql(
        `INSERT INTO warden_events (seq, thread_id, thread_seq, type, at, data, host)
         SELECT $1::int + $2::int + i,
                't' || CASE WHEN i % 3 = 2 THEN (i + 1) % 1000 ELSE i % 1000 END, 2000 + i,
                CASE WHEN i % 3 = 1 THEN 'run.created' ELSE 'thread.command_done' END,
                '2026-01-01T00:00:02.000Z',
                CASE WHEN i % 3 = 1 THEN json_build_object('runId', 'req-' || i)::text
                     ELSE json_build_object('requestId', 'req-' || i, 'error', null)::text END,
                'host-a'
         FROM generate_series(1, $2::int) i`,
        [LOG_EVENTS, REQUESTS],
      );
      await sql(`UPDATE warden_log_head SET seq = $1`, [LOG_EVENTS + 2 * REQUESTS]);
      await sql('ANALYZE warden_events');

      const statement = pendingCommandsStatement('host-a');
      const pending = await sql(statement.sql, statement.params);
      const expected = Array.from({ length: REQUESTS }, (_, k) => k + 1)
        .filter((i) => i % 2 === 1 && i % 3 === 2)
        .map((i) => `req-${i}`);
      assert.deepEqual(
        pending.map((row) => (JSON.parse(String(row.data)) as { requestId: string }).requestId),
        expected,
      );
      assert.ok(pending.every((row) => row.type === 'thread.command_requested'));

      const plan = async () => {
        const [row] = await sql(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement.sql}`, statement.params);
        const [explained] = row?.['QUERY PLAN'] as [{ Plan: PlanNode; 'Execution Time': number }];
        return { nodes: nodesOf(explained.Plan), ms: explained['Execution Time'] };
      };
      const indexed = await plan();
      const seqScans = indexed.nodes.filter((n) => n['Node Type'] === 'Seq Scan');
      assert.deepEqual(seqScans, [], 'no table is read in full');
      const used = new Set(indexed.nodes.map((n) => n['Index Name']).filter((name) => name !== undefined));
      for (const index of INDEXES)
        assert.ok(used.has(index), `the plan uses ${index}: ${[...used].join(', ')}`);

      // The same query without the indexes reads the log: the check above is what tells them apart.
      for (const index of INDEXES) await sql(`DROP INDEX ${index}`);
      const scanned = await plan();
      assert.ok(
        scanned.nodes.some((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'warden_events'),
        'without the indexes the log is scanned',
      );
      t.diagnostic(
        `pending commands of ${LOG_EVENTS + 2 * REQUESTS} events: ${indexed.ms.toFixed(2)} ms indexed, ` +
          `${scanned.ms.toFixed(2)} ms without the indexes`,
      );
    });
  },
);
