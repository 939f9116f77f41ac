// Schema migrations, numbered by SQLite's `user_version`. Each runs in its own transaction together with
// the version bump, so a failed migration leaves the database exactly as it was. Append new migrations;
// never edit one that has shipped.
import type BetterSqlite3 from 'better-sqlite3';

import { StoreError } from '../protocol/errors.js';
import { refuseNewerSchema } from './schema-too-new.js';

export interface Migration {
  readonly version: number;
  readonly description: string;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'event log and projections of threads, runs, subagents and approvals',
    sql: `
      CREATE TABLE threads (
        id TEXT PRIMARY KEY,
        cwd TEXT NOT NULL,
        mode TEXT NOT NULL,
        model TEXT,
        rules TEXT NOT NULL,
        status TEXT NOT NULL,
        session_id TEXT,
        generation INTEGER NOT NULL DEFAULT 0,
        last_seq INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE events (
        seq INTEGER PRIMARY KEY,
        thread_id TEXT NOT NULL REFERENCES threads(id),
        thread_seq INTEGER NOT NULL,
        type TEXT NOT NULL,
        at TEXT NOT NULL,
        data TEXT NOT NULL,
        UNIQUE (thread_id, thread_seq)
      ) STRICT;

      CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        thread_id TEXT NOT NULL REFERENCES threads(id),
        status TEXT NOT NULL,
        trigger TEXT NOT NULL,
        origin TEXT,
        prompt TEXT,
        user_message_id TEXT,
        generation INTEGER NOT NULL,
        result TEXT,
        reason TEXT,
        created_at TEXT NOT NULL,
        started_at TEXT,
        ended_at TEXT,
        released_at TEXT
      ) STRICT;
      CREATE INDEX runs_by_thread ON runs(thread_id);

      CREATE TABLE subagents (
        id TEXT PRIMARY KEY,
        thread_id TEXT NOT NULL REFERENCES threads(id),
        run_id TEXT NOT NULL REFERENCES runs(id),
        tool_use_id TEXT,
        description TEXT,
        task_type TEXT,
        status TEXT NOT NULL,
        summary TEXT,
        reason TEXT,
        generation INTEGER NOT NULL,
        started_at TEXT NOT NULL,
        ended_at TEXT
      ) STRICT;
      CREATE INDEX subagents_by_thread ON subagents(thread_id);

      CREATE TABLE approvals (
        id TEXT PRIMARY KEY,
        thread_id TEXT NOT NULL REFERENCES threads(id),
        run_id TEXT NOT NULL REFERENCES runs(id),
        subagent_id TEXT,
        tool_name TEXT NOT NULL,
        input TEXT NOT NULL,
        tool_use_id TEXT NOT NULL,
        request_id TEXT NOT NULL,
        suggestions TEXT NOT NULL,
        blocked_path TEXT,
        decision_reason TEXT,
        generation INTEGER NOT NULL,
        status TEXT NOT NULL,
        decision TEXT,
        reason TEXT,
        created_at TEXT NOT NULL,
        settled_at TEXT
      ) STRICT;
      CREATE INDEX approvals_by_status ON approvals(status);
      CREATE INDEX approvals_by_thread ON approvals(thread_id);
    `,
  },
  {
    version: 2,
    description: "the rules an approval's allow_always adds; the identity of each thread's CLI process",
    sql: `
      ALTER TABLE approvals ADD COLUMN always_allow_rules TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE threads ADD COLUMN cli_pid INTEGER;
      ALTER TABLE threads ADD COLUMN cli_start_time INTEGER;
      ALTER TABLE threads ADD COLUMN cli_generation INTEGER;
    `,
  },
  {
    version: 3,
    description: 'where a detached CLI process of a thread spools its output, and how far it was processed',
    sql: `
      ALTER TABLE threads ADD COLUMN cli_spool_dir TEXT;
      ALTER TABLE threads ADD COLUMN cli_marker TEXT;
      ALTER TABLE threads ADD COLUMN cli_spool_offset INTEGER;
    `,
  },
  {
    version: 4,
    description: "each thread's title (threads older than it get one from their first prompt when read)",
    sql: `ALTER TABLE threads ADD COLUMN title TEXT;`,
  },
  {
    version: 5,
    description: 'the audit trail: one hash-chained record per decision, cancellation and expiry',
    sql: `
      CREATE TABLE audit (
        seq INTEGER PRIMARY KEY,
        hash TEXT NOT NULL,
        record TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 6,
    description: 'rules granted by always-allow per thread and session; deadlines of threads and approvals',
    sql: `
      ALTER TABLE threads ADD COLUMN grants TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE threads ADD COLUMN deadlines TEXT;
      ALTER TABLE approvals ADD COLUMN deadline TEXT;
    `,
  },
  {
    version: 7,
    description:
      'the kind of each thread: run by Warden, or an external CLI session adopted through its hooks',
    sql: `ALTER TABLE threads ADD COLUMN kind TEXT NOT NULL DEFAULT 'warden';`,
  },
  {
    version: 8,
    description: "each approval's routing: its risks and its route's escalation, with the steps taken",
    sql: `ALTER TABLE approvals ADD COLUMN routing TEXT;`,
  },
  {
    version: 9,
    description: 'two-person approvals: why two deciders must allow, and the first allow recorded',
    sql: `
      ALTER TABLE approvals ADD COLUMN two_person TEXT;
      ALTER TABLE approvals ADD COLUMN endorsements TEXT NOT NULL DEFAULT '[]';
    `,
  },
  {
    version: 10,
    description: 'the agent CLI each thread runs: Claude Code, or the Codex app-server',
    sql: `ALTER TABLE threads ADD COLUMN agent TEXT NOT NULL DEFAULT 'claude';`,
  },
];

/** The newest schema version this Warden knows. */
export const LATEST_SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;

export function schemaVersion(db: BetterSqlite3.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Brings the database to the latest version. Refuses a database written by a newer Warden (it would
 * misread the data) with STORE_TOO_NEW; a migration that fails is rolled back (STORE_FAILED). `where`
 * names the database in errors.
 */
export function migrate(
  db: BetterSqlite3.Database,
  migrations: readonly Migration[] = MIGRATIONS,
  where = 'this database',
): number {
  const latest = migrations.at(-1)?.version ?? 0;
  const current = schemaVersion(db);
  refuseNewerSchema(where, current, latest);
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    try {
      db.transaction(() => {
        db.exec(migration.sql);
        // PRAGMA takes no bound parameters; the version is a number from our own list.
        db.pragma(`user_version = ${Math.trunc(migration.version)}`);
      })();
    } catch (error) {
      throw new StoreError(`Migration ${migration.version} (${migration.description}) failed`, {
        cause: error,
      });
    }
  }
  return schemaVersion(db);
}
