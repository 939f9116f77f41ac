// The hand-over between the stdout reader and the single consumer of frames(). Frames are queued in the
// batches the reader decoded them in; the reader pauses stdout whenever anything is queued and resumes it
// when the consumer has taken everything, so at most about one chunk is held here (bounded buffering:
// backpressure travels through the pipe to the CLI). The stream's end is delivered only after every
// queued frame has been taken.

export interface FrameQueueHooks {
  /** The consumer took the last queued frame: reading may resume. */
  readonly onEmpty: () => void;
  /** The consumer is waiting and nothing is queued. */
  readonly onWaiting: () => void;
  /** The consumer stopped early (break out of for-await, or return()). */
  readonly onReturn: () => void;
}

type Frame = Record<string, unknown>;

interface Batch {
  readonly frames: readonly Frame[];
  readonly bytes: number;
  next: number;
}

interface Waiter {
  readonly resolve: (result: IteratorResult<Frame, undefined>) => void;
  readonly reject: (error: Error) => void;
}

const DONE: IteratorResult<Frame, undefined> = { done: true, value: undefined };

export class FrameQueue implements AsyncIterableIterator<Frame> {
  readonly #hooks: FrameQueueHooks;
  #batches: Batch[] = [];
  #bytes = 0;
  #waiters: Waiter[] = [];
  /** Set once the producer has decided how the stream ends; `error` undefined means a clean end. */
  #ending: { readonly error: Error | undefined } | undefined;
  /** The end was handed to the consumer: every further next() is done. */
  #finished = false;

  constructor(hooks: FrameQueueHooks) {
    this.#hooks = hooks;
  }

  get isEmpty(): boolean {
    return this.#batches.length === 0;
  }

  get isWaiting(): boolean {
    return this.#waiters.length > 0;
  }

  /** Bytes of stdout behind the frames not yet taken (counted per decoded chunk). */
  get bufferedBytes(): number {
    return this.#bytes;
  }

  /** Frames decoded from one chunk of `bytes` bytes. Waiting consumers are served first. */
  push(frames: readonly Frame[], bytes: number): void {
    if (this.#finished || this.#ending !== undefined) return;
    let next = 0;
    while (next < frames.length && this.#waiters.length > 0) {
      this.#waiters.shift()?.resolve({ done: false, value: frames[next] as Frame });
      next += 1;
    }
    if (next === frames.length) return;
    this.#batches.push({ frames, bytes, next });
    this.#bytes += bytes;
  }

  /** Ends the stream after the queued frames; a clean end when `error` is undefined. Idempotent. */
  finish(error?: Error): void {
    if (this.#ending !== undefined) return;
    this.#ending = { error };
    if (this.isEmpty) this.#endWaiters();
  }

  /** Ends the stream now, dropping queued frames. Keeps an end already decided. */
  abort(error?: Error): void {
    this.#ending ??= { error };
    this.#batches = [];
    this.#bytes = 0;
    this.#endWaiters();
  }

  next(): Promise<IteratorResult<Frame, undefined>> {
    if (this.#finished) return Promise.resolve(DONE);
    const frame = this.#take();
    if (frame !== undefined) {
      if (this.isEmpty) this.#hooks.onEmpty();
      return Promise.resolve({ done: false, value: frame });
    }
    if (this.#ending !== undefined) return this.#deliverEnd();
    return new Promise((resolve, reject) => {
      this.#waiters.push({ resolve, reject });
      this.#hooks.onWaiting();
    });
  }

  return(): Promise<IteratorResult<Frame, undefined>> {
    if (!this.#finished) {
      this.#finished = true;
      this.#batches = [];
      this.#bytes = 0;
      for (const waiter of this.#waiters.splice(0)) waiter.resolve(DONE);
      this.#hooks.onReturn();
    }
    return Promise.resolve(DONE);
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<Frame> {
    return this;
  }

  #take(): Frame | undefined {
    const batch = this.#batches[0];
    if (batch === undefined) return undefined;
    const frame = batch.frames[batch.next];
    batch.next += 1;
    if (batch.next >= batch.frames.length) {
      this.#batches.shift();
      this.#bytes -= batch.bytes;
    }
    return frame;
  }

  #deliverEnd(): Promise<IteratorResult<Frame, undefined>> {
    this.#finished = true;
    const error = this.#ending?.error;
    return error === undefined ? Promise.resolve(DONE) : Promise.reject(error);
  }

  #endWaiters(): void {
    const waiters = this.#waiters.splice(0);
    const first = waiters.shift();
    if (first === undefined) return;
    this.#deliverEnd().then(first.resolve, first.reject);
    for (const waiter of waiters) waiter.resolve(DONE);
  }
}
