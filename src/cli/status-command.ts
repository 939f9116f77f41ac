// `warden status`: each thread's CLI process (pid, whether that very process still runs, detached or
// not, pending approvals), the threads parked while idle, and whether a server holds the data
// directory. It never becomes the host: with the directory free it reads the store read-only; while a
// host holds it (the store's exclusive lock keeps every other reader out) it asks that server over its
// API with the token file. Liveness is judged here, by pid and start time, so a reused pid is never
// reported as the CLI. With `--store postgres://…` (or WARDEN_STORE_URL) it reads the fleet's log in
// PostgreSQL instead, hosts running or not; a pid is judged only for the threads of this machine's host
// (`--host-name`, by default the name `warden serve` would give it): another host's show its lease.
import { join } from 'node:path';

import type { CliProcess, ThreadRecord } from '../store/records.js';
import type { HostRecord } from '../store/host-registry.js';
import { readPostgresSnapshot, readStoreSnapshot, type ThreadSummary } from '../store/read-only.js';
import { describeServer, isPostgresUrl } from '../store/store-target.js';
import { readToken } from '../server/token.js';
import { DATABASE_FILE } from '../supervisor/supervisor.js';
import { probeSandbox } from '../supervisor/runtime/sandbox-probe.js';
import { isAlive } from '../transport/exit-watch.js';
import { UsageError, type CommandOf } from './args/index.js';
import { defaultDataDir } from './data-dir.js';
import { hostNameFor } from './host-name.js';
import { serverUrlOf } from './client/server-address.js';
import { ServerClient } from './client/server-client.js';
import { failureReason } from './client/server-errors.js';

export async function statusCommand(command: CommandOf<'status'>): Promise<number> {
  const dataDir = command.dataDir ?? defaultDataDir();
  // The flag wins over the environment; an empty variable counts as unset (as for warden serve).
  const store = command.store ?? (process.env.WARDEN_STORE_URL || undefined);
  if (store !== undefined && !isPostgresUrl(store))
    throw new UsageError('WARDEN_STORE_URL must be a postgres:// or postgresql:// URL');
  if (store !== undefined) return fleetStatus(store, hostNameFor(command.hostName, dataDir));
  if (command.hostName !== undefined)
    throw new UsageError('--host-name goes with --store (a fleet shares a PostgreSQL store)');
  const out: string[] = [`Data directory: ${dataDir}`];
  const snapshot = readStoreSnapshot(join(dataDir, DATABASE_FILE));
  let threads: readonly ThreadSummary[];
  if (snapshot.state === 'missing') {
    process.stdout.write(`${out[0]}\nNo store here yet: nothing has run on this data directory.\n`);
    return 0;
  } else if (snapshot.state === 'read') {
    out.push('Server: none holds the data directory (read from the store)');
    threads = snapshot.threads;
  } else {
    const url = serverUrlOf(dataDir, command);
    if (url === undefined) {
      process.stdout.write(`${out.join('\n')}\n`);
      process.stderr.write(
        'warden: another process holds the data directory, and no server address is recorded in it ' +
          '(it may be a warden run; an address file that another user owns or may write is ignored); ' +
          'pass the --port/--host its server listens on\n',
      );
      return 1;
    }
    try {
      threads = await threadsOf(new ServerClient(url, readToken(dataDir).token));
    } catch (error) {
      process.stdout.write(`${out.join('\n')}\n`);
      process.stderr.write(
        `warden: another process holds the data directory, and the server at ${url} did not answer ` +
          `(${failureReason(error)}); pass the --port/--host it listens on\n`,
      );
      return 1;
    }
    out.push(`Server: running, holds the data directory (${url})`);
  }
  out.push(sandboxLine(), ...threadLines(threads, processLine));
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}

