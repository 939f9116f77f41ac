// The SQL a PostgresStore runs on the authoritative log, as statements for the connection worker, and the
// rows they return read back into events.
import type { AuditRow } from '../audit-chain.js';
import type { StoredEvent } from '../event-types.js';
import { eventFromRow, type Row } from '../rows.js';
import { LOG_CHANNEL, type Statement } from './protocol.js';
import type { LastEvent, PreparedCommit, SpoolOffset } from './replica.js';

const EVENT_COLUMNS = 'seq, thread_id, thread_seq, type, at, data';
/** What is read back: the events and the host that committed each (null before hosts had names). */
const READ_COLUMNS = `${EVENT_COLUMNS}, host`;

export const headSeq: Statement = {
  sql: 'SELECT seq FROM warden_log_head WHERE id = 1',
  name: 'warden_head_seq',
};

/** Locks the log head until the transaction ends: writers on every host take their turn here. */
export const lockHead: Statement = {
  sql: 'SELECT seq FROM warden_log_head WHERE id = 1 FOR UPDATE',
  name: 'warden_lock_head',
};

/**
 * lockHead for a commit made durable later (PostgresStore.durable()): its COMMIT returns once the WAL is
 * written, without waiting for the flush. synchronous_commit applies as set when the transaction commits
 * (postgresql.org/docs/current/runtime-config-wal.html#GUC-SYNCHRONOUS-COMMIT).
 */
export const lockHeadAsync: Statement = {
  sql: `SELECT seq, set_config('synchronous_commit', 'off', true) AS async
        FROM warden_log_head WHERE id = 1 FOR UPDATE`,
  name: 'warden_lock_head_async',
};

/**
 * The durability barrier: a transaction of its own with synchronous_commit on that writes WAL (a logical
 * message, which changes no table and so locks nothing). Its COMMIT waits until the WAL is flushed up to
 * its own commit record (postgresql.org/docs/current/wal-async-commit.html: a synchronous commit returns
 * only once "the transaction's WAL records [are] flushed to permanent storage"), and the WAL is one
 * sequence flushed in order: every commit whose record was written before — each asynchronous commit
 * this store made before asking — is then on disk too. It must write: a transaction that wrote no WAL
 * commits asynchronously whatever synchronous_commit says (PostgreSQL commit bdd697e5, "Assume
 * synchronous_commit=off for transactions that don't write WAL"), and assigning it a transaction id alone
 * writes none.
 */
export const barrierStatement: Statement = {
  sql: `SELECT set_config('synchronous_commit', 'on', true) AS sync,
               pg_logical_emit_message(true, 'warden-barrier', '') AS lsn`,
  name: 'warden_barrier',
};

/**
 * barrierStatement that also says whether `last` (this host's last event) is in the log, read in the
 * barrier's own snapshot: a barrier that succeeds on a server restarted since the commits it covers were
 * acknowledged proves them on disk only if they are still there. The WAL is replayed in order after a
 * crash, so if the last one is there every earlier one is too.
 */
export function witnessedBarrier(last: LastEvent): Statement {
  return {
    sql: `SELECT set_config('synchronous_commit', 'on', true) AS sync,
                 pg_logical_emit_message(true, 'warden-barrier', '') AS lsn,
                 EXISTS (SELECT 1 FROM warden_events WHERE seq = $1 AND thread_id = $2 AND thread_seq = $3)
                   AS witnessed`,
    params: [last.seq, last.threadId, last.threadSeq],
    name: 'warden_barrier_witnessed',
  };
}

export const lastAudit: Statement = {
  sql: 'SELECT seq, hash, record AS text FROM warden_audit ORDER BY seq DESC LIMIT 1',
  name: 'warden_last_audit',
};

export function eventsAfter(
  after: number,
  limit: number | null,
  threadId?: string,
  types?: readonly string[],
): Statement {
  const params: unknown[] = [after];
  let where = 'seq > $1';
  if (threadId !== undefined) {
    params.push(threadId);
    where += ` AND thread_id = $${params.length}`;
  }
  if (types !== undefined) {
    params.push(types);
    where += ` AND type = ANY($${params.length})`;
  }
  let sql = `SELECT ${READ_COLUMNS} FROM warden_events WHERE ${where} ORDER BY seq`;
  if (limit !== null) {
    params.push(limit);
    sql += ` LIMIT $${params.length}`;
  }
  // Eight texts, one name each.
  return {
    sql,
    params,
    name: `warden_events_after${threadId === undefined ? '' : '_thread'}${types === undefined ? '' : '_types'}${limit === null ? '' : '_page'}`,
  };
}

