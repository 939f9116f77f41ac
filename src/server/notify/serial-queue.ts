// One receiver's queue, shared by the webhook and Web Push endpoints: items go out one at a time and in
// order (an approval before its resolution), handing one over never waits, and the queue is bounded — past
// `maxQueue` the oldest waiting item is dropped and reported. close() aborts the delivery in flight (its
// `signal`) and drops what waits.
export class SerialQueue<T> {
  readonly #queue: T[] = [];
  readonly #closed = new AbortController();
  readonly #maxQueue: () => number;
  readonly #deliver: (item: T) => Promise<void>;
  readonly #onDropped: (item: T, maxQueue: number) => void;
  #running = false;

  constructor(options: {
    maxQueue: () => number;
    deliver: (item: T) => Promise<void>;
    onDropped: (item: T, maxQueue: number) => void;
  }) {
    this.#maxQueue = options.maxQueue;
    this.#deliver = options.deliver;
    this.#onDropped = options.onDropped;
  }

  /** Aborted by close(): deliveries stop retrying and cut their request off. */
  get signal(): AbortSignal {
    return this.#closed.signal;
  }

  push(item: T): void {
    if (this.#closed.signal.aborted) return;
    const maxQueue = this.#maxQueue();
    if (this.#queue.length >= maxQueue) {
      const dropped = this.#queue.shift();
      if (dropped !== undefined) this.#onDropped(dropped, maxQueue);
    }
    this.#queue.push(item);
    if (!this.#running) void this.#drain();
  }

  close(): void {
    this.#closed.abort();
    this.#queue.length = 0;
  }

  async #drain(): Promise<void> {
    this.#running = true;
    try {
      for (let item = this.#queue.shift(); item !== undefined; item = this.#queue.shift())
        await this.#deliver(item);
    } finally {
      this.#running = false;
    }
  }
}
