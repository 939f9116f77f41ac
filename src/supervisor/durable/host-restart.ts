// What open() does about the host that ran this store before, once the store is open and holds the lock
// (so no live host owns those processes): detached CLIs still running are joined again, with their
// pending approvals under the same ids; those it let go of idle and that are not joined again (their
// watchdog ended them) are parked; every other process it left is stopped and its thread closed out (runs
// interrupted, approvals expired, subagents lost); spools nobody reads any more are removed.
import type { Store } from '../../store/store.js';
import type { CodexThreads } from '../agents/codex-threads.js';
import type { SupervisorCore } from '../core.js';
import type { Threads } from '../runtime/threads.js';
import { recoverAfterCrash, type RecoverySummary } from './closeout.js';
import { removeStraySpools, spoolRoot, type DetachedProcess } from './detached-cli.js';
import { parkLetGo } from './detached-idle.js';
import { stopLeftover, stopLeftoverProcesses } from './leftover-processes.js';
import { findDetachedProcesses } from './reattach.js';

/**
 * What open() found and closed out, how many leftover CLIs it stopped, how many it joins again, and how
 * many threads it parked because their host had let go of their CLI idle and no host took it back.
 */
export type Recovered = RecoverySummary & {
  processesStopped: number;
  processesReattached: number;
  threadsParked: number;
};

export interface HostRestart {
  readonly recovered: Recovered;
  /** The detached CLIs to join again, by thread. */
  readonly attachable: ReadonlyMap<string, DetachedProcess>;
}

/**
 * Recovers what the earlier host left of the threads this host runs (`owned`), and returns the CLIs to
 * join again. What recovery recorded is on disk before it resolves.
 */
export async function recoverLeftovers(
  store: Store,
  options: { dataDir: string; detached: boolean; owned: (threadId: string) => boolean },
): Promise<HostRestart> {
  const { dataDir, detached, owned } = options;
  const root = spoolRoot(dataDir);
  const { attachable, parkable } = findDetachedProcesses(store, root, { attach: detached, owned });
  // Kept as they are: threads re-attached here, and those other hosts run.
  const keep = new Set(attachable.keys());
  for (const thread of store.listThreads()) if (!owned(thread.id)) keep.add(thread.id);
  // A parked thread's CLI is stopped too, if its watchdog has not ended it yet.
  const processesStopped = await stopLeftoverProcesses(store, keep);
  const threadsParked = parkLetGo(store, parkable);
  const recovered = {
    ...recoverAfterCrash(store, new Set([...keep, ...parkable.keys()])),
    processesStopped,
    processesReattached: attachable.size,
    threadsParked,
  };
  removeStraySpools(root, new Set([...attachable.values()].map((cli) => cli.spoolDir)));
  // What recovery recorded is on disk before anyone is shown it.
  await store.durable();
  return { recovered, attachable };
}

/**
 * Joins each CLI again; one that cannot be is stopped (its thread is closed out: attach_failed). Resolves,
 * never rejects, once every joined CLI has said which requests it still waits on.
 */
export function reattach(
  core: SupervisorCore,
  threads: Threads,
  attachable: ReadonlyMap<string, DetachedProcess>,
  codex: Pick<CodexThreads, 'attach'>,
): Promise<void> {
  for (const [threadId, cli] of attachable) {
    try {
      // A Codex app-server is joined by its own protocol (agents/codex-thread.ts).
      if (threads.thread(threadId).agent === 'codex') codex.attach(threadId, cli);
      else threads.runtime(threadId).attach(cli);
    } catch (error) {
      // Its thread is closed out (attach_failed); the process must not outlive that.
      core.warnFailure(error, `Could not re-attach to the CLI of thread ${threadId}`);
      void stopLeftover(cli);
    }
  }
  return Promise.all(core.reconciling.values()).then(() => undefined);
}
