// events(): replay from the log, then follow it live. Pull-based: the iterator reads pages from the store
// after its cursor and sleeps until the next commit, so a slow consumer never makes anything buffer or
// drop, and nothing between the replay and the live part can be missed (the read and the subscription
// happen in the same synchronous step). It stops before the first event not yet on disk (`visibleThrough`,
// durable-publish.ts) and is woken when that event is published.
import type { Store } from '../store/store.js';
import type { EventsOptions, SupervisorEvent } from './types.js';

const PAGE = 256;

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

export async function* eventStream(
  store: Store,
  notifier: ChangeNotifier,
  visibleThrough: () => number,
  options: EventsOptions,
): AsyncGenerator<SupervisorEvent, void> {
  let cursor = options.since ?? 0;
  for (;;) {
    if (notifier.closed || options.signal?.aborted === true) return;
    const page = visiblePart(
      store.readEvents({
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
    for (const event of page) {
      cursor = event.seq;
      yield event;
    }
  }
}

/** The events of `page` (in seq order) up to `through`. */
export function visiblePart<T extends { seq: number }>(page: T[], through: number): T[] {
  const last = page.at(-1);
  if (last === undefined || last.seq <= through) return page;
  return page.filter((event) => event.seq <= through);
}
