// The detached CLIs of a data directory seen from outside any host (`warden agents`): which run, since
// when they are on their own, and until when (their watchdog's deadline, detached-lifetime.ts); and ending
// them while no host holds the directory, recorded as a stop of the thread would be (approvals cancelled,
// runs interrupted: `thread_stopped`), so the next host finds nothing to recover and the next send resumes
// the session. A process is judged by pid and start time, never by name.
import { rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

import type { LeftoverOutcome } from '../../store/event-types.js';
import type { ThreadRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { readLifetime } from '../../transport/detached-lifetime.js';
import { isAlive } from '../../transport/exit-watch.js';
import { closeoutDrafts } from './closeout.js';
import { isDetachedProcess, spoolRoot, type DetachedProcess } from './detached-cli.js';
import { LEFTOVER_KILL_GRACE_MS, LEFTOVER_TERM_GRACE_MS, stopLeftover } from './leftover-processes.js';

/**
 * `waiting`: no deadline, it waits for a host (it was busy when let go, or no idle limit is set);
 * `idle`: it ends by itself at `idleUntil` unless a host takes it back; `ending`: its watchdog is ending
 * it (idle with no host); `gone`: the process no longer runs (the next open parks or closes out its thread).
 */
export type DetachedState = 'waiting' | 'idle' | 'ending' | 'gone';

export interface DetachedAgent {
  readonly threadId: string;
  readonly pid: number;
  readonly cwd: string;
  readonly alive: boolean;
  readonly state: DetachedState;
  /** The watchdog's deadline (epoch ms), when it has one. */
  readonly idleUntil: number | null;
  readonly pendingApprovals: number;
}

/** The threads' detached CLIs of record, spooling in this data directory. */
export function detachedAgents(
  dataDir: string,
  threads: readonly { thread: ThreadRecord; pendingApprovals: number }[],
): DetachedAgent[] {
  const root = resolve(spoolRoot(dataDir));
  return threads.flatMap(({ thread, pendingApprovals }) => {
    const cli = thread.cliProcess;
    // A spool elsewhere than this directory keeps is never read.
    if (!isDetachedProcess(cli) || dirname(resolve(cli.spoolDir)) !== root) return [];
    const alive = isAlive({ pid: cli.pid, startTicks: cli.startTime });
    const lifetime = readLifetime(cli.spoolDir);
    const state: DetachedState = !alive
      ? 'gone'
      : lifetime.endedIdle
        ? 'ending'
        : lifetime.idleUntil === null
          ? 'waiting'
          : 'idle';
    return [
      {
        threadId: thread.id,
        pid: cli.pid,
        cwd: thread.cwd,
        alive,
        state,
        idleUntil: lifetime.idleUntil,
        pendingApprovals,
      },
    ];
  });
}

export interface StoppedAgent {
  readonly threadId: string;
  readonly pid: number;
  readonly outcome: LeftoverOutcome;
}

/**
 * Ends the running detached CLIs of `threadIds` while no host holds `store` (the caller has it open, so it
 * holds the lock): SIGTERM to the group, SIGKILL after the grace, identity checked first; then the
 * thread's stop is recorded in one transaction and the spool removed. A CLI that is gone already is left
 * to the next open. Returns what happened to each one that was running.
 */
export async function stopDetachedAgents(
  store: Store,
  dataDir: string,
  threadIds: readonly string[],
): Promise<StoppedAgent[]> {
  const root = resolve(spoolRoot(dataDir));
  const targets = threadIds.flatMap((threadId) => {
    const cli = store.getThread(threadId)?.cliProcess ?? null;
    if (!isDetachedProcess(cli) || dirname(resolve(cli.spoolDir)) !== root) return [];
    return isAlive({ pid: cli.pid, startTicks: cli.startTime }) ? [{ threadId, cli }] : [];
  });
  return Promise.all(targets.map(({ threadId, cli }) => stopOne(store, threadId, cli)));
}

async function stopOne(store: Store, threadId: string, cli: DetachedProcess): Promise<StoppedAgent> {
  const { outcome, signal } = await stopLeftover(cli, {
    termMs: LEFTOVER_TERM_GRACE_MS,
    killMs: LEFTOVER_KILL_GRACE_MS,
    holdLoop: true,
  });
  const reason = 'thread_stopped';
  const { generation, pid, startTime } = cli;
  const leftover = {
    type: 'session.leftover_process' as const,
    data: { generation, pid, startTime, outcome, signal },
  };
  // One that survived SIGKILL stays on record, its thread live: nothing it could still answer is closed.
  if (outcome === 'survived') {
    store.commit(threadId, [leftover]);
    return { threadId, pid, outcome };
  }
  store.commit(threadId, [
    { type: 'session.stopping', data: { generation, reason } },
    leftover,
    ...closeoutDrafts(store, threadId, { reason, approvals: 'cancelled', subagents: 'stopped' }),
  ]);
  rmSync(cli.spoolDir, { recursive: true, force: true });
  return { threadId, pid, outcome };
}
