// The authoritative tables in PostgreSQL: the event log, its head, the audit trail and each detached
// CLI's processed spool offset. Versioned in `warden_schema_version`, migrated under an advisory lock so
// that two hosts starting at once migrate once. The projections are not here: every host folds them
// into its own replica (replica.ts). Append new migrations; never edit one that has shipped.
import { StoreError } from '../../protocol/errors.js';
import { chainRecord, GENESIS_PREV, genesisDraft } from '../audit-chain.js';
import { refuseNewerSchema } from '../schema-too-new.js';
import type { Statement } from './protocol.js';
import type { SyncChannel } from './sync-channel.js';

/** pg_advisory_xact_lock key held while migrating ("WRDN"). */
export const MIGRATION_LOCK_KEY = 0x5752444e;
/** pg_try_advisory_lock key of the host that owns the store ("WRDH"); see PostgresStoreOptions.exclusive. */
export const HOST_LOCK_KEY = 0x57524448;

/**
 * pg_try_advisory_lock key of a named host (HOST_LOCK_KEY's class, the name's hash as the object): two
 * live hosts can never share a name. Named hosts hold HOST_LOCK_KEY shared, so an exclusive host and a
 * fleet never run on one database at once.
 */
export function namedHostLockKey(name: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(name, 'utf8')) hash = Math.imul(hash ^ byte, 0x01000193);
  // A bigint key apart from the 32-bit ones above: the high word marks it as a host name's.
  return 0x5752 * 2 ** 32 + (hash >>> 0);
}

export interface PgMigration {
  readonly version: number;
  readonly description: string;
  readonly sql: string[];
}

export const PG_MIGRATIONS: readonly PgMigration[] = [
  {
    version: 1,
    description: 'event log with its head, audit trail, spool offsets of detached CLIs',
    sql: [
      `CREATE TABLE warden_log_head (
         id integer PRIMARY KEY CHECK (id = 1),
         seq bigint NOT NULL
       )`,
      `INSERT INTO warden_log_head (id, seq) VALUES (1, 0)`,
      `CREATE TABLE warden_events (
         seq bigint PRIMARY KEY,
         thread_id text NOT NULL,
         thread_seq bigint NOT NULL,
         type text NOT NULL,
         at text NOT NULL,
         data text NOT NULL,
         UNIQUE (thread_id, thread_seq)
       )`,
      `CREATE TABLE warden_audit (
         seq bigint PRIMARY KEY,
         hash text NOT NULL,
         record text NOT NULL
       )`,
      `CREATE TABLE warden_spool_offsets (
         thread_id text PRIMARY KEY,
         spool_dir text NOT NULL,
         spool_offset bigint NOT NULL
       )`,
    ],
  },
  {
    version: 2,
    description: 'hosts of a fleet with their leases; the host that committed each event',
    sql: [
      `CREATE TABLE warden_hosts (
         name text PRIMARY KEY,
         capacity integer,
         roots text NOT NULL,
         pid integer NOT NULL,
         started_at timestamptz NOT NULL,
         heartbeat_at timestamptz NOT NULL,
         lease_ms integer NOT NULL,
         live_clis integer NOT NULL DEFAULT 0
       )`,
      `ALTER TABLE warden_events ADD COLUMN host text`,
    ],
  },
  {
    version: 3,
    description: "the CLIs' transcripts, mirrored so that any host can resume a conversation",
    sql: [
      `CREATE TABLE warden_transcripts (
         id bigserial PRIMARY KEY,
         project_key text NOT NULL,
         session_id text NOT NULL,
         subpath text NOT NULL DEFAULT '',
         entry text NOT NULL
       )`,
      `CREATE INDEX warden_transcripts_key ON warden_transcripts (project_key, session_id, subpath, id)`,
    ],
  },
  {
    version: 4,
    description:
      'indexes that find the commands other hosts asked of a host, and the marks of their being done',
    // Partial indexes: each holds only the rows of its event type, so the rest of the log costs a commit
    // nothing more than testing the type. The expressions are those of command-queries.ts, verbatim.
    sql: [
      `CREATE INDEX warden_events_command_requests ON warden_events (((data::jsonb) ->> 'to'), seq)
         WHERE type = 'thread.command_requested'`,
      `CREATE INDEX warden_events_command_done ON warden_events (((data::jsonb) ->> 'requestId'))
         WHERE type = 'thread.command_done'`,
      `CREATE INDEX warden_events_run_created ON warden_events (((data::jsonb) ->> 'runId'))
         WHERE type = 'run.created'`,
    ],
  },
  {
    version: 5,
    description: "threads placed on each host since its last heartbeat, reserved in its row's capacity",
    sql: [`ALTER TABLE warden_hosts ADD COLUMN placed integer NOT NULL DEFAULT 0`],
  },
];

