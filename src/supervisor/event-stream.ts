// The log as readers see it. events(): replay from the log, then follow it live. Pull-based: the iterator reads pages from the store
// after its cursor and sleeps until the next commit, so a slow consumer never makes anything buffer or
// drop, and nothing between the replay and the live part can be missed (the read and the subscription
// happen in the same synchronous step). It stops before the first event not yet on disk (`visibleThrough`,
// durable-publish.ts) and is woken when that event is published.
import type { EventText } from '../store/event-types.js';
import { eventTextOf } from '../store/rows.js';
import type { EventQuery, Store } from '../store/store.js';
import type { EventsOptions, SupervisorEvent } from './types.js';

const PAGE = 256;
/** readEvents()'s page size when the caller names none. */
const DEFAULT_LIMIT = 500;

/** Wakes waiting iterators on every commit; close() ends them. No EventEmitter, no per-event fan-out. */
export class ChangeNotifier {
  #wakers = new Set<(changed: boolean) => void>();
  #closed = false;

  get closed(): boolean {
    return this.#closed;
  }

  notify(): void {
    const wakers = this.#wakers;
    this.#wakers = new Set();
    for (const wake of wakers) wake(true);
  }

  /** Resolves true on the next change; false when closed or `signal` aborts. */
  wait(signal?: AbortSignal): Promise<boolean> {
    if (this.#closed || signal?.aborted === true) return Promise.resolve(false);
    return new Promise((resolve) => {
      const onAbort = (): void => finish(false);
      const finish = (changed: boolean): void => {
        this.#wakers.delete(finish);
        signal?.removeEventListener('abort', onAbort);
        resolve(changed);
      };
      this.#wakers.add(finish);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  close(): void {
    this.#closed = true;
    const wakers = this.#wakers;
    this.#wakers = new Set();
    for (const wake of wakers) wake(false);
  }
}

/** events(): the options checked at once; the iterator replays from `since`, then follows the log. */
export function followLog(
  store: Store,
  notifier: ChangeNotifier,
  visibleThrough: () => number,
  options: EventsOptions,
): AsyncIterable<SupervisorEvent> {
  checkSince(options);
  return eventStream(store, notifier, visibleThrough, options);
}

/**
 * eventTexts(): the same log as JSON texts, a page at a time, for a reader that passes events on as they
 * are (the server's live feed): the events at the log's edge are not parsed and serialised again.
 */
export function followLogTexts(
  store: Store,
  notifier: ChangeNotifier,
  visibleThrough: () => number,
  options: EventsOptions,
): AsyncIterable<readonly EventText[]> {
  checkSince(options);
  const read = (query: EventQuery): EventText[] =>
    store.readEventTexts?.(query) ?? store.readEvents(query).map(eventTextOf);
  return logPages(read, notifier, visibleThrough, options);
}

function checkSince(options: EventsOptions): void {
  if (options.since !== undefined && !(Number.isInteger(options.since) && options.since >= 0))
    throw new TypeError('options.since must be a non-negative integer');
}

/** readEvents(): one page after the global seq `after`, of what is on disk; never waits. */
export function readPage(
  store: Store,
  visibleThrough: () => number,
  query: { after?: number; threadId?: string; limit?: number },
): SupervisorEvent[] {
  const { after = 0, limit = DEFAULT_LIMIT } = query;
  if (!Number.isInteger(after) || after < 0) throw new TypeError('after must be a non-negative integer');
  if (!Number.isInteger(limit) || limit < 1) throw new TypeError('limit must be a positive integer');
  return visiblePart(
    store.readEvents({
      after,
      limit,
      ...(query.threadId === undefined ? {} : { threadId: query.threadId }),
    }),
    // Nothing a machine crash could still take back.
    visibleThrough(),
  );
}

/** Every event of the thread, oldest first, read a page at a time. */
export function threadEvents(store: Store, threadId: string): SupervisorEvent[] {
  const events: SupervisorEvent[] = [];
  for (let after = 0; ;) {
    const page = store.readEvents({ threadId, after, limit: 1000 });
    if (page.length === 0) break;
    events.push(...page);
    after = page.at(-1)?.seq ?? after;
  }
  return events;
}

export async function* eventStream(
  store: Store,
  notifier: ChangeNotifier,
  visibleThrough: () => number,
  options: EventsOptions,
): AsyncGenerator<SupervisorEvent, void> {
  for await (const page of logPages((query) => store.readEvents(query), notifier, visibleThrough, options))
    yield* page;
}

/**
 * The log after `options.since`, a page of what is on disk at a time, read with `read`; when none is left
 * it waits for the next commit. A page is whole when yielded: the cursor moves past it before the next read.
 */
async function* logPages<T extends { readonly seq: number }>(
  read: (query: EventQuery) => T[],
  notifier: ChangeNotifier,
  visibleThrough: () => number,
  options: EventsOptions,
): AsyncGenerator<readonly T[], void> {
  let cursor = options.since ?? 0;
  for (;;) {
    if (notifier.closed || options.signal?.aborted === true) return;
    const page = visiblePart(
      read({
        after: cursor,
        limit: PAGE,
        ...(options.threadId === undefined ? {} : { threadId: options.threadId }),
      }),
      visibleThrough(),
    );
    if (page.length === 0) {
      if (!(await notifier.wait(options.signal))) return;
      continue;
    }
    cursor = page.at(-1)!.seq;
    yield page;
  }
}

/** The events of `page` (in seq order) up to `through`. */
export function visiblePart<T extends { seq: number }>(page: T[], through: number): T[] {
  const last = page.at(-1);
  if (last === undefined || last.seq <= through) return page;
  return page.filter((event) => event.seq <= through);
}
