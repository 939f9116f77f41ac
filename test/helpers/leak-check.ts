// The test runner's leak check (scripts/test.mjs): finds the processes one test run left running and kills
// them. Every process Warden starts carries WARDEN_SESSION_MARKER; every process a test run starts carries
// that run's WARDEN_TEST_RUN (the runner sets it, the offline environment and the transport pass it on).
// Only processes with both, and this run's id, count: a real `warden serve` on the same machine, or
// another test run started meanwhile, is never touched.
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

import { SESSION_MARKER_VARIABLE, TEST_RUN_VARIABLE } from '../../src/transport/process-tree.js';

export { TEST_RUN_VARIABLE };

export interface LeftProcess {
  readonly pid: number;
  readonly command: string;
}

/** Live processes (not zombies) that carry Warden's marker and `runId`; only ours can be read. */
export function processesOfRun(runId: string): number[] {
  if (process.platform !== 'linux') return [];
  if (runId === '') throw new TypeError('processesOfRun: the run id must not be empty');
  const runEntry = `\0${TEST_RUN_VARIABLE}=${runId}\0`;
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      // A leading NUL so that the first variable matches like every other one.
      const environ = `\0${readFileSync(`/proc/${pid}/environ`, 'latin1')}`;
      if (environ.includes(`\0${SESSION_MARKER_VARIABLE}=`) && environ.includes(runEntry) && isLive(pid))
        pids.push(pid);
    } catch {
      // Gone, or not ours to read.
    }
  }
  return pids;
}

/**
 * The processes of `runId` still running after `graceMs` (processes that are exiting get that long), each
 * SIGKILLed. An empty list means the run left nothing behind.
 */
export async function killLeftovers(runId: string, { graceMs }: { graceMs: number }): Promise<LeftProcess[]> {
  const deadline = Date.now() + graceMs;
  let left = processesOfRun(runId);
  while (left.length > 0 && Date.now() < deadline) {
    await delay(100);
    left = left.filter(isLive);
  }
  const killed = left.map((pid) => ({ pid, command: commandOf(pid) }));
  for (const { pid } of killed) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
  return killed;
}

function isLive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ').slice(0, 160);
  } catch {
    return '';
  }
}
