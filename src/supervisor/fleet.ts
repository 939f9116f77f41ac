// This supervisor as one host of a fleet on a shared PostgreSQL store. The host that creates a thread owns
// it: it runs the thread's CLI, holds its pending requests, and is the only one that recovers it at
// open. Other hosts may decide its approvals (the store's compare-and-set makes one decision win across
// hosts); the owner hears of each decision as a commit of another host (PostgresStore.follow(): LISTEN
// plus a sweep) and answers its CLI through the same once-only path as a decision made here.
import { ConflictError } from '../protocol/errors.js';
import type { HostRecord } from '../store/postgres/hosts.js';
import type { PostgresStore } from '../store/postgres/postgres-store.js';
import type { SupervisorCore } from './core.js';

export class FleetMembership {
  readonly #store: PostgresStore;
  readonly name: string;

  constructor(store: PostgresStore, name: string) {
    this.#store = store;
    this.name = name;
  }

  /**
   * Whether this host runs the thread: it created it, or the thread predates host names (a fleet that
   * grew from one host keeps running what that host ran), or the thread is unknown (callers report that).
   */
  owns(threadId: string): boolean {
    const owner = this.#store.ownerOf(threadId);
    return owner === undefined || owner === null || owner === this.name;
  }

  /** The host that runs the thread, when it is another one. */
  ownerElsewhere(threadId: string): string | undefined {
    const owner = this.#store.ownerOf(threadId);
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
    const host = this.#store.listHosts().find((h) => h.name === owner);
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
    return this.#store.listHosts();
  }

  /**
   * Follows what other hosts commit: for the threads this host owns, waiting CLI requests are answered
   * (each once: a waiter is removed when answered) and committed-event listeners told; every event wakes
   * the event iterators, so this host's clients see the whole fleet live.
   */
  follow(core: SupervisorCore, liveClis: () => number): void {
    this.#store.follow((events) => {
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
