// What every notification channel listens to: a reader of the supervisor's event log from the moment the
// server starts. An `approval.requested` is handed to each channel as a waiting approval; the approval
// being settled anywhere (decided by a person, a link or the policy, cancelled, expired) spends its action
// tokens and is handed on as a "resolved" notice, for the approvals announced since the start. Channels
// must return at once (they queue), so the log is read at the supervisor's pace whatever their receivers
// do, and nothing a channel throws reaches the supervisor.
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
}

export interface NotifyChannel {
  requested(approval: WaitingApproval): void;
  resolved(notice: ResolvedNotice): void;
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
      };
      this.#each((channel) => channel.requested(approval));
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

  #each(fn: (channel: NotifyChannel) => void): void {
    for (const channel of this.#channels)
      try {
        fn(channel);
      } catch (error) {
        this.#onError(error);
      }
  }
}
