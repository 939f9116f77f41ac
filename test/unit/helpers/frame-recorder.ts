// An in-memory `write` for a ControlChannel: records every frame, lets a test await a frame by content,
// and can be told to fail. Waiting is on the write itself, never on time.
import { ControlChannel, type ControlChannelOptions } from '../../../src/control/control-channel.js';
import { TransportClosedError, type WardenError } from '../../../src/protocol/errors.js';

// Wire frames are loosely typed on purpose: tests reach into whatever was written.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Frame = Record<string, any>;

interface Waiter {
  predicate: (frame: Frame) => boolean;
  resolve: (frame: Frame) => void;
}

export class FrameRecorder {
  readonly frames: Frame[] = [];
  #waiters: Waiter[] = [];
  #failure: (() => Error) | undefined;

  /** Pass this to the channel. */
  readonly write = (frame: Record<string, unknown>): Promise<void> => {
    if (this.#failure !== undefined) return Promise.reject(this.#failure());
    this.frames.push(frame);
    this.#waiters = this.#waiters.filter((waiter) => {
      if (!waiter.predicate(frame)) return true;
      waiter.resolve(frame);
      return false;
    });
    return Promise.resolve();
  };

  /** From now on every write rejects with what `makeError` returns (a TransportClosedError by default). */
  failWrites(makeError: () => Error = () => new TransportClosedError()): void {
    this.#failure = makeError;
  }

  /** Resolves with the first frame, already written or still to come, that matches. */
  waitFor(predicate: (frame: Frame) => boolean): Promise<Frame> {
    const found = this.frames.find(predicate);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve) => this.#waiters.push({ predicate, resolve }));
  }

  /** The reply written for an inbound request, if any. */
  replyTo(requestId: string): Frame | undefined {
    return this.frames.find((frame) => isReplyTo(requestId)(frame));
  }

  waitForReplyTo(requestId: string): Promise<Frame> {
    return this.waitFor(isReplyTo(requestId));
  }

  ofType(type: string): Frame[] {
    return this.frames.filter((frame) => frame.type === type);
  }
}

export function isReplyTo(requestId: string): (frame: Frame) => boolean {
  return (frame) => frame.type === 'control_response' && frame.response?.request_id === requestId;
}

/** Lets every promise callback and I/O callback that is already queued run. Not a timer: no guessing. */
export function drainCallbacks(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

/** Node 20 has no Promise.withResolvers. */
export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A channel writing into a FrameRecorder, with onError collected. */
export function setupChannel(options: Partial<ControlChannelOptions> = {}) {
  const recorder = new FrameRecorder();
  const errors: WardenError[] = [];
  const channel = new ControlChannel({
    write: recorder.write,
    onError: (error) => errors.push(error),
    ...options,
  });
  return { recorder, errors, channel };
}
