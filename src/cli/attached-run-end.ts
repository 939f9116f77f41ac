// When `warden run` attached to a server has seen its prompt through. Run alone, the command knows: the SDK
// ends the CLI once nothing can ask any more. In a server the CLI stays up for the next message (from the
// browser), so the command judges from the thread's events: the prompt's run has ended, no run is queued
// or running, no subagent runs, no approval waits — and no turn of the CLI's own is due: a background
// subagent that reports after the last turn ended makes the CLI start one (`run.created` follows within
// a fraction of a second), so the command waits for it, a bounded time. Then, once nothing has happened
// for a short quiet spell, it stops following; the thread stays in the server.
import type { StoredEvent } from '../store/event-types.js';

/** How long the thread must stay settled before the command stops following it. */
export const QUIET_MS = 1000;
/** How long a CLI-started turn after a subagent's report is waited for. */
export const FOLLOW_UP_MS = 15_000;

export class AttachedRunEnd {
  readonly #runId: string;
  readonly #activeRuns = new Set<string>();
  readonly #subagents = new Set<string>();
  readonly #approvals = new Set<string>();
  #promptEnded = false;
  #followUpDueSince: number | undefined;

  constructor(promptRunId: string) {
    this.#runId = promptRunId;
  }

  onEvent(event: StoredEvent, now = Date.now()): void {
    if (event.type === 'run.created') {
      this.#activeRuns.add(event.data.runId);
      this.#followUpDueSince = undefined;
    } else if (event.type === 'run.ended') {
      this.#activeRuns.delete(event.data.runId);
      if (event.data.runId === this.#runId) this.#promptEnded = true;
    } else if (event.type === 'subagent.started') {
      this.#subagents.add(event.data.subagentId);
    } else if (event.type === 'subagent.ended') {
      this.#subagents.delete(event.data.subagentId);
      if (this.#activeRuns.size === 0 && event.data.status !== 'lost') this.#followUpDueSince = now;
    } else if (event.type === 'approval.requested') {
      this.#approvals.add(event.data.approvalId);
    } else if (
      event.type === 'approval.decided' ||
      event.type === 'approval.cancelled' ||
      event.type === 'approval.expired'
    ) {
      this.#approvals.delete(event.data.approvalId);
    }
  }

  /**
   * How long to wait for another event before the run counts as done; undefined while something is still
   * under way (wait as long as it takes).
   */
  quietWait(now = Date.now()): number | undefined {
    if (
      !this.#promptEnded ||
      this.#activeRuns.size > 0 ||
      this.#subagents.size > 0 ||
      this.#approvals.size > 0
    )
      return undefined;
    if (this.#followUpDueSince !== undefined)
      return Math.max(QUIET_MS, this.#followUpDueSince + FOLLOW_UP_MS - now);
    return QUIET_MS;
  }
}