/** Who wrote the event at `seq`, and where it went: to tell whether a write whose answer was lost landed. */
export function writtenAt(seq: number): Statement {
  return { sql: 'SELECT thread_id, thread_seq, at, host FROM warden_events WHERE seq = $1', params: [seq] };
}

/** Whether `row` (of writtenAt) is `event` as `host` wrote it: same thread, thread_seq, time and host. */
export function isWrittenAs(row: Row | undefined, event: StoredEvent, host: string | null): boolean {
  return (
    row !== undefined &&
    row.thread_id === event.threadId &&
    Number(row.thread_seq) === event.threadSeq &&
    row.at === event.at &&
    (row.host ?? null) === host
  );
}

/** The spool offsets of the threads the next `limit` events after `after` belong to. */
export function offsetsFor(after: number, limit: number | null): Statement {
  return {
    sql: `SELECT thread_id, spool_dir, spool_offset FROM warden_spool_offsets WHERE thread_id IN (
            SELECT thread_id FROM (SELECT thread_id FROM warden_events WHERE seq > $1 ORDER BY seq LIMIT $2) page)`,
    params: [after, limit],
    name: 'warden_offsets_for',
  };
}

export function auditAfter(after: number, limit: number): Statement {
  return {
    sql: 'SELECT seq, hash, record AS text FROM warden_audit WHERE seq > $1 ORDER BY seq LIMIT $2',
    params: [after, limit],
  };
}

/** Records before `before`, newest first. */
export function auditBefore(before: number, limit: number): Statement {
  return {
    sql: 'SELECT seq, hash, record AS text FROM warden_audit WHERE seq < $1 ORDER BY seq DESC LIMIT $2',
    params: [before, limit],
  };
}

/** `event` as eventsAfter reads it back, but for its host: its data is the text appendBatch stores. */
export function rowOf(event: StoredEvent): Row {
  const { seq, threadId, threadSeq, type, at, data } = event;
  return { seq, thread_id: threadId, thread_seq: threadSeq, type, at, data: JSON.stringify(data) };
}

/** The events as the six arrays `unnest` reads, in the order of READ_COLUMNS before the host. */
function eventColumns(events: PreparedCommit['events']): unknown[][] {
  return [
    events.map((e) => e.seq),
    events.map((e) => e.threadId),
    events.map((e) => e.threadSeq),
    events.map((e) => e.type),
    events.map((e) => e.at),
    events.map((e) => JSON.stringify(e.data)),
  ];
}

/**
 * Appends a prepared commit: events (marked with the committing `host`), audit records, the new head, the
 * spool offset; and notifies listeners of the new head, delivered by the server only once committed.
 */
export function appendStatements(prepared: PreparedCommit, host: string | null = null): Statement[] {
  const { events, audit, spool } = prepared;
  const statements: Statement[] = [];
  if (events.length > 0) {
    // One statement (one round trip): the events, the new head and the notification.
    statements.push({
      sql: `WITH appended AS (
              INSERT INTO warden_events (${READ_COLUMNS})
              SELECT *, $8::text FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[])
            ), head AS (
              UPDATE warden_log_head SET seq = $7::bigint WHERE id = 1
            )
            SELECT pg_notify('${LOG_CHANNEL}', ($7::bigint)::text)`,
      params: [...eventColumns(events), events.at(-1)?.seq, host],
    });
  }
  if (audit.length > 0)
    statements.push({
      sql: `INSERT INTO warden_audit (seq, hash, record)
            SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[])`,
      params: [audit.map((r) => r.seq), audit.map((r) => r.hash), audit.map((r) => r.text)],
    });
  if (spool !== undefined)
    statements.push({
      sql: `INSERT INTO warden_spool_offsets (thread_id, spool_dir, spool_offset) VALUES ($1, $2, $3)
            ON CONFLICT (thread_id) DO UPDATE SET spool_dir = excluded.spool_dir, spool_offset =
              CASE WHEN warden_spool_offsets.spool_dir = excluded.spool_dir
                   THEN greatest(warden_spool_offsets.spool_offset, excluded.spool_offset)
                   ELSE excluded.spool_offset END`,
      params: [spool.threadId, spool.spoolDir, spool.offset],
    });
  return statements;
}

