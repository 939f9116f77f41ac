// What open() does about the host that ran this store before, once the store is open and holds the lock
// (so no live host owns those processes): detached CLIs still running are joined again, with their
// pending approvals under the same ids; every other process it left is stopped and its thread closed
// out (runs interrupted, approvals expired, subagents lost); spools nobody reads any more are removed.
import type { Store } from '../../store/store.js';
import type { SupervisorCore } from '../core.js';
import type { Threads } from '../runtime/threads.js';
import { recoverAfterCrash, type RecoverySummary } from './closeout.js';
import { removeStraySpools, spoolRoot, type DetachedProcess } from './detached-cli.js';
import { stopLeftover, stopLeftoverProcesses } from './leftover-processes.js';
import { reattachableProcesses } from './reattach.js';

/** What open() found and closed out, how many leftover CLIs it stopped and how many it joins again. */
export type Recovered = RecoverySummary & { processesStopped: number; processesReattached: number };

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
  const attachable = detached ? reattachableProcesses(store, root) : new Map<string, never>();
  for (const threadId of attachable.keys()) if (!owned(threadId)) attachable.delete(threadId);
  // Kept as they are: threads re-attached here, and those other hosts run.
  const keep = new Set(attachable.keys());
  for (const thread of store.listThreads()) if (!owned(thread.id)) keep.add(thread.id);
  const processesStopped = await stopLeftoverProcesses(store, keep);
  const recovered = {
    ...recoverAfterCrash(store, keep),
    processesStopped,
    processesReattached: attachable.size,
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
): Promise<void> {
  for (const [threadId, cli] of attachable) {
    try {
      threads.runtime(threadId).attach(cli);
    } catch (error) {
      // Its thread is closed out (attach_failed); the process must not outlive that.
      core.warnFailure(error, `Could not re-attach to the CLI of thread ${threadId}`);
      void stopLeftover(cli);
    }
  }
  return Promise.all(core.reconciling.values()).then(() => undefined);
}
