// The commits a permission request waits on (its approval, the policy's verdict) and people's decisions,
// queued over one turn of the event loop and written at its end in one transaction of the store
// (Store.commitMany): a fleet of agents asking and people answering at once costs one write of the log per
// turn, not one per change, and they share the barrier that follows. Each caller still gets its own
// commit's events, or its own error, once that transaction has returned: nothing is answered or published
// before it is in the log, and the durability barrier comes after that as for any commit.
import type { EventDraft, StoredEvent } from '../../store/event-types.js';
import type { Store, ThreadCommit } from '../../store/store.js';

interface Queued extends ThreadCommit {
  /** Checked when the turn ends: a request withdrawn meanwhile writes nothing. */
  readonly wanted: () => boolean;
  readonly resolve: (events: StoredEvent[] | undefined) => void;
  readonly reject: (error: Error) => void;
}

export class TurnCommits {
  readonly #store: Store;
  /** What must go first for a thread (what record() holds for it), then the commits, each published. */
  readonly #before: (threadId: string) => void;
  readonly #committed: (events: StoredEvent[]) => void;
  #queued: Queued[] = [];
  /** Settles once the queued commits are written (or refused); undefined while none is queued. */
  #written: { readonly promise: Promise<void>; readonly resolve: () => void } | undefined;

  constructor(store: Store, before: (threadId: string) => void, committed: (events: StoredEvent[]) => void) {
    this.#store = store;
    this.#before = before;
    this.#committed = committed;
  }

  /** Resolves with the committed events, undefined when `wanted()` was false by then; rejects as commit(). */
  commit(
    threadId: string,
    drafts: readonly EventDraft[],
    wanted: () => boolean,
  ): Promise<StoredEvent[] | undefined> {
    return new Promise((resolve, reject) => {
      if (this.#queued.length === 0) {
        let written: () => void = () => undefined;
        const promise = new Promise<void>((settle) => (written = settle));
        this.#written = { promise, resolve: written };
        setImmediate(() => this.#flush());
      }
      this.#queued.push({ threadId, drafts, wanted, resolve, reject });
    });
  }

  /**
   * Settles once the commits queued in this turn are written or refused (at once when none is): an
   * acknowledgement awaits it before the barrier, so that a refusal given in the turn does not leave
   * before the changes queued beside it are on disk.
   */
  written(): Promise<void> {
    return this.#written?.promise ?? Promise.resolve();
  }

  #flush(): void {
    // Taken first: a commit queued while these are written (by a listener) starts a turn of its own.
    const written = this.#written;
    this.#written = undefined;
    try {
      this.#write();
    } finally {
      written?.resolve();
    }
  }

  #write(): void {
    const queued = this.#queued;
    this.#queued = [];
    const writing: Queued[] = [];
    for (const entry of queued) {
      if (!entry.wanted()) {
        entry.resolve(undefined);
        continue;
      }
      try {
        this.#before(entry.threadId);
        writing.push(entry);
      } catch (error) {
        entry.reject(error as Error);
      }
    }
    if (writing.length === 0) return;
    const results =
      this.#store.commitMany?.(writing) ??
      writing.map((entry) => {
        try {
          return this.#store.commit(entry.threadId, entry.drafts);
        } catch (error) {
          return error as Error;
        }
      });
    writing.forEach((entry, index) => {
      const result = results[index]!;
      if (result instanceof Error) entry.reject(result);
      else {
        this.#committed(result);
        entry.resolve(result);
      }
    });
  }
}
