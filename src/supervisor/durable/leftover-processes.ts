// CLI processes a previous host left running. A host killed with SIGKILL cannot stop its CLIs (each leads
// its own process group), and they carry on for minutes. The log has each one's pid and start time, so
// open() finds them and stops them before closing out their threads. A process is identified by pid AND
// start time, never by name: a pid the kernel has given to another process is left alone.
import { setTimeout as delay } from 'node:timers/promises';

import type { LeftoverOutcome } from '../../store/event-types.js';
import type { CliProcess } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { isAlive } from '../../transport/exit-watch.js';
import { isRunning, signalGroup, signalProcess, startTicksOf } from '../../transport/process-tree.js';

/** How long a leftover CLI gets to exit after SIGTERM before it is sent SIGKILL. */
export const LEFTOVER_TERM_GRACE_MS = 3000;
/** How long to wait for it to be gone after SIGKILL. */
export const LEFTOVER_KILL_GRACE_MS = 2000;
const POLL_MS = 20;
const HOLDING = { termMs: LEFTOVER_TERM_GRACE_MS, killMs: LEFTOVER_KILL_GRACE_MS, holdLoop: true };

/** Is the process that `pid` names now the one that was recorded? */
function isSameProcess(pid: number, startTime: number): boolean {
  return isAlive({ pid, startTicks: startTime });
}

/**
 * Polls until the recorded process is gone or `ms` have passed; true when it is gone. With `holdLoop` the
 * polls keep the event loop alive (someone awaits the outcome: open(), `warden agents stop`).
 */
async function goneWithin(
  cli: CliProcess & { startTime: number },
  ms: number,
  holdLoop: boolean,
): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (isSameProcess(cli.pid, cli.startTime)) {
    if (performance.now() >= deadline) return false;
    await delay(POLL_MS, undefined, { ref: holdLoop });
  }
  return true;
}

/**
 * Stops the recorded process if it still runs: SIGTERM to its process group, then SIGKILL to the group
 * while the leader is still the recorded process. Signals are only sent after the identity was checked.
 * `holdLoop`: the waits keep the event loop alive, for a caller that awaits the outcome (without it, a
 * host with nothing else to do may exit meanwhile; the group has its signal by then).
 */
export async function stopLeftover(
  cli: CliProcess,
  grace: { termMs: number; killMs: number; holdLoop?: boolean } = {
    termMs: LEFTOVER_TERM_GRACE_MS,
    killMs: LEFTOVER_KILL_GRACE_MS,
  },
): Promise<{ outcome: LeftoverOutcome; signal: 'SIGTERM' | 'SIGKILL' | null }> {
  const { pid, startTime } = cli;
  if (startTime === null) return { outcome: 'unverifiable', signal: null };
  const current = startTicksOf(pid);
  if (current === undefined || !isRunning(pid)) return { outcome: 'gone', signal: null };
  if (current !== startTime) return { outcome: 'reused', signal: null };
  const identified = { ...cli, startTime };
  // The CLI was spawned as the leader of its own group: the group id is its pid.
  if (!signalGroup(pid, 'SIGTERM')) signalProcess(pid, 'SIGTERM');
  const holdLoop = grace.holdLoop ?? false;
  if (await goneWithin(identified, grace.termMs, holdLoop)) return { outcome: 'stopped', signal: 'SIGTERM' };
  if (!isSameProcess(pid, startTime)) return { outcome: 'stopped', signal: 'SIGTERM' };
  if (!signalGroup(pid, 'SIGKILL')) signalProcess(pid, 'SIGKILL');
  if (await goneWithin(identified, grace.killMs, holdLoop)) return { outcome: 'stopped', signal: 'SIGKILL' };
  return { outcome: 'survived', signal: null };
}

/**
 * Deals with every CLI process the log says may still run (but those of the threads in `keep`, which are
 * re-attached), all at once, and records what happened to each (`session.leftover_process`). Returns how
 * many were stopped.
 */
export async function stopLeftoverProcesses(
  store: Store,
  keep: ReadonlySet<string> = new Set(),
): Promise<number> {
  const recorded = store
    .listThreads()
    .flatMap((thread) =>
      thread.cliProcess === null || keep.has(thread.id)
        ? []
        : [{ threadId: thread.id, ...thread.cliProcess }],
    );
  // open() awaits this: a script whose only work is that open() must not exit in the middle of it.
  const results = await Promise.all(
    recorded.map(async (entry) => ({ entry, ...(await stopLeftover(entry, HOLDING)) })),
  );
  for (const { entry, outcome, signal } of results) {
    const { threadId, pid, startTime, generation } = entry;
    store.commit(threadId, [
      { type: 'session.leftover_process', data: { generation, pid, startTime, outcome, signal } },
    ]);
  }
  return results.filter((result) => result.outcome === 'stopped').length;
}