/** Whether the CLI's sandbox can run on this machine, for agents started with this environment. */
function sandboxLine(): string {
  const support = probeSandbox(process.env);
  return support.available
    ? `Sandbox: can run here (${support.mechanism === 'cli' ? "the CLI's own" : 'bubblewrap'}; on for warden serve unless WARDEN_SANDBOX=off)`
    : `Sandbox: cannot run here (${support.reason ?? 'unknown'}): agents' commands are not confined, and allow rules cover fewer words`;
}

/** `warden status --store`: the fleet's threads, read from PostgreSQL (no host is asked or disturbed). */
function fleetStatus(store: string, hostName: string): number {
  const where = describeServer(store);
  let snapshot;
  try {
    snapshot = readPostgresSnapshot(store);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`warden: cannot read the store at ${where}: ${message}\n`);
    return 1;
  }
  if (snapshot.state === 'missing') {
    process.stdout.write(`Store: PostgreSQL at ${where}\nNo Warden has run on this database yet.\n`);
    return 0;
  }
  const hosts = new Map(snapshot.hosts.map((host) => [host.name, host]));
  const out = [
    `Store: PostgreSQL at ${where} (read from the database; this machine's host: ${hostName})`,
    snapshot.hosts.length === 0
      ? 'Hosts: none has joined the fleet'
      : `Hosts: ${snapshot.hosts.map((host) => `${host.name} ${host.live ? 'live' : 'expired'}`).join(', ')}`,
    ...threadLines(snapshot.threads, (summary) => {
      const { owner } = summary;
      // A pid means something only on the machine that started it: this host's (or an unnamed one's).
      return owner === null || owner === hostName
        ? processLine(summary)
        : processElsewhereLine(summary, owner, hosts.get(owner));
    }),
  ];
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}

function threadLines<T extends ThreadSummary>(threads: readonly T[], line: (summary: T) => string): string[] {
  const out: string[] = [];
  const withProcess = threads.filter((t) => t.thread.cliProcess !== null);
  if (withProcess.length === 0) out.push('No CLI process on record.');
  else out.push('CLI processes:', ...withProcess.map(line));
  // Parked threads hold no CLI: it was stopped while idle, and their next message resumes it.
  const parked = threads.filter((t) => t.thread.status === 'parked' && t.thread.cliProcess === null);
  if (parked.length > 0)
    out.push(
      'Parked (no CLI while idle; the next message resumes it):',
      ...parked.map(({ thread }) => `  thread ${thread.id}  ${thread.cwd}`),
    );
  return out;
}

function processLine(summary: ThreadSummary): string {
  const cli = summary.thread.cliProcess as CliProcess;
  const alive = isAlive({ pid: cli.pid, startTicks: cli.startTime ?? undefined });
  return processFields(summary, alive ? 'running' : 'gone (the next start closes it out)');
}

function processElsewhereLine(summary: ThreadSummary, owner: string, host: HostRecord | undefined): string {
  const lease =
    host === undefined
      ? 'never registered'
      : host.live
        ? 'lease live'
        : `unreachable: no heartbeat for ${Math.round(host.msSinceHeartbeat / 1000)} s`;
  return processFields(summary, `on host ${owner} (${lease})`);
}

function processFields({ thread, pendingApprovals }: ThreadSummary, state: string): string {
  const cli = thread.cliProcess as CliProcess;
  return [
    `  thread ${thread.id}`,
    `pid ${cli.pid}`,
    state,
    cli.spoolDir === null ? 'piped (ends with its host)' : 'detached',
    `${pendingApprovals} pending approval${pendingApprovals === 1 ? '' : 's'}`,
    thread.cwd,
  ].join('  ');
}

async function threadsOf(client: ServerClient): Promise<ThreadSummary[]> {
  const body = await client.get<{ threads: (ThreadRecord & { pendingApprovals: number })[] }>(
    '/api/threads',
    { timeoutMs: 5000 },
  );
  return body.threads.map(({ pendingApprovals, ...thread }) => ({ thread, pendingApprovals }));
}