/**
 * Commits in one statement, written only if the log head is still at `head` (the writer's replica has
 * every event, or the writer holds the head's lock): moves the head (its row lock makes writers on all
 * hosts take turns; one that moved it meanwhile leaves no row here, and then nothing is written),
 * appends the events, their audit records and the spool offsets, and notifies listeners of the new head
 * once; the transaction is to commit asynchronously (see lockHeadAsync). Returns one row when it wrote,
 * none when the head had moved. Prepared once per connection: the text never changes, only the arrays.
 */
export function appendBatch(
  commits: readonly PreparedCommit[],
  host: string | null,
  head: number,
): Statement {
  const events = commits.flatMap((commit) => commit.events);
  const audit = commits.flatMap((commit) => commit.audit);
  const spools = mergeSpools(commits.map((commit) => commit.spool));
  return {
    name: 'warden_append_batch',
    sql: `WITH head AS (
            UPDATE warden_log_head SET seq = $7::bigint WHERE id = 1 AND seq = $9::bigint RETURNING seq
          ), appended AS (
            INSERT INTO warden_events (${READ_COLUMNS})
            SELECT *, $8::text
            FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[])
            WHERE EXISTS (SELECT 1 FROM head)
          ), audited AS (
            INSERT INTO warden_audit (seq, hash, record)
            SELECT * FROM unnest($10::bigint[], $11::text[], $12::text[]) WHERE EXISTS (SELECT 1 FROM head)
          ), spooled AS (
            INSERT INTO warden_spool_offsets (thread_id, spool_dir, spool_offset)
            SELECT * FROM unnest($13::text[], $14::text[], $15::bigint[]) WHERE EXISTS (SELECT 1 FROM head)
            ON CONFLICT (thread_id) DO UPDATE SET spool_dir = excluded.spool_dir, spool_offset =
              CASE WHEN warden_spool_offsets.spool_dir = excluded.spool_dir
                        AND NOT (excluded.thread_id = ANY ($16::text[]))
                   THEN greatest(warden_spool_offsets.spool_offset, excluded.spool_offset)
                   ELSE excluded.spool_offset END
          )
          SELECT seq, set_config('synchronous_commit', 'off', true) AS async,
                 pg_notify('${LOG_CHANNEL}', seq::text) AS notified
          FROM head`,
    params: [
      ...eventColumns(events),
      events.at(-1)?.seq ?? head,
      host,
      head,
      audit.map((r) => r.seq),
      audit.map((r) => r.hash),
      audit.map((r) => r.text),
      spools.rows.map((r) => r.threadId),
      spools.rows.map((r) => r.spoolDir),
      spools.rows.map((r) => r.offset),
      spools.replaced,
    ],
  };
}

/**
 * The spool offsets of several commits as one row per thread (an upsert may touch a row once), with the
 * effect of applying them one after another: offsets of one spool keep the greatest; a thread whose
 * spool changed within the commits takes the last one as it is (`replaced`), whatever the table held.
 */
function mergeSpools(spools: readonly (SpoolOffset | undefined)[]): {
  rows: SpoolOffset[];
  replaced: string[];
} {
  const rows = new Map<string, SpoolOffset>();
  const replaced = new Set<string>();
  for (const spool of spools) {
    if (spool === undefined) continue;
    const before = rows.get(spool.threadId);
    if (before === undefined) rows.set(spool.threadId, { ...spool });
    else if (before.spoolDir === spool.spoolDir) before.offset = Math.max(before.offset, spool.offset);
    else {
      rows.set(spool.threadId, { ...spool });
      replaced.add(spool.threadId);
    }
  }
  return { rows: [...rows.values()], replaced: [...replaced] };
}

export function eventsOf(rows: readonly Row[] | undefined): StoredEvent[] {
  return (rows ?? []).map(eventFromRow);
}

export function offsetsOf(rows: readonly Row[] | undefined): SpoolOffset[] {
  return (rows ?? []).map((row) => ({
    threadId: String(row.thread_id),
    spoolDir: String(row.spool_dir),
    offset: Number(row.spool_offset),
  }));
}

export function auditRowsOf(rows: readonly Row[] | undefined): AuditRow[] {
  return (rows ?? []).map((row) => ({
    seq: Number(row.seq),
    hash: String(row.hash),
    text: String(row.text),
  }));
}

/** The host that committed each event row (null: a host without a name, or before hosts had names). */
export function hostsOf(rows: readonly Row[] | undefined): (string | null)[] {
  return (rows ?? []).map((row) => (typeof row.host === 'string' ? row.host : null));
}
