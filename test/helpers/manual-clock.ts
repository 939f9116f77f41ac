// A clock a test moves by hand, for the timers of approval routes (RouteTimers): `advance(ms)` fires, in
// time order, every timer that comes due, so a ten-minute escalation is tested without waiting.
import type { RouteTimers } from '../../src/supervisor/index.js';

interface Pending {
  at: number;
  order: number;
  fire: () => void;
}

export class ManualClock implements RouteTimers {
  #now: number;
  #order = 0;
  readonly #pending = new Set<Pending>();

  constructor(start = Date.now()) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  set(fire: () => void, delayMs: number): unknown {
    const timer: Pending = { at: this.#now + delayMs, order: this.#order++, fire };
    this.#pending.add(timer);
    return timer;
  }

  cancel(handle: unknown): void {
    this.#pending.delete(handle as Pending);
  }

  /** Timers waiting now. */
  get waiting(): number {
    return this.#pending.size;
  }

  /** Moves time on by `ms`, firing what comes due on the way (and what those set, if due too). */
  advance(ms: number): void {
    const until = this.#now + ms;
    for (;;) {
      const next = [...this.#pending]
        .filter((timer) => timer.at <= until)
        .sort((a, b) => a.at - b.at || a.order - b.order)[0];
      if (next === undefined) break;
      this.#pending.delete(next);
      this.#now = Math.max(this.#now, next.at);
      next.fire();
    }
    this.#now = until;
  }
}
