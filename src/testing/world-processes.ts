// The processes of one test world: those whose environment has the world's private HOME (every CLI the
// offline environment starts, and whatever it starts in turn) and those the test named. Linux reads /proc;
// elsewhere only the named ones are seen.
import { readdirSync, readFileSync } from 'node:fs';

import { isRunning, signalGroup, signalProcess } from '../transport/process-tree.js';
import { poll } from './until.js';

/** Pids of live processes (not zombies) whose environment has HOME set to `home`. */
export function processesUsingHome(home: string): number[] {
  if (process.platform !== 'linux') return [];
  const needle = `\0HOME=${home}\0`;
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // A zombie has exited; its parent has not reaped it yet.
      if (/^\d+ \(.*\) Z/.test(status)) continue;
      // A leading NUL, so that HOME matches as the first variable as well as a later one.
      if (`\0${readFileSync(`/proc/${entry}/environ`, 'latin1')}`.includes(needle)) pids.push(Number(entry));
    } catch {
      // The process ended while we looked, or is not ours to read.
    }
  }
  return pids;
}

/**
 * SIGKILLs each process and the group it leads, if it leads one (a CLI leads its own group, so the tool
 * shells it left go too). Processes already gone are skipped.
 */
export function killProcesses(pids: Iterable<number>): void {
  for (const pid of pids) {
    signalGroup(pid, 'SIGKILL');
    signalProcess(pid, 'SIGKILL');
  }
}

/**
 * Whether the process is gone: `process.kill(pid, 0)` throws ESRCH. A zombie counts as gone too: it has
 * exited, only its parent has not collected it yet.
 */
export function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return true;
  }
  return !isRunning(pid);
}

/**
 * SIGKILLs every process of the world (killProcesses) and resolves once each one killed is gone. Waiting
 * for processesUsingHome() to come back empty is not enough: an exiting process's environment becomes
 * unreadable as soon as its memory is released, well before it is a zombie, and for that while it is
 * neither listed nor gone. Throws if one is still running after `timeoutMs`.
 */
export async function killProcessesUsingHome(home: string, timeoutMs = 10_000): Promise<void> {
  const pids = processesUsingHome(home);
  killProcesses(pids);
  const gone = await poll(() => pids.every(isGone), { timeoutMs });
  if (gone === undefined) {
    throw new Error(
      `processes still running ${timeoutMs} ms after SIGKILL: ${pids.filter((pid) => !isGone(pid)).join(', ')}`,
    );
  }
}
