// Takes the steps of each pending approval's route (routes.ts): the reminder, then the escalation, each
// an event in the log (`approval.reminded`, `approval.escalated`) with its audit record, and only while
// the approval is still pending. It learns of routes from committed events and, at open, from the pending
// approvals on record: a step whose time passed while no host ran is taken at once, in order.
import { ConflictError, StoreError } from '../../protocol/errors.js';
import type { StoredEvent } from '../../store/event-types.js';
import type { ApprovalRecord } from '../../store/records.js';
import type { SupervisorCore } from '../core.js';
import { KeyedTimers, type RouteTimers } from './route-timers.js';

type Step = 'remind' | 'escalate';

/** How soon a step the store could not record is tried again. */
const STEP_RETRY_MS = 1000;

export class Escalations {
  readonly #core: SupervisorCore;
  readonly #timers: KeyedTimers;
  readonly #clock: RouteTimers;

  constructor(core: SupervisorCore) {
    this.#core = core;
    this.#clock = core.options.routeClock;
    this.#timers = new KeyedTimers(this.#clock);
  }

  /** Timers armed now (a reminder and an escalation count apart). */
  get size(): number {
    return this.#timers.size;
  }

  restore(pending: readonly ApprovalRecord[]): void {
    for (const approval of pending) if (approval.status === 'pending') this.#arm(approval);
  }

  onCommitted(events: readonly StoredEvent[]): void {
    for (const event of events) {
      if (event.type === 'approval.requested') {
        // The approval's routing is the event's until a later event changes it: none to arm, none to read.
        if (event.data.routing?.escalation == null) continue;
        const approval = this.#core.store.getApproval(event.data.approvalId);
        if (approval !== undefined) this.#arm(approval);
      } else if (
        event.type === 'approval.decided' ||
        event.type === 'approval.cancelled' ||
        event.type === 'approval.expired'
      ) {
        this.#timers.cancel(key(event.data.approvalId, 'remind'));
        this.#timers.cancel(key(event.data.approvalId, 'escalate'));
      }
    }
  }

  clear(): void {
    this.#timers.clear();
  }

  #arm(approval: ApprovalRecord): void {
    const escalation = approval.routing?.escalation;
    if (escalation == null || escalation.escalatedAt !== null) return;
    const { id } = approval;
    if (escalation.remindAt !== null && escalation.remindedAt === null)
      this.#timers.at(key(id, 'remind'), Date.parse(escalation.remindAt), () => this.#take(id, 'remind'));
    this.#timers.at(key(id, 'escalate'), Date.parse(escalation.escalateAt), () => this.#take(id, 'escalate'));
  }

  #take(approvalId: string, step: Step): void {
    if (this.#core.closed) return;
    const approval = this.#core.store.getApproval(approvalId);
    const escalation = approval?.routing?.escalation;
    if (approval?.status !== 'pending' || escalation == null || escalation.escalatedAt !== null) return;
    // Taken already (the step's timer was armed twice, at open and by its event).
    if (step === 'remind' && escalation.remindedAt !== null) return;
    const { route, to } = escalation;
    try {
      this.#core.commit(approval.threadId, [
        step === 'remind'
          ? { type: 'approval.reminded', data: { approvalId, route } }
          : { type: 'approval.escalated', data: { approvalId, route, to } },
      ]);
    } catch (error) {
      // The store cannot write for now: the step is still due, once it can.
      if (error instanceof StoreError) {
        this.#core.warn(error);
        this.#timers.at(key(approvalId, step), this.#clock.now() + STEP_RETRY_MS, () =>
          this.#take(approvalId, step),
        );
        return;
      }
      // Settled at the same moment: nothing is left to route.
      if (!(error instanceof ConflictError))
        this.#core.warnFailure(error, `Could not ${step} approval ${approvalId} by its route`);
    }
  }
}

function key(approvalId: string, step: Step): string {
  return `${approvalId}:${step}`;
}
