// Starting a CLI whose life does not depend on its host: its own process group, stdin a named pipe it
// holds open itself (fifo.ts), stdout and stderr appended to files in a directory of its own. Nothing of
// the host's is inherited, so the host may exit, crash or be upgraded while the CLI goes on; a later host
// finds it again by pid and start time (never by name) and reads on where the last one stopped.
//
// No keeper process stands between host and CLI: while the host that spawned it lives it hears the exit
// as a parent does; a host that re-attached watches the pid instead (exit-watch.ts) and learns no exit
// status. What bounds its life once no host holds it is a watchdog in its own process group
// (detached-lifetime.ts): it ends the CLI when its directory is removed, or when the host that let go of
// it idle left a deadline that passed.
import { closeSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { launchChild, type StartChildOptions } from './child-process.js';
import { HAS_WATCHDOG, withWatchdog, type WatchdogTiming } from './detached-lifetime.js';
import { makeFifo, openFifoForChild } from './fifo.js';
import { startTicksOf } from './process-tree.js';

export interface DetachedPaths {
  /** The directory that holds the three files below, only its owner's. */
  readonly dir: string;
  /** The named pipe the CLI reads its input from. */
  readonly input: string;
  /** The spool: everything the CLI writes to stdout. */
  readonly output: string;
  /** The CLI's stderr. */
  readonly errors: string;
}

export interface DetachedChild {
  readonly pid: number;
  /** Clock ticks since boot at which the process started; with the pid, it names the process for good. */
  readonly startTicks: number | undefined;
  readonly paths: DetachedPaths;
  /**
   * Settles when the process exits, for the host that spawned it (its parent). It does not keep the host
   * alive: a host with nothing else to do exits and leaves the CLI running, as intended.
   */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function detachedPaths(dir: string): DetachedPaths {
  return { dir, input: join(dir, 'input'), output: join(dir, 'output'), errors: join(dir, 'errors') };
}

export interface DetachedSpawnOptions extends StartChildOptions {
  /** The CLI's own directory, for its pipe and files; it must not exist yet. */
  readonly dir: string;
  /** The watchdog's timing (detached-lifetime.ts), or false for none; it never runs on Windows. */
  readonly watchdog?: WatchdogTiming | false;
}

/**
 * Creates `dir` (it must not exist yet) with the pipe and the files, and spawns the CLI on them, with its
 * watchdog. Rejects with SpawnError, leaving nothing behind.
 */
export async function spawnDetached(options: DetachedSpawnOptions): Promise<DetachedChild> {
  const paths = detachedPaths(options.dir);
  const { watchdog = {} } = options;
  const launch = HAS_WATCHDOG && watchdog !== false ? withWatchdog(options, paths.dir, watchdog) : options;
  mkdirSync(paths.dir, { mode: 0o700 });
  const descriptors: number[] = [];
  try {
    makeFifo(paths.input);
    descriptors.push(openFifoForChild(paths.input));
    descriptors.push(openSync(paths.output, 'a', 0o600));
    descriptors.push(openSync(paths.errors, 'a', 0o600));
    const { child, spawned } = launchChild(launch, descriptors);
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      child.once('exit', (code, signal) => resolve({ code, signal }));
    });
    await spawned;
    // The host may go; the child must not keep it alive nor die with it.
    child.unref();
    const pid = child.pid;
    if (pid === undefined) throw new Error('spawned without a pid');
    return { pid, startTicks: startTicksOf(pid), paths, exited };
  } catch (error) {
    rmSync(paths.dir, { recursive: true, force: true });
    throw error;
  } finally {
    // The child holds its own copies; the host keeps none.
    for (const fd of descriptors) closeSync(fd);
  }
}

/** Removes what a finished CLI leaves: its pipe, spool and stderr. */
export function removeDetachedFiles(paths: DetachedPaths): void {
  rmSync(paths.dir, { recursive: true, force: true });
}
