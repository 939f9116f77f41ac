// Reading the projection tables (threads, runs, subagents, approvals) of a SQLite database: the
// SqliteStore's own file, or a PostgresStore's local replica. One set of queries for both backends.
import type BetterSqlite3 from 'better-sqlite3';

import type { ApprovalRecord, RunRecord, SubagentRecord, ThreadRecord } from './records.js';
import { approvalFromRow, runFromRow, subagentFromRow, threadFromRow, type Row } from './rows.js';
import { storeFailure } from './sqlite-failure.js';
import type { ApprovalFilter } from './store.js';

export class ProjectionReads {
  readonly #db: BetterSqlite3.Database;
  readonly #statements = new Map<string, BetterSqlite3.Statement>();

  constructor(db: BetterSqlite3.Database) {
    this.#db = db;
  }

  getThread(id: string): ThreadRecord | undefined {
    const row = this.row('SELECT * FROM threads WHERE id = ?', id);
    return row === undefined ? undefined : threadFromRow(row);
  }

  listThreads(): ThreadRecord[] {
    return this.rows('SELECT * FROM threads ORDER BY rowid').map(threadFromRow);
  }

  getRun(id: string): RunRecord | undefined {
    const row = this.row('SELECT * FROM runs WHERE id = ?', id);
    return row === undefined ? undefined : runFromRow(row);
  }

  listRuns(threadId: string): RunRecord[] {
    return this.rows('SELECT * FROM runs WHERE thread_id = ? ORDER BY rowid', threadId).map(runFromRow);
  }

  getSubagent(id: string): SubagentRecord | undefined {
    const row = this.row('SELECT * FROM subagents WHERE id = ?', id);
    return row === undefined ? undefined : subagentFromRow(row);
  }

  listSubagents(threadId: string): SubagentRecord[] {
    return this.rows('SELECT * FROM subagents WHERE thread_id = ? ORDER BY rowid', threadId).map(
      subagentFromRow,
    );
  }

  getApproval(id: string): ApprovalRecord | undefined {
    const row = this.row('SELECT * FROM approvals WHERE id = ?', id);
    return row === undefined ? undefined : approvalFromRow(row);
  }

  listApprovals(filter: ApprovalFilter = {}): ApprovalRecord[] {
    const where: string[] = [];
    const values: string[] = [];
    for (const [column, value] of [
      ['status', filter.status],
      ['thread_id', filter.threadId],
      ['run_id', filter.runId],
    ] as const) {
      if (value === undefined) continue;
      where.push(`${column} = ?`);
      values.push(value);
    }
    const clause = where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`;
    return this.rows(`SELECT * FROM approvals ${clause} ORDER BY rowid`, ...values).map(approvalFromRow);
  }

  row(sql: string, ...values: unknown[]): Row | undefined {
    try {
      return this.#prepared(sql).get(...values) as Row | undefined;
    } catch (error) {
      // A damaged page is found when it is read: a StoreError (STORE_CORRUPT) naming the file.
      throw storeFailure(error, 'Could not read the store', this.#db.name);
    }
  }

  rows(sql: string, ...values: unknown[]): Row[] {
    try {
      return this.#prepared(sql).all(...values) as Row[];
    } catch (error) {
      throw storeFailure(error, 'Could not read the store', this.#db.name);
    }
  }

  /** Compiling a statement costs more than running it; the queries are a small fixed set of strings. */
  #prepared(sql: string): BetterSqlite3.Statement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }
}
