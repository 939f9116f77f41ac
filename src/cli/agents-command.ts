// `warden agents [stop THREAD|--all]`: the detached agents of a data directory, which outlive the server
// that started them. While no process holds the directory, the list is read from the store read-only and
// each spool's watchdog marker (until when an idle agent lives with no server); `stop` opens the store
// itself, ends the agents (SIGTERM, then SIGKILL, identity checked) and records each thread stopped, so the
// next message resumes it. While a server holds it (its exclusive lock keeps everyone else out), the
// agents are that server's, not detached: both go through its API with the token file, as `warden status`
// does. A process is judged by pid and start time, here, never by name.
import { join } from 'node:path';

import { StoreError } from '../protocol/errors.js';
import { readToken } from '../server/token.js';
import { openStore } from '../store/open-store.js';
import { readStoreSnapshot, type ThreadSummary } from '../store/read-only.js';
import type { ThreadRecord } from '../store/records.js';
import {
  detachedAgents,
  stopDetachedAgents,
  type DetachedAgent,
} from '../supervisor/durable/detached-agents.js';
import { DATABASE_FILE } from '../supervisor/supervisor.js';
import type { CommandOf } from './args/index.js';
import { serverUrlOf } from './client/server-address.js';
import { ServerClient } from './client/server-client.js';
import { failureReason } from './client/server-errors.js';
import { defaultDataDir } from './data-dir.js';

type AgentsCommand = CommandOf<'agents'>;
type Listed = Omit<DetachedAgent, 'state'> & { state: DetachedAgent['state'] | 'attached' };

const TIMEOUT = { timeoutMs: 10_000 };

export async function agentsCommand(command: AgentsCommand): Promise<number> {
  const dataDir = command.dataDir ?? defaultDataDir();
  const snapshot = readStoreSnapshot(join(dataDir, DATABASE_FILE));
  if (snapshot.state === 'missing') {
    if (command.stop !== undefined) return fail(`no store in ${dataDir}: no agent has run there`);
    return print(command, dataDir, null, []);
  }
  if (snapshot.state === 'held') return viaServer(command, dataDir);
  if (command.stop === undefined)
    return print(command, dataDir, null, detachedAgents(dataDir, snapshot.threads));
  return stopHere(command.stop, dataDir);
}

/** No server holds the directory: this command opens the store, ends the agents and records it. */
async function stopHere(stop: NonNullable<AgentsCommand['stop']>, dataDir: string): Promise<number> {
  let store;
  try {
    store = openStore(dataDir);
  } catch (error) {
    if (!isBusy(error)) throw error;
    return fail(`a server (or warden run) took ${dataDir} over just now; run the command again`);
  }
  try {
    const agents = detachedAgents(
      dataDir,
      store.listThreads().map((thread) => ({ thread, pendingApprovals: 0 })),
    );
    const chosen = choose(agents, stop, dataDir);
    if (typeof chosen === 'string') return fail(chosen);
    const stopped = await stopDetachedAgents(
      store,
      dataDir,
      chosen.filter((agent) => agent.alive).map((agent) => agent.threadId),
    );
    await store.durable();
    const out: string[] = [];
    for (const { threadId, pid, outcome } of stopped)
      out.push(
        outcome === 'survived'
          ? `The agent of thread ${threadId} (pid ${pid}) survived SIGKILL; it stays on record.`
          : `Stopped the agent of thread ${threadId} (pid ${pid}); its next message resumes the conversation.`,
      );
    for (const agent of chosen.filter((candidate) => !candidate.alive))
      out.push(
        `The agent of thread ${agent.threadId} is gone already; the next start parks or closes it out.`,
      );
    if (chosen.length === 0) out.push(`No detached agent is on record in ${dataDir}.`);
    process.stdout.write(`${out.join('\n')}\n`);
    return stopped.some((entry) => entry.outcome === 'survived') ? 1 : 0;
  } finally {
    store.close();
  }
}

