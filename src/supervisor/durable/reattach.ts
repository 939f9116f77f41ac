// Which CLI processes an earlier host left can be joined again at open(): detached ones whose pid still
// names the very process that was recorded (pid AND start time, never a name), with their spool where
// this data directory keeps spools, on a thread that was live (not being stopped). The others get the
// recovery of a crash: stopped if still running, their threads closed out.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

import type { Store } from '../../store/store.js';
import { detachedPaths } from '../../transport/detached-child.js';
import { isAlive } from '../../transport/exit-watch.js';
import { isDetachedProcess, type DetachedProcess } from './detached-cli.js';

export function reattachableProcesses(store: Store, root: string): Map<string, DetachedProcess> {
  const found = new Map<string, DetachedProcess>();
  for (const thread of store.listThreads()) {
    const cli = thread.cliProcess;
    if (!isDetachedProcess(cli) || thread.status !== 'live' || cli.generation !== thread.generation) continue;
    // The spool must be one of ours: a path elsewhere is never read, nor removed.
    if (dirname(resolve(cli.spoolDir)) !== resolve(root)) continue;
    if (!existsSync(detachedPaths(cli.spoolDir).output)) continue;
    if (!isAlive({ pid: cli.pid, startTicks: cli.startTime })) continue;
    found.set(thread.id, cli);
  }
  return found;
}
