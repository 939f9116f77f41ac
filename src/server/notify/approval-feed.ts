// What every notification channel listens to: a reader of the supervisor's event log from the moment the
// server starts. An `approval.requested` is handed to each channel as a waiting approval; the approval
// being settled anywhere (decided by a person, a link or the policy, cancelled, expired) spends its action
// tokens and is handed on as a "resolved" notice, for the approvals announced since the start. Channels
// must return at once (they queue), so the log is read at the supervisor's pace whatever their receivers
// do, and nothing a channel throws reaches the supervisor. An approval with a deadline (a default decision
// at a set time) is announced once more shortly before it, to channels that take reminders.
import type { StoredEvent } from '../../store/event-types.js';
import type { Supervisor } from '../../supervisor/index.js';
import type { ActionLinks } from './action-links.js';
import type { Outcome, ResolvedNotice } from './notice.js';

/** An approval that waits, as the log told it (the input is the agent's, not yet made safe). */
export interface WaitingApproval {
  id: string;
  threadId: string;
  subagentId: string | null;
  toolName: string;
  input: Record<string, unknown>;
  createdAt: string;
  cwd: string;
  /** When it is answered for the person, and how; null without a deadline. */
  deadline: { at: string; behavior: 'allow' | 'deny' } | null;
}

/** A reminder goes this long before the deadline (or at half the time left, when that is shorter). */
export const REMINDER_LEAD_MS = 5 * 60 * 1000;

export interface NotifyChannel {
  requested(approval: WaitingApproval): void;
  resolved(notice: ResolvedNotice): void;
  /** The approval still waits and its deadline is near. */
  reminder?(approval: WaitingApproval): void;
  /** Stops every delivery. */
  close(): void;
}

export class ApprovalFeed {
  readonly #supervisor: Supervisor;
  readonly #links: ActionLinks;
  readonly #channels: readonly NotifyChannel[];
  readonly #onError: (error: unknown) => void;
  readonly #stop = new AbortController();
  /** Approvals announced and not yet settled: their tool name, for the "resolved" notice. */
  readonly #announced = new Map<string, string>();
  /** Reminders due, by approval. */
  readonly #reminders = new Map<string, NodeJS.Timeout>();
  readonly #done: Promise<void>;

  constructor(options: {
    supervisor: Supervisor;
    links: ActionLinks;
    channels: readonly NotifyChannel[];
    onError: (error: unknown) => void;
  }) {
    this.#supervisor = options.supervisor;
    this.#links = options.links;
    this.#channels = options.channels;
    this.#onError = options.onError;
    this.#done = this.#follow(options.supervisor.lastSeq());
  }

  /** Stops reading the log and every channel. */
  async close(): Promise<void> {
    this.#stop.abort();
    for (const timer of this.#reminders.values()) clearTimeout(timer);
    this.#reminders.clear();
    for (const channel of this.#channels) channel.close();
    await this.#done;
  }

  async #follow(since: number): Promise<void> {
    try {
      for await (const event of this.#supervisor.events({ since, signal: this.#stop.signal }))
        this.#onEvent(event);
    } catch (error) {
      if (!this.#stop.signal.aborted) this.#onError(error);
    }
  }

  #onEvent(event: StoredEvent): void {
    if (event.type === 'approval.requested') {
      const { approvalId, toolName, input, subagentId } = event.data;
      this.#announced.set(approvalId, toolName);
      let cwd: string;
      try {
        cwd = this.#supervisor.getThread(event.threadId).thread.cwd;
      } catch (error) {
        this.#onError(error);
        return;
      }
      const approval: WaitingApproval = {
        id: approvalId,
        threadId: event.threadId,
        subagentId,
        toolName,
        input,
        createdAt: event.at,
        cwd,
        deadline:
          event.data.deadline == null
            ? null
            : { at: event.data.deadline.at, behavior: event.data.deadline.behavior },
      };
      this.#each((channel) => channel.requested(approval));
      this.#scheduleReminder(approval);
      return;
    }
    if (
      event.type !== 'approval.decided' &&
      event.type !== 'approval.cancelled' &&
      event.type !== 'approval.expired'
    )
      return;
    const { approvalId } = event.data;
    this.#links.settle(approvalId);
    clearTimeout(this.#reminders.get(approvalId));
    this.#reminders.delete(approvalId);
    const toolName = this.#announced.get(approvalId);
    if (toolName === undefined) return;
    this.#announced.delete(approvalId);
    const outcome: Outcome =
      event.type === 'approval.decided'
        ? event.data.behavior === 'deny'
          ? 'denied'
          : 'allowed'
        : event.type === 'approval.cancelled'
          ? 'cancelled'
          : 'expired';
    const notice: ResolvedNotice = {
      type: 'approval.resolved',
      approval: { id: approvalId, threadId: event.threadId, toolName },
      outcome,
      by: event.type === 'approval.decided' ? event.data.by : null,
      reason: event.type === 'approval.decided' ? null : event.data.reason,
      at: event.at,
    };
    this.#each((channel) => channel.resolved(notice));
  }

  #scheduleReminder(approval: WaitingApproval): void {
    if (approval.deadline === null || !this.#channels.some((channel) => channel.reminder !== undefined))
      return;
    const left = Date.parse(approval.deadline.at) - Date.now();
    if (!(left > 0)) return;
    const timer = setTimeout(
      () => {
        this.#reminders.delete(approval.id);
        if (this.#announced.has(approval.id)) this.#each((channel) => channel.reminder?.(approval));
      },
      left - Math.min(REMINDER_LEAD_MS, left / 2),
    );
    // A reminder never keeps the process alive on its own.
    timer.unref();
    this.#reminders.set(approval.id, timer);
  }

  #each(fn: (channel: NotifyChannel) => void): void {
    for (const channel of this.#channels)
      try {
        fn(channel);
      } catch (error) {
        this.#onError(error);
      }
  }
}
