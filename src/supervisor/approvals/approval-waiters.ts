// The canUseTool calls waiting for a person. The store is the authority on an approval's state (its
// compare-and-set decides who wins a race between a decision and a cancellation); a waiter is only
// answered after the change is committed, from the committed event, so the CLI never hears a decision
// the log does not have.
import type { PermissionResult, PermissionUpdate } from '../../protocol/control.js';
import type { StoredEvent } from '../../store/event-types.js';
import type { ApprovalRecord } from '../../store/records.js';

interface Waiter {
  readonly input: Record<string, unknown>;
  readonly resolve: (result: PermissionResult) => void;
  /** Set while interrupt() or stopSubagent() runs: a cancellation's deny waits for the CLI to withdraw. */
  held: boolean;
  heldResult: PermissionResult | undefined;
}

export class ApprovalWaiters {
  readonly #waiters = new Map<string, Waiter>();

  get size(): number {
    return this.#waiters.size;
  }

  has(approvalId: string): boolean {
    return this.#waiters.has(approvalId);
  }

  wait(approvalId: string, input: Record<string, unknown>): Promise<PermissionResult> {
    return new Promise((resolve) => {
      this.#waiters.set(approvalId, { input, resolve, held: false, heldResult: undefined });
    });
  }

  /** Answers waiters from committed events: decisions, cancellations and expiries. */
  onCommitted(events: readonly StoredEvent[]): void {
    for (const event of events) {
      if (event.type === 'approval.decided') this.#onDecided(event.data);
      else if (event.type === 'approval.cancelled' || event.type === 'approval.expired')
        this.#onCancelled(event.data.approvalId, event.data.reason);
    }
  }

  #onDecided(decision: Extract<StoredEvent, { type: 'approval.decided' }>['data']): void {
    const waiter = this.#waiters.get(decision.approvalId);
    if (waiter === undefined) return;
    this.#answer(decision.approvalId, decidedAnswer(decision, waiter.input));
  }

  #onCancelled(approvalId: string, reason: string): void {
    const waiter = this.#waiters.get(approvalId);
    if (waiter === undefined) return;
    const result = cancelledAnswer(reason);
    if (waiter.held) waiter.heldResult = result;
    else this.#answer(approvalId, result);
  }

  /** The next cancellation of these approvals records at once but replies only on release(). */
  hold(approvalIds: Iterable<string>): void {
    for (const id of approvalIds) {
      const waiter = this.#waiters.get(id);
      if (waiter !== undefined) waiter.held = true;
    }
  }

  /** Sends what hold() kept back, to requests the CLI has not withdrawn meanwhile. */
  release(approvalIds: Iterable<string>): void {
    for (const id of approvalIds) {
      const waiter = this.#waiters.get(id);
      if (waiter === undefined) continue;
      waiter.held = false;
      if (waiter.heldResult !== undefined) this.#answer(id, waiter.heldResult);
    }
  }

  /** The CLI withdrew the request: nobody reads the reply, but the waiting call must end. */
  abandon(approvalId: string, result: PermissionResult): void {
    this.#answer(approvalId, result);
  }

  #answer(approvalId: string, result: PermissionResult): void {
    const waiter = this.#waiters.get(approvalId);
    if (waiter === undefined) return;
    this.#waiters.delete(approvalId);
    waiter.resolve(result);
  }
}

function decidedAnswer(
  decision: Extract<StoredEvent, { type: 'approval.decided' }>['data'],
  input: Record<string, unknown>,
): PermissionResult {
  const { behavior, message, interrupt, updatedPermissions, updatedInput } = decision;
  if (behavior === 'deny')
    return {
      behavior: 'deny',
      message: message ?? 'Denied by the user',
      ...(interrupt ? { interrupt: true } : {}),
    };
  return {
    behavior: 'allow',
    // What the person edited or answered, else the input as the CLI asked with it.
    updatedInput: updatedInput ?? input,
    ...(updatedPermissions === null ? {} : { updatedPermissions: updatedPermissions as PermissionUpdate[] }),
  };
}

function cancelledAnswer(reason: string): PermissionResult {
  return { behavior: 'deny', message: `The permission request was cancelled (${reason})` };
}

/** The answer a settled approval stands for: what was decided, or a deny saying why it was cancelled. */
export function settledAnswer(approval: ApprovalRecord, input: Record<string, unknown>): PermissionResult {
  if (approval.decision !== null)
    return decidedAnswer({ approvalId: approval.id, ...approval.decision }, input);
  return cancelledAnswer(approval.reason ?? approval.status);
}
