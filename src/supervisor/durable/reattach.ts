// Which CLI processes an earlier host left can be joined again at open(): detached ones whose pid still
// names the very process that was recorded (pid AND start time, never a name), with their spool where
// this data directory keeps spools, on a thread that was live (not being stopped). Joining one takes it
// back from its watchdog first (an idle deadline its last host left is removed), unless the watchdog got
// there first. A CLI let go of idle and not joined again is parked (detached-idle.ts). The others get the
// recovery of a crash: stopped if still running, their threads closed out.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

import type { Store } from '../../store/store.js';
import { detachedPaths } from '../../transport/detached-child.js';
import { claimFromWatchdog, readLifetime } from '../../transport/detached-lifetime.js';
import { isAlive } from '../../transport/exit-watch.js';
import { isDetachedProcess, type DetachedProcess } from './detached-cli.js';

export interface DetachedFindings {
  /** The CLIs to join again, by thread. */
  readonly attachable: Map<string, DetachedProcess>;
  /** CLIs let go of idle that are not joined again (gone, being ended, or not re-attached here). */
  readonly parkable: Map<string, DetachedProcess & { periodMs: number }>;
}

/**
 * The detached CLIs of the threads this host runs (`owned`): those to join again (only when `attach`),
 * and those to park.
 */
export function findDetachedProcesses(
  store: Store,
  root: string,
  options: { attach: boolean; owned: (threadId: string) => boolean },
): DetachedFindings {
  const attachable = new Map<string, DetachedProcess>();
  const parkable = new Map<string, DetachedProcess & { periodMs: number }>();
  for (const thread of store.listThreads()) {
    const cli = thread.cliProcess;
    if (!isDetachedProcess(cli) || thread.status !== 'live' || cli.generation !== thread.generation) continue;
    if (!options.owned(thread.id)) continue;
    // The spool must be one of ours: a path elsewhere is never read, nor removed.
    if (dirname(resolve(cli.spoolDir)) !== resolve(root)) continue;
    if (!existsSync(detachedPaths(cli.spoolDir).output)) continue;
    const alive = isAlive({ pid: cli.pid, startTicks: cli.startTime });
    if (alive && options.attach && claimFromWatchdog(cli.spoolDir) === 'claimed') {
      attachable.set(thread.id, cli);
      continue;
    }
    const lifetime = readLifetime(cli.spoolDir);
    if (lifetime.endedIdle || lifetime.idleUntil !== null)
      parkable.set(thread.id, { ...cli, periodMs: lifetime.periodMs ?? 0 });
  }
  return { attachable, parkable };
}
