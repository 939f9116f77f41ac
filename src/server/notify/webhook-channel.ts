// The webhook channel: a reader of the supervisor's event log like any other. It follows the log from the
// moment the server starts; an `approval.requested` becomes a notice with fresh action links for every
// URL, and the approval being settled anywhere (decided by a person, a link or the policy, cancelled,
// expired) becomes a "resolved" notice. Handing a notice to a URL never waits (webhook-endpoint.ts), so
// the log is read at the supervisor's pace whatever the receivers do, and nothing here throws into it.
import type { StoredEvent } from '../../store/event-types.js';
import type { Supervisor } from '../../supervisor/index.js';
import type { ActionLinks, LinkAction } from './action-links.js';
import type { WebhookFormat } from './formats.js';
import { requestedNotice, type Notice, type Outcome } from './notice.js';
import { WebhookEndpoint, type DeliveryLimits } from './webhook-endpoint.js';

export interface WebhookTarget {
  url: string;
  format: WebhookFormat;
}

export interface WebhookChannelOptions {
  supervisor: Supervisor;
  targets: readonly WebhookTarget[];
  links: ActionLinks;
  linkTtlMs: number;
  /** The server's URL, as the action links name it. */
  baseUrl: string;
  secret: string;
  limits: DeliveryLimits;
  onError: (error: unknown) => void;
}

export class WebhookChannel {
  readonly endpoints: WebhookEndpoint[];
  readonly #options: WebhookChannelOptions;
  readonly #stop = new AbortController();
  /** Approvals a notice went out for, until they are settled: tool name, for the "resolved" notice. */
  readonly #notified = new Map<string, string>();
  readonly #done: Promise<void>;

  constructor(options: WebhookChannelOptions) {
    this.#options = options;
    this.endpoints = options.targets.map(
      (target) =>
        new WebhookEndpoint(target.url, target.format, options.limits, options.secret, options.onError),
    );
    const since = options.supervisor.lastSeq();
    this.#done = this.#follow(since);
  }

  /** Stops reading the log and every delivery. */
  async close(): Promise<void> {
    this.#stop.abort();
    for (const endpoint of this.endpoints) endpoint.close();
    await this.#done;
  }

  async #follow(since: number): Promise<void> {
    try {
      for await (const event of this.#options.supervisor.events({ since, signal: this.#stop.signal }))
        this.#onEvent(event);
    } catch (error) {
      if (!this.#stop.signal.aborted) this.#options.onError(error);
    }
  }

  #onEvent(event: StoredEvent): void {
    try {
      const notice = this.#noticeFor(event);
      if (notice !== undefined) for (const endpoint of this.endpoints) endpoint.enqueue(notice);
    } catch (error) {
      this.#options.onError(error);
    }
  }

  #noticeFor(event: StoredEvent): Notice | undefined {
    const { links, supervisor, baseUrl, linkTtlMs } = this.#options;
    if (event.type === 'approval.requested') {
      const { approvalId, toolName, input, subagentId } = event.data;
      const cwd = supervisor.getThread(event.threadId).thread.cwd;
      const link = (action: LinkAction) =>
        `${baseUrl}/hooks/approvals/${encodeURIComponent(approvalId)}/${action}?token=${links.mint(approvalId, action)}`;
      this.#notified.set(approvalId, toolName);
      return requestedNotice(
        { id: approvalId, threadId: event.threadId, subagentId, toolName, input, createdAt: event.at },
        cwd,
        { allow: link('allow'), deny: link('deny'), expiresAt: Date.now() + linkTtlMs },
      );
    }
    if (
      event.type === 'approval.decided' ||
      event.type === 'approval.cancelled' ||
      event.type === 'approval.expired'
    ) {
      const { approvalId } = event.data;
      links.settle(approvalId);
      const toolName = this.#notified.get(approvalId);
      if (toolName === undefined) return undefined;
      this.#notified.delete(approvalId);
      const outcome: Outcome =
        event.type === 'approval.decided'
          ? event.data.behavior === 'deny'
            ? 'denied'
            : 'allowed'
          : event.type === 'approval.cancelled'
            ? 'cancelled'
            : 'expired';
      return {
        type: 'approval.resolved',
        approval: { id: approvalId, threadId: event.threadId, toolName },
        outcome,
        by: event.type === 'approval.decided' ? event.data.by : null,
        reason: event.type === 'approval.decided' ? null : event.data.reason,
        at: event.at,
      };
    }
    return undefined;
  }
}
