// A throwaway PostgreSQL server for tests: `initdb` into a temporary directory, `pg_ctl start` on a free
// port of 127.0.0.1 (its socket in the same directory), a fresh database per caller, and everything
// stopped and removed afterwards, also when the process exits without saying so or is killed
// (cluster-reaper.ts). Debian's `postgresql` package provides the binaries
// (/usr/lib/postgresql/<version>/bin). initdb refuses to run as root, so under root the server runs as
// the `postgres` user. With WARDEN_TEST_PG_URL set, an existing server is
// used instead: databases are created in it and dropped again (at the latest when the process exits), and it
// cannot be restarted.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import pg from 'pg';

import { createDatabaseSql, dropDatabaseSql } from '../store/postgres/databases.js';
import { reapWhenGone } from './cluster-reaper.js';

const run = promisify(execFile);

export interface PostgresClusterOptions {
  /**
   * Keep PostgreSQL's durability settings (fsync, synchronous commit), as for measuring. Default false: a
   * test cluster runs with fsync off, which is faster and loses only what a crashed machine would.
   */
  durable?: boolean;
}

export interface PostgresCluster {
  /** A superuser URL of `database` (default `postgres`). */
  url(database?: string): string;
  /** Creates a database with a unique name; returns its URL. */
  createDatabase(): Promise<string>;
  /** Runs one statement as the superuser (e.g. one that terminates the backends of a database). */
  sql(text: string, params?: unknown[], database?: string): Promise<Record<string, unknown>[]>;
  /** Whether restart() can be used (false on a server given by WARDEN_TEST_PG_URL). */
  readonly restartable: boolean;
  /** Stops the server (fast shutdown: every connection is cut) and starts it again on the same port. */
  restart(): Promise<void>;
  /**
   * Stops the server as a crash would (`pg_ctl stop -m immediate`: no shutdown checkpoint, WAL not yet
   * written is lost; startup then replays the WAL) and leaves it down until start().
   */
  crash(): Promise<void>;
  /** Starts a server crash() stopped, on the same port. */
  start(): Promise<void>;
  /** Drops the databases created here; stops and removes a cluster started here. */
  stop(): Promise<void>;
}

/** The server binaries of the newest installed PostgreSQL, or undefined. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

/** Whether tests can have a PostgreSQL server: one named by WARDEN_TEST_PG_URL, or binaries to start one. */
export function postgresAvailable(): boolean {
  return Boolean(process.env.WARDEN_TEST_PG_URL) || postgresBinDir() !== undefined;
}

export async function startPostgresCluster(options: PostgresClusterOptions = {}): Promise<PostgresCluster> {
  const given = process.env.WARDEN_TEST_PG_URL;
  return given ? existingServer(given) : await startThrowawayCluster(options);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

async function query(url: string, text: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

function databaseName(): string {
  return `warden_test_${process.pid}_${randomBytes(4).toString('hex')}`;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

function databaseTracker(url: (database?: string) => string) {
  const created: string[] = [];
  return {
    async create(): Promise<string> {
      const name = databaseName();
      await query(url(), createDatabaseSql(name));
      created.push(name);
      return url(name);
    },
    names: (): readonly string[] => created,
    async dropAll(): Promise<void> {
      for (const name of created.splice(0)) {
        await query(url(), dropDatabaseSql(name)).catch(() => undefined);
      }
    },
  };
}

/**
 * Drops `names` on the server at `url` before the process ends, from a short-lived child process: an
 * 'exit' handler cannot wait for the driver.
 */
function dropAtExit(url: string, names: readonly string[]): void {
  if (names.length === 0) return;
  const script = `
    const { default: pg } = await import(process.env.PG_MODULE);
    const client = new pg.Client({ connectionString: process.env.PG_URL, connectionTimeoutMillis: 5000 });
    await client.connect();
    for (const statement of JSON.parse(process.env.PG_DROPS)) await client.query(statement).catch(() => {});
    await client.end();`;
  spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    env: {
      PATH: process.env.PATH,
      PG_MODULE: import.meta.resolve('pg'),
      PG_URL: url,
      PG_DROPS: JSON.stringify(names.map(dropDatabaseSql)),
    },
    stdio: 'ignore',
    timeout: 15_000,
  });
}

function existingServer(given: string): PostgresCluster {
  const url = (database = 'postgres') => withDatabase(given, database);
  const databases = databaseTracker(url);
  process.once('exit', () => dropAtExit(url(), databases.names()));
  return {
    url,
    createDatabase: () => databases.create(),
    sql: (text, params, database) => query(url(database), text, params),
    restartable: false,
    restart: () => Promise.reject(new Error('WARDEN_TEST_PG_URL names a server these tests cannot restart')),
    crash: () => Promise.reject(new Error('WARDEN_TEST_PG_URL names a server these tests cannot stop')),
    start: () => Promise.reject(new Error('WARDEN_TEST_PG_URL names a server these tests cannot start')),
    stop: () => databases.dropAll(),
  };
}

/** A server of its own, whatever WARDEN_TEST_PG_URL says (for tests that restart it). */
export async function startThrowawayCluster(options: PostgresClusterOptions = {}): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  if (bin === undefined)
    throw new Error(
      'PostgreSQL server binaries not found (install the postgresql package or set WARDEN_TEST_PG_URL)',
    );
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'warden-pg-'));
  const data = join(dir, 'data');
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const command = (file: string, args: string[]): [string, string[]] =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, file), ...args]] : [join(bin, file), args];
  const port = await freePort();
  const settings = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c max_connections=200',
    ...(options.durable === true
      ? []
      : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
  ].join(' ');
  const pgCtl = (...args: string[]) => run(...command('pg_ctl', ['-D', data, ...args]), { timeout: 60_000 });
  let started = false;
  const removeNow = () => {
    if (started) {
      try {
        execFileSync(...command('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']), { stdio: 'ignore' });
      } catch {
        // Already stopped.
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', removeNow);
  try {
    await run(...command('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']), {
      timeout: 60_000,
    });
    reapWhenGone(dir, command('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']));
    await pgCtl('-o', settings, '-l', join(dir, 'server.log'), '-w', 'start');
    started = true;
  } catch (error) {
    process.removeListener('exit', removeNow);
    removeNow();
    throw error;
  }
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const databases = databaseTracker(url);
  return {
    url,
    createDatabase: () => databases.create(),
    sql: (text, params, database) => query(url(database), text, params),
    restartable: true,
    async restart() {
      await pgCtl('-m', 'fast', '-o', settings, '-l', join(dir, 'server.log'), '-w', 'restart');
    },
    async crash() {
      await pgCtl('-m', 'immediate', '-w', 'stop');
      started = false;
    },
    async start() {
      await pgCtl('-o', settings, '-l', join(dir, 'server.log'), '-w', 'start');
      started = true;
    },
    async stop() {
      process.removeListener('exit', removeNow);
      try {
        if (started) await pgCtl('-m', 'fast', '-w', 'stop');
        started = false;
      } finally {
        removeNow();
      }
    },
  };
}
