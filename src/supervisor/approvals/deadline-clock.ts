// Keeps one timer per pending approval that has a deadline. It learns of deadlines from committed events
// (an approval made, settled) and, at open, from the pending approvals on record; a deadline already
// past fires at once. Timers never keep the process alive.
import type { StoredEvent } from '../../store/event-types.js';
import type { ApprovalRecord } from '../../store/records.js';

/** setTimeout's longest delay; a later deadline is reached in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class DeadlineClock {
  readonly #timers = new Map<string, NodeJS.Timeout>();
  readonly #fire: (approvalId: string) => void;

  constructor(fire: (approvalId: string) => void) {
    this.#fire = fire;
  }

  get size(): number {
    return this.#timers.size;
  }

  /** Starts the clocks of the pending approvals a host finds at open. */
  restore(pending: readonly ApprovalRecord[]): void {
    for (const approval of pending)
      if (approval.status === 'pending' && approval.deadline !== null)
        this.#schedule(approval.id, Date.parse(approval.deadline.at));
  }

  onCommitted(events: readonly StoredEvent[]): void {
    for (const event of events) {
      if (event.type === 'approval.requested') {
        const at = event.data.deadline?.at;
        if (at !== undefined) this.#schedule(event.data.approvalId, Date.parse(at));
      } else if (
        event.type === 'approval.decided' ||
        event.type === 'approval.cancelled' ||
        event.type === 'approval.expired'
      )
        this.#cancel(event.data.approvalId);
    }
  }

  clear(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
  }

  #schedule(approvalId: string, at: number): void {
    this.#cancel(approvalId);
    const delay = Math.max(0, at - Date.now());
    const timer = setTimeout(
      () => {
        this.#timers.delete(approvalId);
        if (delay > MAX_TIMER_MS) this.#schedule(approvalId, at);
        else this.#fire(approvalId);
      },
      Math.min(delay, MAX_TIMER_MS),
    );
    timer.unref();
    this.#timers.set(approvalId, timer);
  }

  #cancel(approvalId: string): void {
    const timer = this.#timers.get(approvalId);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.#timers.delete(approvalId);
  }
}
