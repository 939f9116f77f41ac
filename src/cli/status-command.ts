// `warden status`: each thread's CLI process (pid, whether that very process still runs, detached or
// not, pending approvals), the threads parked while idle, and whether a server holds the data
// directory. It never becomes the host: with the directory free it reads the store read-only; while a
// host holds it (the store's exclusive lock keeps every other reader out) it asks that server over its
// API with the token file. Liveness is judged here, by pid and start time, so a reused pid is never
// reported as the CLI.
import { join } from 'node:path';

import type { CliProcess, ThreadRecord } from '../store/records.js';
import { readStoreSnapshot, type ThreadSummary } from '../store/read-only.js';
import { readToken } from '../server/token.js';
import { DATABASE_FILE } from '../supervisor/supervisor.js';
import { isAlive } from '../transport/exit-watch.js';
import type { Command } from './args.js';
import { defaultDataDir } from './data-dir.js';
import { serverUrlOf } from './login-command.js';

export async function statusCommand(command: Extract<Command, { name: 'status' }>): Promise<number> {
  const dataDir = command.dataDir ?? defaultDataDir();
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
      threads = await askServer(url, readToken(dataDir).token);
    } catch (error) {
      process.stdout.write(`${out.join('\n')}\n`);
      process.stderr.write(
        `warden: another process holds the data directory, and the server at ${url} did not answer ` +
          `(${error instanceof Error ? error.message : String(error)}); pass the --port/--host it listens on\n`,
      );
      return 1;
    }
    out.push(`Server: running, holds the data directory (${url})`);
  }
  const withProcess = threads.filter((t) => t.thread.cliProcess !== null);
  if (withProcess.length === 0) out.push('No CLI process on record.');
  else out.push('CLI processes:', ...withProcess.map(processLine));
  // Parked threads hold no CLI: it was stopped while idle, and their next message resumes it.
  const parked = threads.filter((t) => t.thread.status === 'parked' && t.thread.cliProcess === null);
  if (parked.length > 0)
    out.push(
      'Parked (no CLI while idle; the next message resumes it):',
      ...parked.map(({ thread }) => `  thread ${thread.id}  ${thread.cwd}`),
    );
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}

function processLine({ thread, pendingApprovals }: ThreadSummary): string {
  const cli = thread.cliProcess as CliProcess;
  const alive = isAlive({ pid: cli.pid, startTicks: cli.startTime ?? undefined });
  return [
    `  thread ${thread.id}`,
    `pid ${cli.pid}`,
    alive ? 'running' : 'gone (the next start closes it out)',
    cli.spoolDir === null ? 'piped (ends with its host)' : 'detached',
    `${pendingApprovals} pending approval${pendingApprovals === 1 ? '' : 's'}`,
    thread.cwd,
  ].join('  ');
}

async function askServer(url: string, token: string): Promise<ThreadSummary[]> {
  const response = await fetch(`${url}/api/threads`, {
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(5000),
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const body = (await response.json()) as { threads: (ThreadRecord & { pendingApprovals: number })[] };
  return body.threads.map(({ pendingApprovals, ...thread }) => ({ thread, pendingApprovals }));
}
