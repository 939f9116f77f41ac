// `warden audit [--format jsonl|csv] [--since TIME]` prints the audit trail; `warden audit verify` checks
// its chain from the first record and names the first broken one (exit code 1); the flags are read by
// args/admin-args.ts. With the data
// directory's server running they ask it (its store is locked to everyone else); without one they read
// the store read-only, never becoming its host. With `--store postgres://…` (or WARDEN_STORE_URL) they
// read the trail in PostgreSQL, where hosts running on it do not keep readers out: no server is asked.
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import { verifyAuditRows, type AuditRow, type VerifyResult } from '../store/audit-chain.js';
import { readAuditReadOnly } from '../store/audit-read.js';
import { readPostgresAudit } from '../store/read-only.js';
import { describeServer, isPostgresUrl } from '../store/store-target.js';
import { csvHeader, csvLine, jsonlLine, type AuditFormat } from '../server/audit-export.js';
import { DATABASE_FILE } from '../supervisor/supervisor.js';
import { UsageError, type CommandOf } from './args/index.js';
import { ServerClient } from './client/server-client.js';
import { defaultDataDir } from './data-dir.js';

export async function auditCommand(command: CommandOf<'audit'>): Promise<number> {
  const { format, since } = command;
  // The flag wins over the environment; an empty variable counts as unset (as for warden serve).
  const store = command.store ?? (process.env.WARDEN_STORE_URL || undefined);
  if (store !== undefined) {
    if (!isPostgresUrl(store))
      throw new UsageError('--store (or WARDEN_STORE_URL) must be a postgres:// or postgresql:// URL');
    if (command.port !== undefined || command.host !== undefined)
      throw new UsageError(
        'With --store the database is read, no server is asked: --port and --host do not apply',
      );
    return command.verify === true ? verifyInPostgres(store) : exportFromPostgres(store, format, since);
  }
  const dataDir = command.dataDir ?? defaultDataDir();
  const client = ServerClient.locate(dataDir, command);

  if (command.verify === true)
    return reportVerified(client === undefined ? verifyLocally(dataDir) : await verifyOnServer(client));

  if (client !== undefined) {
    const query = new URLSearchParams({ format, ...(since === undefined ? {} : { since }) });
    const body = await client.download(`/api/audit?${query.toString()}`, { timeoutMs: 0 });
    await pipeline(Readable.fromWeb(body as never), process.stdout, { end: false });
    return 0;
  }
  const read = readAuditReadOnly(
    join(dataDir, DATABASE_FILE),
    (rows) => writeRows(rows, format),
    since === undefined ? {} : { since },
  );
  const problem = unreadable(read.state, dataDir);
  if (problem !== undefined) {
    process.stderr.write(`warden: ${problem}\n`);
    return 1;
  }
  return 0;
}

function writeRows(rows: Iterable<AuditRow>, format: AuditFormat): void {
  if (format === 'csv') process.stdout.write(csvHeader());
  let chunk = '';
  for (const row of rows) {
    chunk += format === 'csv' ? csvLine(row) : jsonlLine(row);
    if (chunk.length > 64 * 1024) {
      process.stdout.write(chunk);
      chunk = '';
    }
  }
  process.stdout.write(chunk);
}

function reportVerified(result: VerifyResult | string): number {
  if (typeof result === 'string') {
    process.stderr.write(`warden: ${result}\n`);
    return 1;
  }
  if (result.ok) {
    const covers =
      result.covers === undefined
        ? ''
        : `, every decision of the log from event ${result.covers.fromEventSeq} through ${result.covers.throughEventSeq}`;
    process.stdout.write(
      `Audit trail intact: ${result.records} records${covers}; the last one's hash is ${result.head}\n`,
    );
    return 0;
  }
  process.stdout.write(
    `Audit trail broken at record ${result.seq}: ${result.problem} (records 1 to ${result.records} are intact)\n`,
  );
  return 1;
}

function verifyInPostgres(store: string): number {
  return reportVerified(readFromPostgres(store, verifyAuditRows, {}));
}

function exportFromPostgres(store: string, format: AuditFormat, since: string | undefined): number {
  const read = readFromPostgres(
    store,
    (rows) => writeRows(rows, format),
    since === undefined ? {} : { since },
  );
  if (typeof read === 'string') {
    process.stderr.write(`warden: ${read}\n`);
    return 1;
  }
  return 0;
}

/** What `use` made of the trail in PostgreSQL, or why it could not be read. */
function readFromPostgres<T>(
  store: string,
  use: (rows: Iterable<AuditRow>) => T,
  options: { since?: string },
): T | string {
  const where = describeServer(store);
  try {
    const read = readPostgresAudit(store, use, options);
    return read.state === 'read' ? read.value : `no Warden has run on the database at ${where} yet`;
  } catch (error) {
    return `cannot read the audit trail at ${where}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function verifyLocally(dataDir: string): VerifyResult | string {
  const read = readAuditReadOnly(join(dataDir, DATABASE_FILE), verifyAuditRows);
  return read.state === 'read' ? read.value : (unreadable(read.state, dataDir) ?? 'unreadable');
}

/** The server checks its own chain (its store is locked to other readers); a long trail takes a while. */
async function verifyOnServer(client: ServerClient): Promise<VerifyResult | string> {
  try {
    return await client.get<VerifyResult>('/api/audit/verify', { timeoutMs: 60_000 });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function unreadable(state: 'missing' | 'held' | 'none' | 'read', dataDir: string): string | undefined {
  if (state === 'missing') return `no store in ${dataDir}: nothing has run on this data directory`;
  if (state === 'held')
    return 'another process holds the data directory and no server address is recorded in it; pass the --port/--host of its server';
  if (state === 'none')
    return `the store in ${dataDir} has no audit trail yet: it starts the next time Warden opens it`;
  return undefined;
}
