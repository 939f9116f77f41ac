// Finding and killing what a CLI leaves behind. The CLI leads its own process group, so one signal reaches
// every descendant that stayed in it. Descendants that left the group (setsid, detached spawns) are found
// on Linux by the per-session marker variable they inherited, by scanning /proc/<pid>/environ.

import { readdirSync, readFileSync } from 'node:fs';
import { setImmediate as yieldToEventLoop, setTimeout as delay } from 'node:timers/promises';

/** Added to the CLI's environment; its value is unique per transport. */
export const SESSION_MARKER_VARIABLE = 'WARDEN_SESSION_MARKER';

/**
 * Names one run of Warden's own test suite (set by its test runner). The transport passes it on to every
 * child, so that the runner's leak check finds what that run started and nothing else.
 */
export const TEST_RUN_VARIABLE = 'WARDEN_TEST_RUN';

export interface ProcessTree {
  /** The CLI's pid, which is also its process group id. */
  readonly pgid: number;
  /** The value of SESSION_MARKER_VARIABLE in the CLI's environment. */
  readonly marker: string;
  /**
   * When the CLI started, in clock ticks since boot (see startTicksOf). Processes that started earlier
   * cannot be its descendants, so the scan skips reading their environment.
   */
  readonly startTicks?: number | undefined;
}

export interface TreeKillResult {
  /** Processes that were still running and were sent SIGKILL. */
  readonly killed: readonly number[];
  /** Processes still running when the wait ran out (not expected: SIGKILL cannot be caught). */
  readonly survivors: readonly number[];
}

const CAN_SCAN_PROC = process.platform === 'linux';
const POLL_MS = 2;
// Reading /proc synchronously costs microseconds per process, far less than a thread-pool round trip per
// file; slices keep a host with thousands of processes responsive during the scan.
const SCAN_SLICE = 256;
/** No process group has this id: a tree whose group is not the CLI's any more is matched by marker only. */
const NO_GROUP = -1;

/** The process's start time from /proc/<pid>/stat, or undefined off Linux or once it is gone. */
export function startTicksOf(pid: number): number | undefined {
  return CAN_SCAN_PROC ? readStat(pid)?.startTicks : undefined;
}

/** Sends `signal` to every process in the group. False when the group is empty. Never throws. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  // Windows has no process groups; the caller signals the leader itself.
  return process.platform !== 'win32' && signalProcess(-pgid, signal);
}

export function signalProcess(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** True while the process exists and is not a zombie (a zombie is dead, only waiting to be reaped). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (!CAN_SCAN_PROC) return true;
  const stat = readStat(pid);
  return stat !== undefined && isAlive(stat);
}

/**
 * Can the group `tree.pgid` still be the CLI's? Its id is the CLI's pid, and the kernel gives no process a
 * number that still names a group with members. So it is another's only when a process with another start
 * time holds the pid: the CLI and its whole group were gone, and the pid went to a process that may lead
 * a group of its own. (Without a recorded start time the pid alone is trusted.)
 */
export function groupIsTheCli(tree: ProcessTree): boolean {
  if (tree.startTicks === undefined) return true;
  const holder = startTicksOf(tree.pgid);
  return holder === undefined || holder === tree.startTicks;
}

/**
 * Running processes in the group or carrying the marker (never this process). The group counts only while
 * it can still be the CLI's (groupIsTheCli). Empty off Linux.
 */
export async function findLeftovers(tree: ProcessTree): Promise<number[]> {
  if (!CAN_SCAN_PROC) return [];
  tree = groupIsTheCli(tree) ? tree : { ...tree, pgid: NO_GROUP };
  const pids = listPids();
  const found: number[] = [];
  for (let start = 0; start < pids.length; start += SCAN_SLICE) {
    if (start > 0) await yieldToEventLoop();
    for (const pid of pids.slice(start, start + SCAN_SLICE)) {
      if (belongsToAny(pid, [tree])) found.push(pid);
    }
  }
  return found;
}

/** Synchronous variant for the host's 'exit' hook, where nothing asynchronous runs any more. */
export function findLeftoversSync(trees: readonly ProcessTree[]): number[] {
  if (!CAN_SCAN_PROC || trees.length === 0) return [];
  const ours = trees.map((tree) => (groupIsTheCli(tree) ? tree : { ...tree, pgid: NO_GROUP }));
  return listPids().filter((pid) => belongsToAny(pid, ours));
}

/**
 * SIGKILLs the group and every marked descendant, then waits until they are dead. Scans before signalling
 * so the report names what was actually running, and rescans because a dying escaper may have forked.
 */
export async function killTree(tree: ProcessTree, timeoutMs = 2000): Promise<TreeKillResult> {
  const deadline = performance.now() + timeoutMs;
  const killed = new Set<number>();
  let survivors: number[] = [];
  for (let round = 0; round < 3; round += 1) {
    const found = await findLeftovers(tree);
    // Also reaches group members that a scan cannot see (off Linux) or that appeared since; never a group
    // that another process leads on the CLI's old pid.
    if (groupIsTheCli(tree)) signalGroup(tree.pgid, 'SIGKILL');
    if (found.length === 0) break;
    for (const pid of found) {
      if (signalProcess(pid, 'SIGKILL')) killed.add(pid);
    }
    survivors = await waitUntilDead(found, deadline);
    if (survivors.length > 0) break;
  }
  return { killed: [...killed], survivors };
}

/** Polls until none of `pids` is running or the deadline passes; returns those still running. */
export async function waitUntilDead(pids: readonly number[], deadline: number): Promise<number[]> {
  let running = pids.filter(isRunning);
  while (running.length > 0 && performance.now() < deadline) {
    await delay(POLL_MS);
    running = running.filter(isRunning);
  }
  return running;
}

function listPids(): number[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const pids: number[] = [];
  for (const name of names) {
    const pid = Number(name);
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid) pids.push(pid);
  }
  return pids;
}

function belongsToAny(pid: number, trees: readonly ProcessTree[]): boolean {
  const stat = readStat(pid);
  if (stat === undefined || !isAlive(stat)) return false;
  const candidates = trees.filter(
    (tree) => tree.startTicks === undefined || stat.startTicks >= tree.startTicks,
  );
  if (candidates.length === 0) return false;
  if (candidates.some((tree) => tree.pgid === stat.pgid)) return true;
  try {
    const environ = readFileSync(`/proc/${pid}/environ`);
    return candidates.some((tree) => environ.includes(`${SESSION_MARKER_VARIABLE}=${tree.marker}\0`));
  } catch {
    return false; // Gone meanwhile, or not ours to read.
  }
}

interface Stat {
  readonly state: string;
  readonly pgid: number;
  readonly startTicks: number;
}

function isAlive(stat: Stat): boolean {
  return stat.state !== 'Z' && stat.state !== 'X';
}

/** /proc/<pid>/stat is "pid (comm) state ppid pgrp ... starttime(22nd) ..."; comm may hold spaces and ')'. */
function readStat(pid: number): Stat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const pgid = Number(fields[2]);
  const startTicks = Number(fields[19]);
  if (state === undefined || !Number.isInteger(pgid) || !Number.isFinite(startTicks)) return undefined;
  return { state, pgid, startTicks };
}
