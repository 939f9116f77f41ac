// What every notification channel listens to: a reader of the supervisor's event log from the moment the
// server starts. An `approval.requested` is handed to each channel as a waiting approval; the approval
// being settled anywhere (decided by a person, a link or the policy, cancelled, expired) spends its action
// tokens and is handed on as a "resolved" notice, for the approvals announced since the start. Channels
// must return at once (they queue), so the log is read at the supervisor's pace whatever their receivers
// do, and nothing a channel throws reaches the supervisor. An approval with a deadline (a default decision
// at a set time) is announced once more shortly before it, to channels that take reminders.
//
// Each notice names its audience: the named deciders who may answer the approval (answerers.ts), and
// whether the owner's devices and webhooks are told too. A channel tells a device or URL of a decider only
// when that decider is in the audience; one of the owner's (no decider) whenever the owner is. A route's
// reminder (`approval.reminded`) goes to those who may answer; its escalation (`approval.escalated`) is a
// new request to the deciders it added, and to no one told before.
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
  /** Who is told of this notice. */
  audience: Audience;
  /** Told again or anew by a step of its route (approvals/routes.ts), not when it was made. */
  routeStep?: RouteStep;
}

export interface RouteStep {
  route: string;
  step: 'reminded' | 'escalated';
}

/** Named deciders told, and whether the owner's devices and webhooks are told too. */
export interface Audience {
  deciders: readonly string[];
  owner: boolean;
}

/** Whether a device or URL of `decider` (undefined: the owner's) is in the audience. */
export function reaches(audience: Audience, decider: string | undefined): boolean {
  return decider === undefined ? audience.owner : audience.deciders.includes(decider);
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
  /** Approvals announced and not yet settled, as announced (the "resolved" notice names its tool). */
  readonly #announced = new Map<string, WaitingApproval>();
  /** The named deciders who may answer an approval now (answerers.ts). */
  readonly #answerers: (approvalId: string) => readonly string[];
  /** Reminders due, by approval. */
  readonly #reminders = new Map<string, NodeJS.Timeout>();
  readonly #done: Promise<void>;

  constructor(options: {
    supervisor: Supervisor;
    links: ActionLinks;
    channels: readonly NotifyChannel[];
    onError: (error: unknown) => void;
    /** Who may answer; absent, no named decider is told (only the owner's devices and webhooks). */
    answerers?: (approvalId: string) => readonly string[];
  }) {
    this.#answerers = options.answerers ?? (() => []);
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
    if (event.type === 'approval.reminded' || event.type === 'approval.escalated') {
      this.#routeStep(event.data.approvalId, event.type === 'approval.escalated');
      return;
    }
    if (event.type === 'approval.requested') {
      const { approvalId, toolName, input, subagentId } = event.data;
      let cwd: string;
      let audience: Audience;
      try {
        cwd = this.#supervisor.getThread(event.threadId).thread.cwd;
        audience = { deciders: this.#answerers(approvalId), owner: true };
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
        audience,
      };
      this.#announced.set(approvalId, approval);
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
    const toolName = this.#announced.get(approvalId)?.toolName;
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

  /**
   * A route reminded: those who may answer are told again, as before a deadline. It escalated: the
   * deciders it added are told of the request, as if it were new to them.
   */
  #routeStep(approvalId: string, escalated: boolean): void {
    const announced = this.#announced.get(approvalId);
    if (announced === undefined) return;
    let deciders: readonly string[];
    try {
      deciders = this.#answerers(approvalId);
    } catch (error) {
      this.#onError(error);
      return;
    }
    if (!escalated) {
      const again: WaitingApproval = {
        ...announced,
        audience: { deciders, owner: true },
        routeStep: { route: this.#routeOf(approvalId), step: 'reminded' },
      };
      this.#each((channel) => channel.reminder?.(again));
      return;
    }
    const added = deciders.filter((name) => !announced.audience.deciders.includes(name));
    this.#announced.set(approvalId, { ...announced, audience: { deciders, owner: true } });
    if (added.length === 0) return;
    const news: WaitingApproval = {
      ...announced,
      audience: { deciders: added, owner: false },
      routeStep: { route: this.#routeOf(approvalId), step: 'escalated' },
    };
    this.#each((channel) => channel.requested(news));
  }

  #routeOf(approvalId: string): string {
    return this.#supervisor.getApproval(approvalId).routing?.escalation?.route ?? '';
  }

  #scheduleReminder(approval: WaitingApproval): void {
    if (approval.deadline === null || !this.#channels.some((channel) => channel.reminder !== undefined))
      return;
    const left = Date.parse(approval.deadline.at) - Date.now();
    if (!(left > 0)) return;
    const timer = setTimeout(
      () => {
        this.#reminders.delete(approval.id);
        const now = this.#announced.get(approval.id);
        if (now !== undefined) this.#each((channel) => channel.reminder?.(now));
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
