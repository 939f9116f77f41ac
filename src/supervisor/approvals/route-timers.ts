// The clock a route's steps wait on. Real timers by default; a test passes its own and moves time by
// hand, so an escalation after ten minutes is tested in no time at all. A real timer never keeps the
// process alive, and a step further off than setTimeout can wait is reached in hops.
export interface RouteTimers {
  now(): number;
  /** Calls `fire` after `delayMs`; the handle cancels it. */
  set(fire: () => void, delayMs: number): unknown;
  cancel(handle: unknown): void;
}

/** setTimeout's longest delay. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export const REAL_ROUTE_TIMERS: RouteTimers = {
  now: () => Date.now(),
  set(fire, delayMs) {
    const timer = setTimeout(fire, Math.min(delayMs, MAX_TIMER_MS));
    timer.unref();
    return timer;
  },
  cancel: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** One timer per key; setting a key again replaces its timer. */
export class KeyedTimers {
  readonly #timers: RouteTimers;
  readonly #handles = new Map<string, unknown>();

  constructor(timers: RouteTimers) {
    this.#timers = timers;
  }

  get size(): number {
    return this.#handles.size;
  }

  /** Calls `fire` at time `at` (at once when it is past). */
  at(key: string, at: number, fire: () => void): void {
    this.cancel(key);
    const delay = Math.max(0, at - this.#timers.now());
    const handle = this.#timers.set(
      () => {
        this.#handles.delete(key);
        // A hop of a long wait: not there yet.
        if (at > this.#timers.now()) this.at(key, at, fire);
        else fire();
      },
      Math.min(delay, MAX_TIMER_MS),
    );
    this.#handles.set(key, handle);
  }

  cancel(key: string): void {
    const handle = this.#handles.get(key);
    if (handle === undefined) return;
    this.#timers.cancel(handle);
    this.#handles.delete(key);
  }

  clear(): void {
    for (const handle of this.#handles.values()) this.#timers.cancel(handle);
    this.#handles.clear();
  }
}
