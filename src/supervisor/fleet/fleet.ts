// This supervisor as one host of a fleet on a shared PostgreSQL store. The host that creates a thread owns
// it: it runs the thread's CLI, holds its pending requests, and is the only one that recovers it at
// open. Other hosts may decide its approvals (the store's compare-and-set makes one decision win across
// hosts); the owner hears of each decision as a commit of another host (HostRegistry.follow(): on
// PostgreSQL, LISTEN plus a sweep) and answers its CLI through the same once-only path as a decision made
// here.
import { ConflictError } from '../../protocol/errors.js';
import { closeoutDrafts } from '../durable/closeout.js';
import type { StoredEvent } from '../../store/event-types.js';
import type { HostRecord, HostRegistry } from '../../store/host-registry.js';
import type { Store } from '../../store/store.js';
import type { ThreadHost } from '../../store/records.js';
import type { SupervisorCore } from '../core.js';

export type { ThreadHost };

/** Why the runs, approvals and subagents an adopted thread's old owner left are closed out. */
export const ADOPTION_REASON = 'owner_lost';

export class FleetMembership {
  readonly #store: Store;
  readonly #registry: HostRegistry;
  readonly name: string;

  constructor(store: Store, registry: HostRegistry, name: string) {
    this.#store = store;
    this.#registry = registry;
    this.name = name;
  }

  /**
   * Whether this host runs the thread: it created it, or the thread predates host names (a fleet that
   * grew from one host keeps running what that host ran), or the thread is unknown (callers report that).
   */
  owns(threadId: string): boolean {
    const owner = this.#registry.ownerOf(threadId);
    return owner === undefined || owner === null || owner === this.name;
  }

  /** The host that runs the thread, when it is another one. */
  ownerElsewhere(threadId: string): string | undefined {
    const owner = this.#registry.ownerOf(threadId);
    return owner === undefined || owner === null || owner === this.name ? undefined : owner;
  }

  /** Sending, interrupting or stopping needs the thread's CLI, which lives on its owner. */
  checkRunsHere(threadId: string, what: string): void {
    const owner = this.ownerElsewhere(threadId);
    if (owner !== undefined)
      throw new ConflictError(`Thread ${threadId} runs on host ${owner}: ${what} it there`);
  }

  /** A decision for another host's thread is only recorded while that host holds its lease. */
  checkOwnerReachable(threadId: string): void {
    const owner = this.ownerElsewhere(threadId);
    if (owner === undefined) return;
    const host = this.#registry.listHosts().find((h) => h.name === owner);
    if (host?.live !== true)
      throw new ConflictError(
        `Thread ${threadId} runs on host ${owner}, which is unreachable (${
          host === undefined
            ? 'never registered'
            : `no heartbeat for ${Math.round(host.msSinceHeartbeat / 1000)} s`
        }); nothing was recorded`,
      );
  }

  listHosts(): HostRecord[] {
    return this.#registry.listHosts();
  }

  /** What other hosts asked this one to run that it has not taken up (remote-commands.ts). */
  pendingCommands(): StoredEvent[] {
    return this.#registry.pendingCommands(this.name);
  }

  /** Takes a slot of `host`'s capacity for a thread placed there (compare-and-set on its row). */
  reserve(host: string, liveNow: number | null): boolean {
    return this.#registry.reservePlacement(host, liveNow);
  }

  /** Who runs each thread and whether its lease runs (one read of the hosts for all the threads). */
  hostsOf(threadIds: Iterable<string>): Map<string, ThreadHost> {
    const hosts = new Map(this.#registry.listHosts().map((host) => [host.name, host]));
    const result = new Map<string, ThreadHost>();
    for (const threadId of threadIds) {
      const owner = this.#registry.ownerOf(threadId);
      if (owner === undefined || owner === null) continue;
      const host = hosts.get(owner);
      result.set(threadId, {
        name: owner,
        reachable: owner === this.name || host?.live === true,
        lastSeen: host?.heartbeatAt ?? null,
      });
    }
    return result;
  }

  /**
   * Before a send: a thread whose owner's lease has expired is taken over by this host (compare-and-set in
   * the store; what the old owner's CLI left pending is closed out as `owner_lost`), so that its CLI resumes
   * here from the mirrored transcript. A thread whose owner is live stays a ConflictError.
   */
  adoptIfOrphaned(threadId: string, what: string): StoredEvent[] {
    const owner = this.ownerElsewhere(threadId);
    if (owner === undefined) return [];
    const host = this.#registry.listHosts().find((h) => h.name === owner);
    if (host?.live === true)
      throw new ConflictError(`Thread ${threadId} runs on host ${owner}: ${what} it there`);
    const closeout = closeoutDrafts(this.#store, threadId, {
      reason: ADOPTION_REASON,
      approvals: 'expired',
      subagents: 'lost',
    });
    return this.#registry.adopt(threadId, owner, closeout);
  }

  /**
   * Follows what other hosts commit: for the threads this host owns, waiting CLI requests are answered
   * (each once: a waiter is removed when answered) and committed-event listeners told; every event wakes
   * the event iterators, so this host's clients see the whole fleet live.
   */
  follow(core: SupervisorCore, liveClis: () => number): void {
    this.#registry.follow((events) => {
      const owned = events.filter((event) => this.owns(event.threadId));
      if (owned.length > 0) {
        core.waiters.onCommitted(owned);
        for (const listener of core.committedListeners) listener(owned);
        // A request recorded a moment ago registers its waiter a few microtasks after its commit: a
        // decision folded in within that gap is given again once they have run (a waiter answered
        // already, or none at all, makes this a no-op).
        setImmediate(() => core.waiters.onCommitted(owned));
      }
      core.notifier.notify();
    }, liveClis);
  }
}
