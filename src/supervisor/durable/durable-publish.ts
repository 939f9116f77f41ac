// Nothing about a change leaves the process before the change is on disk. The store commits synchronously
// (its compare-and-set decides there and then) and makes commits durable in groups (Store.durable(): one
// fsync for every commit before it). So committed events wait here, in commit order, and are published —
// waiting CLI requests answered, listeners told, event iterators woken — once the barrier after them has
// resolved. Readers of the log stop before the first event still waiting (visibleThrough), so a WebSocket
// client or an events() iterator never sees what a machine crash could still take back.
import { StoreError, toError } from '../../protocol/errors.js';
import type { StoredEvent } from '../../store/event-types.js';
import type { Store } from '../../store/store.js';

interface SeqWaiter {
  readonly seq: number;
  readonly resolve: () => void;
  readonly reject: (error: StoreError) => void;
}

export class DurablePublisher {
  readonly #store: Store;
  readonly #publish: (events: readonly StoredEvent[]) => void;
  readonly #onFailure: (error: StoreError) => void;
  /** Committed, not yet known durable, in commit order. */
  readonly #queue: (readonly StoredEvent[])[] = [];
  #waiters: SeqWaiter[] = [];
  /** The seq of the last event committed through here. */
  #lastAdded = 0;
  #failure: StoreError | undefined;

  constructor(
    store: Store,
    publish: (events: readonly StoredEvent[]) => void,
    onFailure: (error: StoreError) => void,
  ) {
    this.#store = store;
    this.#publish = publish;
    this.#onFailure = onFailure;
  }

  /**
   * The log may be shown up to this seq: every event committed through here up to it is durable. Events
   * other hosts appended to a shared store are not held back here: a reader may see one a moment before
   * the server has flushed it (a crash of the database server in that moment could take back an event
   * shown, never one acknowledged: the host that wrote it answers nobody before its own barrier).
   */
  get visibleThrough(): number {
    const first = this.#queue[0]?.[0];
    return first === undefined ? Number.MAX_SAFE_INTEGER : first.seq - 1;
  }

  /** Takes events just committed; they are published once the store's barrier after them resolves. */
  add(events: readonly StoredEvent[]): void {
    const last = events.at(-1);
    if (last === undefined) return;
    this.#queue.push(events);
    this.#lastAdded = last.seq;
    this.#store.durable().then(
      () => this.#release(last.seq),
      (error: unknown) => this.#fail(error),
    );
  }

  /** Resolves once every event committed through here so far is durable and published. */
  durable(): Promise<void> {
    return this.whenDurable(this.#lastAdded);
  }

  /** Resolves once the events up to `seq` are durable and published; rejects when they never will be. */
  whenDurable(seq: number): Promise<void> {
    if (seq <= this.visibleThrough) return Promise.resolve();
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    return new Promise((resolve, reject) => this.#waiters.push({ seq, resolve, reject }));
  }

  #release(through: number): void {
    while ((this.#queue[0]?.at(-1)?.seq ?? Number.POSITIVE_INFINITY) <= through) {
      const events = this.#queue.shift();
      if (events === undefined) break;
      try {
        this.#publish(events);
      } catch (error) {
        // One listener's bug must not keep the rest of the log from being published.
        this.#onFailure(new StoreError('Could not publish committed events', { cause: error }));
      }
    }
    const visible = this.visibleThrough;
    const waiting = this.#waiters;
    this.#waiters = [];
    for (const waiter of waiting) {
      if (waiter.seq <= visible) waiter.resolve();
      else this.#waiters.push(waiter);
    }
  }

  /**
   * The store could not make the events durable: none of them is published (no CLI hears a decision the
   * disk may not have, no client sees it), and whoever waits on them gets the store's error.
   */
  #fail(error: unknown): void {
    if (this.#failure !== undefined) return;
    const cause = toError(error);
    this.#failure =
      cause instanceof StoreError
        ? cause
        : new StoreError('Could not make the log durable', { cause, code: 'STORE_UNAVAILABLE' });
    for (const waiter of this.#waiters) waiter.reject(this.#failure);
    this.#waiters = [];
    this.#onFailure(this.#failure);
  }
}

/**
 * An answer to the CLI that rests on a change just committed (a verdict of the policy, a refusal): it goes
 * out once `ready` (the change's barrier) resolves. When the store cannot make the change durable the CLI
 * hears nothing: the request waits until it is withdrawn (its `signal`), and `withdrawn` is what the
 * caller returns then, which nobody reads.
 */
export async function answerOnceDurable<T>(
  ready: Promise<void>,
  answer: T,
  signal: AbortSignal,
  withdrawn: () => T,
): Promise<T> {
  try {
    await ready;
    return answer;
  } catch {
    // Reported once by the publisher; the request stays unanswered.
    if (!signal.aborted)
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    return withdrawn();
  }
}
