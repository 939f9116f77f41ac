// Noticing that a process exited when the host is not its parent: no 'exit' event, no pipe end-of-file
// (its output goes to a file, and a grandchild may hold that anyway). A process is named by its pid and
// its start time, so a pid the kernel reused for another process is never taken for the CLI. One timer
// polls every watched process; a poll reads one small /proc file per process.
import { isRunning, startTicksOf } from './process-tree.js';

export interface ProcessIdentity {
  readonly pid: number;
  /** From startTicksOf at spawn; undefined where /proc cannot be read (the pid alone is then trusted). */
  readonly startTicks: number | undefined;
}

/** Is the very process `identity` names still running (not a zombie, not a newer process on its pid)? */
export function isAlive(identity: ProcessIdentity): boolean {
  if (!isRunning(identity.pid)) return false;
  if (identity.startTicks === undefined) return true;
  return startTicksOf(identity.pid) === identity.startTicks;
}

export const DEFAULT_EXIT_POLL_MS = 50;

interface Watch {
  readonly identity: ProcessIdentity;
  readonly resolve: () => void;
}

const watches = new Set<Watch>();
let timer: NodeJS.Timeout | undefined;
let timerMs = DEFAULT_EXIT_POLL_MS;

/**
 * Resolves once the process is gone (at once if it already is). `signal` stops the watch without
 * resolving. Polls every `pollMs` (the shortest asked for by any current watch).
 */
export function watchExit(
  identity: ProcessIdentity,
  options: { pollMs?: number; signal?: AbortSignal } = {},
): Promise<void> {
  return new Promise<void>((resolve) => {
    if (options.signal?.aborted === true) return;
    if (!isAlive(identity)) return resolve();
    const watch: Watch = {
      identity,
      resolve: () => {
        options.signal?.removeEventListener('abort', stop);
        resolve();
      },
    };
    const stop = (): void => {
      watches.delete(watch);
      if (watches.size === 0) stopTimer();
    };
    options.signal?.addEventListener('abort', stop, { once: true });
    watches.add(watch);
    startTimer(options.pollMs ?? DEFAULT_EXIT_POLL_MS);
  });
}

function startTimer(pollMs: number): void {
  if (timer !== undefined && pollMs >= timerMs) return;
  stopTimer();
  timerMs = pollMs;
  timer = setInterval(poll, pollMs);
  // The watch must not be what keeps a host alive.
  timer.unref();
}

function stopTimer(): void {
  if (timer !== undefined) clearInterval(timer);
  timer = undefined;
  timerMs = DEFAULT_EXIT_POLL_MS;
}

function poll(): void {
  for (const watch of watches) {
    if (isAlive(watch.identity)) continue;
    watches.delete(watch);
    watch.resolve();
  }
  if (watches.size === 0) stopTimer();
}