/** A server holds the directory: its agents are attached to it, and it stops them. */
async function viaServer(command: AgentsCommand, dataDir: string): Promise<number> {
  const url = serverUrlOf(dataDir, command);
  if (url === undefined)
    return fail(
      `another process holds ${dataDir}, and no server address is recorded in it (a warden run, which ends ` +
        'its agent itself? an address file that another user owns or may write is ignored); pass the ' +
        '--port/--host its server listens on',
    );
  const client = new ServerClient(url, readToken(dataDir).token);
  let threads: ThreadSummary[];
  try {
    const body = await client.get<{ threads: (ThreadRecord & { pendingApprovals: number })[] }>(
      '/api/threads',
      TIMEOUT,
    );
    threads = body.threads.map(({ pendingApprovals, ...thread }) => ({ thread, pendingApprovals }));
  } catch (error) {
    return fail(
      `another process holds ${dataDir}, and the server at ${url} did not answer (${failureReason(error)}); ` +
        'pass the --port/--host it listens on',
    );
  }
  const agents: Listed[] = threads.flatMap(({ thread, pendingApprovals }) =>
    thread.cliProcess === null
      ? []
      : [
          {
            threadId: thread.id,
            pid: thread.cliProcess.pid,
            cwd: thread.cwd,
            alive: true,
            state: 'attached' as const,
            idleUntil: null,
            pendingApprovals,
          },
        ],
  );
  if (command.stop === undefined) return print(command, dataDir, url, agents);
  const chosen = choose(agents, command.stop, dataDir);
  if (typeof chosen === 'string') return fail(chosen);
  for (const agent of chosen) {
    await client.post(`/api/threads/${encodeURIComponent(agent.threadId)}/stop`, {}, TIMEOUT);
    process.stdout.write(
      `Stopped the agent of thread ${agent.threadId} (pid ${agent.pid}) through the server at ${url}.\n`,
    );
  }
  if (chosen.length === 0) process.stdout.write(`The server at ${url} runs no agent.\n`);
  return 0;
}

/** The agents `stop` names: every one, or the thread whose id is, or starts with, the one given. */
function choose<T extends Listed>(
  agents: readonly T[],
  stop: NonNullable<AgentsCommand['stop']>,
  dataDir: string,
): T[] | string {
  if ('all' in stop) return [...agents];
  const exact = agents.filter((agent) => agent.threadId === stop.threadId);
  const matches =
    exact.length > 0 ? exact : agents.filter((agent) => agent.threadId.startsWith(stop.threadId));
  if (matches.length === 1) return matches;
  const named = JSON.stringify(stop.threadId);
  return matches.length === 0
    ? `no agent of thread ${named} is on record in ${dataDir} (warden agents lists them)`
    : `${named} starts several threads' ids (${matches.map((agent) => agent.threadId).join(', ')}): give more of it`;
}

function print(
  command: AgentsCommand,
  dataDir: string,
  server: string | null,
  agents: readonly Listed[],
): number {
  if (command.json === true) {
    const rows = agents.map((agent) => ({
      ...agent,
      idleUntil: agent.idleUntil === null ? null : new Date(agent.idleUntil).toISOString(),
    }));
    process.stdout.write(`${JSON.stringify({ dataDir, server, agents: rows })}\n`);
    return 0;
  }
  const out = [
    `Data directory: ${dataDir}`,
    server === null
      ? 'Server: none holds the data directory; its agents run detached'
      : `Server: running, holds the data directory (${server}); its agents are attached to it`,
  ];
  if (agents.length === 0) out.push('No agent process on record.');
  else out.push(server === null ? 'Detached agents:' : 'Agents:', ...agents.map(agentLine));
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}

function agentLine(agent: Listed): string {
  const approvals = `${agent.pendingApprovals} pending approval${agent.pendingApprovals === 1 ? '' : 's'}`;
  return [`  thread ${agent.threadId}`, `pid ${agent.pid}`, stateWords(agent), approvals, agent.cwd].join(
    '  ',
  );
}

function stateWords(agent: Listed): string {
  switch (agent.state) {
    case 'attached':
      return 'running, attached to the server';
    case 'idle': {
      const until = agent.idleUntil ?? 0;
      const minutes = Math.max(0, Math.round((until - Date.now()) / 60_000));
      return `running, idle: ends by itself at ${new Date(until).toISOString()} (in ${minutes} min) unless a server re-attaches it`;
    }
    case 'waiting':
      return 'running, waits for the next server (it was busy when let go)';
    case 'ending':
      return 'ending (it was idle with no server for its whole limit)';
    case 'gone':
      return 'gone (the next start parks or closes out its thread)';
  }
}

function isBusy(error: unknown): boolean {
  return (
    error instanceof StoreError && (error.cause as { code?: unknown } | undefined)?.code === 'SQLITE_BUSY'
  );
}

function fail(message: string): number {
  process.stderr.write(`warden: ${message}\n`);
  return 1;
}
