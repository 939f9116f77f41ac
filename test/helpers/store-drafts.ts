// The drafts the store tests commit: a thread created, a title set; and an event written into a
// PostgreSQL log behind the store's back, as another process's commit would be (its row and the head).
import type { EventDraft } from '../../src/store/index.js';
import type { PostgresCluster } from '../../src/testing/postgres-cluster.js';

export const created: EventDraft = {
  type: 'thread.created',
  data: { cwd: '/w', mode: 'supervised', model: null, rules: { allow: [], deny: [] } },
};

export const titled = (title: string): EventDraft => ({
  type: 'thread.titled',
  data: { title, source: 'user' },
});

/** Appends `draft` at `seq` of the log in `database` as a commit of no named host, moving the head there. */
export async function appendElsewhere(
  cluster: PostgresCluster,
  database: string,
  event: {
    readonly seq: number;
    readonly threadId: string;
    readonly threadSeq: number;
    readonly draft: EventDraft;
  },
): Promise<void> {
  await cluster.sql(
    `WITH e AS (INSERT INTO warden_events (seq, thread_id, thread_seq, type, at, data, host)
                VALUES ($1, $2, $3, $4, $5, $6, NULL) RETURNING seq)
     UPDATE warden_log_head SET seq = (SELECT seq FROM e) WHERE id = 1`,
    [
      event.seq,
      event.threadId,
      event.threadSeq,
      event.draft.type,
      new Date().toISOString(),
      JSON.stringify(event.draft.data),
    ],
    database,
  );
}
