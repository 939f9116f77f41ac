// A bounded single-consumer queue between the reader loop and the caller's `for await`. The reader must
// keep reading control frames while the caller is busy (a permission callback may be what the caller is
// waiting on), so messages are buffered — but only up to a limit: past it, `push` waits, the reader stops
// pulling, and the CLI's stdout is paused. Nothing is dropped.

interface Waiter<T> {
  resolve: (result: IteratorResult<T, undefined>) => void;
  reject: (error: unknown) => void;
}

export class MessageQueue<T> {
  readonly #items: T[] = [];
  readonly #limit: number;
  #consumer: Waiter<T> | undefined;
  #spaceWaiters: (() => void)[] = [];
  #ended = false;
  #error: unknown;
  #failed = false;

  constructor(limit: number) {
    this.#limit = limit;
  }

  get size(): number {
    return this.#items.length;
  }

  /** Resolves once the item is accepted; waits while the queue is full. Items pushed after end are discarded. */
  async push(item: T): Promise<void> {
    if (this.#ended) return;
    if (this.#consumer !== undefined) {
      const consumer = this.#consumer;
      this.#consumer = undefined;
      consumer.resolve({ value: item, done: false });
      return;
    }
    this.#items.push(item);
    while (this.#items.length > this.#limit && !this.#ended) {
      await new Promise<void>((resolve) => this.#spaceWaiters.push(resolve));
    }
  }

  /** Ends the stream after the buffered items; with an error, the consumer gets it after them. */
  end(error?: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    if (error !== undefined) {
      this.#failed = true;
      this.#error = error;
    }
    this.#releaseSpace();
    if (this.#consumer !== undefined && this.#items.length === 0) {
      const consumer = this.#consumer;
      this.#consumer = undefined;
      this.#settleEnd(consumer);
    }
  }

  /** Ends at once, dropping what is buffered: only for a caller that asked to stop reading. */
  discard(): void {
    this.#items.length = 0;
    this.end();
  }

  next(): Promise<IteratorResult<T, undefined>> {
    if (this.#items.length > 0) {
      const value = this.#items.shift() as T;
      if (this.#items.length <= this.#limit) this.#releaseSpace();
      return Promise.resolve({ value, done: false });
    }
    if (this.#ended) {
      return new Promise((resolve, reject) => this.#settleEnd({ resolve, reject }));
    }
    if (this.#consumer !== undefined)
      return Promise.reject(new TypeError('MessageQueue has a single consumer'));
    return new Promise((resolve, reject) => {
      this.#consumer = { resolve, reject };
    });
  }

  #settleEnd(waiter: Waiter<T>): void {
    if (this.#failed) {
      // Report the error once; later calls see a finished stream.
      this.#failed = false;
      waiter.reject(this.#error);
    } else {
      waiter.resolve({ value: undefined, done: true });
    }
  }

  #releaseSpace(): void {
    const waiters = this.#spaceWaiters;
    this.#spaceWaiters = [];
    for (const wake of waiters) wake();
  }
}
