// The live edge of the event log, shared by every WebSocket of one supervisor: a single follower reads each
// new event once and serialises it once, then hands the page of frames to every caught-up subscriber. With
// N clients the store is read and JSON.stringify runs once per event, not N times. Subscribers replaying
// older events read the store on their own and join here once they reach the feed's position.
import { ConflictError } from '../protocol/errors.js';
import type { EventText, StoredEvent } from '../store/event-types.js';
import type { Supervisor } from '../supervisor/index.js';

/** One event as a socket sends it: the frame text is the same for every client. */
export interface LiveEvent {
  readonly seq: number;
  readonly threadId: string;
  readonly frame: string;
}

export function toLiveEvent(event: StoredEvent): LiveEvent {
  return { seq: event.seq, threadId: event.threadId, frame: JSON.stringify({ type: 'event', event }) };
}

/** The same frame, around the event's JSON text as the supervisor gives it (eventTexts()). */
function liveEventOfText({ seq, threadId, json }: EventText): LiveEvent {
  return { seq, threadId, frame: `{"type":"event","event":${json}}` };
}

/** Pages flushed at once are capped so one subscriber's batch (and one corked write) stays bounded. */
const MAX_PAGE = 256;

/**
 * One subscriber's pages not yet taken. Pages are shared between subscribers, so queuing costs references
 * — but a stalled subscriber keeps alive pages every other one has long let go. So the queue is capped:
 * past `maxQueuedBytes` it is dropped at once, the subscription ends as `overflowed`, and `onOverflow`
 * tells the stream to let the client go (it reconnects from the last seq it got).
 */
export class Subscription {
  readonly #pages: (readonly LiveEvent[])[] = [];
  readonly #maxQueuedBytes: number;
  #queuedBytes = 0;
  #ended = false;
  #overflowed = false;
  #error: Error | undefined;
  #wake: (() => void) | undefined;
  /** Called once when the queue passes its cap. */
  onOverflow: (() => void) | undefined;

  constructor(
    /** The feed's position when this subscriber joined: it receives every event after it. */
    readonly position: number,
    readonly unsubscribe: () => void,
    maxQueuedBytes = Number.POSITIVE_INFINITY,
  ) {
    this.#maxQueuedBytes = maxQueuedBytes;
  }

  get queuedBytes(): number {
    return this.#queuedBytes;
  }

  /** The queue passed its cap: the pages were dropped and the subscription ended. */
  get overflowed(): boolean {
    return this.#overflowed;
  }

  /** The next page; undefined once the feed has ended (the supervisor closed) or after unsubscribe. */
  async next(): Promise<readonly LiveEvent[] | undefined> {
    for (;;) {
      const page = this.#pages.shift();
      if (page !== undefined) {
        for (const event of page) this.#queuedBytes -= event.frame.length;
        return page;
      }
      if (this.#error !== undefined) throw this.#error;
      if (this.#ended) return undefined;
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  /** @internal called by the feed */
  push(page: readonly LiveEvent[]): void {
    if (this.#ended) return;
    this.#pages.push(page);
    for (const event of page) this.#queuedBytes += event.frame.length;
    if (this.#queuedBytes > this.#maxQueuedBytes) {
      this.#overflowed = true;
      this.#pages.length = 0;
      this.#queuedBytes = 0;
      this.unsubscribe();
      this.onOverflow?.();
    }
    this.#signal();
  }

  /** @internal called by the feed (with the error that ended it, if any) and by unsubscribe */
  end(error?: Error): void {
    if (this.#ended) return;
    this.#ended = true;
    if (error !== undefined) this.#error = error;
    this.#signal();
  }

  #signal(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}

export class LiveFeed {
  readonly #supervisor: Supervisor;
  readonly #subscribers = new Set<Subscription>();
  /** The seq of the last event handed to subscribers; events after it are still to come. */
  #position = 0;
  #pending: LiveEvent[] = [];
  #flushQueued = false;
  #run: AbortController | undefined;

  constructor(supervisor: Supervisor) {
    this.#supervisor = supervisor;
  }

  /**
   * Joins the live edge. Synchronous on purpose: a caller that has just read the store in the same step
   * knows every event up to `position` is in what it read, and the subscription brings everything after.
   */
  subscribe(maxQueuedBytes?: number): Subscription {
    // Started lazily, at the log's end: nobody is waiting for older events from the feed.
    if (this.#run === undefined) this.#start(this.#supervisor.lastSeq());
    const subscription: Subscription = new Subscription(
      this.#position,
      () => {
        subscription.end();
        if (this.#subscribers.delete(subscription) && this.#subscribers.size === 0) this.#stop();
      },
      maxQueuedBytes,
    );
    this.#subscribers.add(subscription);
    return subscription;
  }

  #start(position: number): void {
    const run = new AbortController();
    this.#run = run;
    this.#position = position;
    void this.#follow(run.signal);
  }

  #stop(): void {
    this.#run?.abort();
    this.#run = undefined;
    this.#pending = [];
  }

  async #follow(signal: AbortSignal): Promise<void> {
    let failure: Error | undefined;
    try {
      for await (const events of this.#supervisor.eventTexts({ since: this.#position, signal })) {
        if (signal.aborted) return;
        for (const event of events) {
          this.#pending.push(liveEventOfText(event));
          if (this.#pending.length >= MAX_PAGE) this.#flush();
        }
        if (this.#pending.length > 0 && !this.#flushQueued) {
          // A page comes whole: flushing on the next turn batches it with the pages of this turn.
          this.#flushQueued = true;
          // A stopped run's pending events were dropped with it, so this flushes only the current run's.
          setImmediate(() => {
            this.#flushQueued = false;
            this.#flush();
          });
        }
      }
    } catch (error) {
      // ConflictError: the supervisor closed under us, which ends the feed like a close while following.
      if (!(error instanceof ConflictError))
        failure = error instanceof Error ? error : new Error(String(error));
    }
    if (signal.aborted) return;
    this.#flush();
    this.#run = undefined;
    for (const subscription of this.#subscribers) subscription.end(failure);
    this.#subscribers.clear();
  }

  #flush(): void {
    const page = this.#pending;
    const last = page.at(-1);
    if (last === undefined) return;
    this.#pending = [];
    this.#position = last.seq;
    for (const subscription of this.#subscribers) subscription.push(page);
  }
}

const feeds = new WeakMap<Supervisor, LiveFeed>();

/** The supervisor's feed: one per supervisor, so every server over it shares the same reads. */
export function liveFeedOf(supervisor: Supervisor): LiveFeed {
  let feed = feeds.get(supervisor);
  if (feed === undefined) {
    feed = new LiveFeed(supervisor);
    feeds.set(supervisor, feed);
  }
  return feed;
}
