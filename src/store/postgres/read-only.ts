// Reading a PostgreSQL store without becoming one of its hosts: for `warden status --store`, `warden audit
// --store` and `warden hosts`, which must never write to the database, register, migrate, or take a lock a
// host needs.
// Unlike SQLite's file, the database can be read while hosts run on it, so no server is asked. The
// projections are not in PostgreSQL: the log is folded here into a replica, as a host does at open.
import pg from 'pg';

import { AUDITED_EVENT_TYPES, type AuditRow, type LogFacts } from '../audit-record.js';
import type { HostRecord } from '../host-registry.js';
import type { ThreadSummary } from '../records.js';
import { hostsOfRows, listHostsStatement } from './hosts.js';
import { auditAfter, auditRowsOf, eventsAfter, eventsOf, headSeq, hostsOf } from './log-queries.js';
import { Replica } from './replica.js';
import { LATEST_PG_SCHEMA_VERSION, pgSchemaVersion } from './schema.js';
import { SyncChannel } from './sync-channel.js';
import { refuseNewerSchema } from '../schema-too-new.js';
import { describeServer } from '../store-target.js';

const CONNECT_TIMEOUT_MS = 5000;
const STATEMENT_TIMEOUT_MS = 10_000;
/** The connection worker's first request also waits for the worker thread to start. */
const STARTUP_MARGIN_MS = 15_000;
const PAGE = 5000;

export interface FleetThreadSummary extends ThreadSummary {
  /** The host that runs the thread's CLI (null: a thread from before hosts had names). */
  readonly owner: string | null;
}

export type PostgresSnapshot =
  | { readonly state: 'missing' }
  | {
      readonly state: 'read';
      readonly threads: readonly FleetThreadSummary[];
      readonly hosts: readonly HostRecord[];
    };

export type PostgresAuditRead<T> =
  { readonly state: 'missing' } | { readonly state: 'read'; readonly value: T };

/** The threads in the log at `url` with their pending approvals and owners, and the fleet's hosts. */
export function readPostgresSnapshot(url: string): PostgresSnapshot {
  return withReader(url, (channel) => {
    const version = schemaVersionOf(channel, describeServer(url));
    if (version === undefined) return { state: 'missing' };
    const head = Number(channel.exec('none', [headSeq])[0]?.[0]?.seq ?? 0);
    const replica = new Replica();
    const owners = new Map<string, string | null>();
    let after = 0;
    while (after < head) {
      const [rows] = channel.exec('none', [eventsAfter(after, PAGE)]);
      const committedBy = hostsOf(rows);
      // Events past the head read first were committed since: this snapshot ends at that head.
      const events = eventsOf(rows).filter((event) => event.seq <= head);
      if (events.length === 0) break;
      events.forEach((event, i) => {
        if (event.type === 'thread.created')
          owners.set(event.threadId, event.data.host ?? committedBy[i] ?? null);
        if (event.type === 'thread.adopted') owners.set(event.threadId, event.data.to);
      });
      replica.fold(events, [], []);
      after = events.at(-1)?.seq ?? head;
    }
    const pending = new Map<string, number>();
    for (const approval of replica.reads.listApprovals({ status: 'pending' }))
      pending.set(approval.threadId, (pending.get(approval.threadId) ?? 0) + 1);
    const threads = replica.reads.listThreads().map((thread) => ({
      thread,
      pendingApprovals: pending.get(thread.id) ?? 0,
      owner: owners.get(thread.id) ?? null,
    }));
    const hosts = version >= 2 ? hostsOfRows(channel.exec('none', [listHostsStatement])[0]) : [];
    return { state: 'read', threads, hosts };
  });
}

/** Hands `use` every audit record at `url` (from `since` on, if given), in order, read a page at a time. */
export function readPostgresAudit<T>(
  url: string,
  use: (rows: Iterable<AuditRow>, log: LogFacts) => T,
  options: { since?: string } = {},
): PostgresAuditRead<T> {
  return withReader(url, (channel) => {
    if (schemaVersionOf(channel, describeServer(url)) === undefined) return { state: 'missing' };
    const { since } = options;
    function* records(): Generator<AuditRow> {
      let after = 0;
      for (;;) {
        const page = auditRowsOf(channel.exec('none', [auditAfter(after, PAGE)])[0]);
        for (const row of page) if (since === undefined || !recordedBefore(row, since)) yield row;
        const last = page.at(-1);
        if (last === undefined || page.length < PAGE) return;
        after = last.seq;
      }
    }
    const [audited, last] = channel.exec('none', [
      {
        sql: 'SELECT seq FROM warden_events WHERE type = ANY($1::text[]) ORDER BY seq',
        params: [[...AUDITED_EVENT_TYPES]],
      },
      { sql: 'SELECT coalesce(max(seq), 0) AS seq FROM warden_events' },
    ]);
    const log: LogFacts = {
      auditedEventSeqs: (audited ?? []).map((row) => Number(row.seq)),
      lastEventSeq: Number(last?.[0]?.seq ?? 0),
    };
    return { state: 'read', value: use(records(), log) };
  });
}

/**
 * The fleet's hosts and their leases at `url` (none before any host joined), through a connection of
 * the caller's own: an async read for a command that has nothing else to do, no worker thread. The
 * driver's error is thrown as it is.
 */
export async function readPostgresHosts(url: string): Promise<HostRecord[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  try {
    await client.connect();
    const { rows } = await client.query<{ found: string | null }>(
      "SELECT to_regclass('warden_hosts')::text AS found",
    );
    if (rows[0]?.found === null || rows[0]?.found === undefined) return [];
    return hostsOfRows((await client.query(listHostsStatement.sql)).rows as Record<string, unknown>[]);
  } finally {
    await client.end().catch(() => undefined);
  }
}

function withReader<T>(url: string, read: (channel: SyncChannel) => T): T {
  const where = describeServer(url);
  const channel = new SyncChannel(
    {
      url,
      where,
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
      statementTimeoutMs: STATEMENT_TIMEOUT_MS,
      exclusiveLockKey: null,
    },
    CONNECT_TIMEOUT_MS + STATEMENT_TIMEOUT_MS + 2000,
  );
  try {
    // Nothing this connection runs may write, whatever a bug would ask of it.
    channel.exec('none', [{ sql: 'SET default_transaction_read_only = on' }], {
      timeoutMs: CONNECT_TIMEOUT_MS + STARTUP_MARGIN_MS,
    });
    return read(channel);
  } finally {
    channel.close();
  }
}

/** The schema's version, or undefined when no Warden has opened the database yet; a newer one is refused. */
function schemaVersionOf(channel: SyncChannel, where: string): number | undefined {
  const version = pgSchemaVersion(channel, 'none');
  if (version === undefined) return undefined;
  refuseNewerSchema(where, version, LATEST_PG_SCHEMA_VERSION);
  const [log] = channel.exec('none', [{ sql: "SELECT to_regclass('warden_events')::text AS log" }]);
  return log?.[0]?.log == null ? undefined : version;
}

/** Whether an audit record's time is before `since` (a record without a readable time is kept). */
function recordedBefore(row: AuditRow, since: string): boolean {
  let at: unknown;
  try {
    at = (JSON.parse(row.text) as { at?: unknown }).at;
  } catch {
    at = undefined;
  }
  return typeof at === 'string' && at < since;
}