/** The newest PostgreSQL schema version this Warden knows. */
export const LATEST_PG_SCHEMA_VERSION = PG_MIGRATIONS.at(-1)?.version ?? 0;

/** The schema's version (in the open transaction, or none); undefined when it has no version table. */
export function pgSchemaVersion(channel: SyncChannel, mode: 'none' | 'continue'): number | undefined {
  const [found] = channel.exec(mode, [
    { sql: "SELECT to_regclass('warden_schema_version')::text AS versions" },
  ]);
  if (found?.[0]?.versions == null) return undefined;
  const [rows] = channel.exec(mode, [
    { sql: 'SELECT coalesce(max(version), 0) AS version FROM warden_schema_version' },
  ]);
  return Number(rows?.[0]?.version ?? 0);
}

/**
 * Brings the server's tables to the latest version and writes the audit trail's genesis record if there
 * is none, in one transaction under the migration lock. Refuses a schema newer than this Warden knows
 * (STORE_TOO_NEW) before it writes anything; `where` names the database in that error.
 */
export function migratePostgres(
  channel: SyncChannel,
  migrations: readonly PgMigration[] = PG_MIGRATIONS,
  where = 'this database',
): number {
  const latest = migrations.at(-1)?.version ?? 0;
  channel.exec('begin', [{ sql: 'SELECT pg_advisory_xact_lock($1)', params: [MIGRATION_LOCK_KEY] }]);
  try {
    const current = pgSchemaVersion(channel, 'continue') ?? 0;
    refuseNewerSchema(where, current, latest);
    channel.exec('continue', [
      {
        sql: `CREATE TABLE IF NOT EXISTS warden_schema_version (
                version integer PRIMARY KEY,
                description text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
              )`,
      },
    ]);
    for (const migration of migrations) {
      if (migration.version <= current) continue;
      const statements: Statement[] = migration.sql.map((sql) => ({ sql }));
      statements.push({
        sql: 'INSERT INTO warden_schema_version (version, description) VALUES ($1, $2)',
        params: [migration.version, migration.description],
      });
      try {
        channel.exec('continue', statements);
      } catch (error) {
        throw new StoreError(`Migration ${migration.version} (${migration.description}) failed`, {
          cause: error,
        });
      }
    }
    const [audit, head] = channel.exec('continue', [
      { sql: 'SELECT 1 FROM warden_audit LIMIT 1' },
      { sql: 'SELECT seq FROM warden_log_head WHERE id = 1' },
    ]);
    if (audit?.length === 0) {
      const { row } = chainRecord(
        genesisDraft(new Date().toISOString(), Number(head?.[0]?.seq ?? 0)),
        1,
        GENESIS_PREV,
      );
      channel.exec('continue', [
        {
          sql: 'INSERT INTO warden_audit (seq, hash, record) VALUES ($1, $2, $3)',
          params: [row.seq, row.hash, row.text],
        },
      ]);
    }
    channel.exec('commit', []);
    return Math.max(current, latest);
  } catch (error) {
    channel.rollback();
    throw error;
  }
}
