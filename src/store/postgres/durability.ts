// The durability barrier of a PostgresStore (Store.durable()), and the failure that ends its commits.
// Commits are made with synchronous_commit off, and one barrier transaction flushes the WAL past all of
// them. Calls made in one tick, and calls made while a barrier is under way, share the next one. A failed
// barrier (the server gone, a timeout) rejects with a StoreError and the store takes no more commits:
// whether the server kept the commits it had not flushed is unknown.
import { StoreError } from '../../protocol/errors.js';

export class Durability {
  /** Writes the store's open batch, if any (a failure to do so is recorded with fail()). */
  readonly #flush: () => void;
  /** Runs one barrier transaction. */
  readonly #barrier: () => Promise<void>;
  readonly #where: string;
  /** Commits so far (each counts, durable or not); every one up to #covered is on disk. */
  #commits = 0;
  #covered = 0;
  /** The barrier under way and the commits it covers. */
  #flight: { readonly covers: number; readonly promise: Promise<void> } | undefined;
  /** Callers waiting for the barrier after the one under way (or the one about to start). */
  #next: { promise: Promise<void>; resolve: () => void; reject: (error: StoreError) => void } | undefined;
  #failure: StoreError | undefined;

  constructor(flush: () => void, barrier: () => Promise<void>, where: string) {
    this.#flush = flush;
    this.#barrier = barrier;
    this.#where = where;
  }

  /** Why the store takes no more commits, once it has failed. */
  get failure(): StoreError | undefined {
    return this.#failure;
  }

  /** Records why the store failed (the first reason stays) and returns it, to be thrown. */
  fail(error: StoreError): StoreError {
    this.#failure ??= error;
    return this.#failure;
  }

  /** One more commit for the next barrier to cover. */
  count(): void {
    this.#commits += 1;
  }

  /** Resolves once every commit counted before the call is on disk. */
  durable(): Promise<void> {
    try {
      this.#flush();
    } catch {
      // Recorded in #failure.
    }
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    const count = this.#commits;
    if (count <= this.#covered) return Promise.resolve();
    if (this.#flight !== undefined && count <= this.#flight.covers) return this.#flight.promise;
    if (this.#next === undefined) {
      let resolve!: () => void;
      let reject!: (error: StoreError) => void;
      const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
      promise.catch(() => undefined);
      this.#next = { promise, resolve, reject };
      if (this.#flight === undefined) setImmediate(() => this.#start());
    }
    return this.#next.promise;
  }

  #start(): void {
    const next = this.#next;
    if (next === undefined || this.#flight !== undefined) return;
    this.#next = undefined;
    try {
      // Commits made since durable() was called are written before the barrier that covers them.
      this.#flush();
    } catch {
      // Recorded in #failure.
    }
    if (this.#failure !== undefined) return next.reject(this.#failure);
    const covers = this.#commits;
    this.#flight = { covers, promise: next.promise };
    this.#barrier().then(
      () => {
        this.#flight = undefined;
        this.#covered = Math.max(this.#covered, covers);
        next.resolve();
        this.#start();
      },
      (error: unknown) => {
        this.#flight = undefined;
        this.#failure ??=
          error instanceof StoreError
            ? error
            : new StoreError(`Could not make commits durable at ${this.#where}`, { cause: error });
        next.reject(this.#failure);
        this.#start();
      },
    );
  }
}
