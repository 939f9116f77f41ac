// The webhook channel: for a waiting approval, a notice with fresh action links (one pair shared by every
// URL) goes to each URL's queue; a settled one goes as a "resolved" notice. Handing a notice to a URL never
// waits (webhook-endpoint.ts); the log is read by the approval feed (approval-feed.ts).
import type { ActionLinks, LinkAction } from './action-links.js';
import type { NotifyChannel, WaitingApproval } from './approval-feed.js';
import type { WebhookFormat } from './formats.js';
import { requestedNotice, type RequestedNotice, type ResolvedNotice } from './notice.js';
import { WebhookEndpoint, type DeliveryLimits } from './webhook-endpoint.js';

export interface WebhookTarget {
  url: string;
  format: WebhookFormat;
}

export interface WebhookChannelOptions {
  targets: readonly WebhookTarget[];
  links: ActionLinks;
  linkTtlMs: number;
  /** The server's URL, as the action links name it. */
  baseUrl: string;
  secret: string;
  limits: DeliveryLimits;
  onError: (error: unknown) => void;
}

export class WebhookChannel implements NotifyChannel {
  readonly endpoints: WebhookEndpoint[];
  readonly #options: WebhookChannelOptions;

  constructor(options: WebhookChannelOptions) {
    this.#options = options;
    this.endpoints = options.targets.map(
      (target) =>
        new WebhookEndpoint(target.url, target.format, options.limits, options.secret, options.onError),
    );
  }

  requested(approval: WaitingApproval): void {
    for (const endpoint of this.endpoints) endpoint.enqueue(this.#notice(approval));
  }

  /** The deadline is near: the same notice once more, with fresh links and when it will be answered. */
  reminder(approval: WaitingApproval): void {
    if (approval.deadline === null) return;
    const notice: RequestedNotice = {
      ...this.#notice(approval),
      reminder: { deadlineAt: approval.deadline.at, behavior: approval.deadline.behavior },
    };
    for (const endpoint of this.endpoints) endpoint.enqueue(notice);
  }

  #notice(approval: WaitingApproval): RequestedNotice {
    const { links, baseUrl, linkTtlMs } = this.#options;
    const link = (action: LinkAction) =>
      `${baseUrl}${actionPath(approval.id, action)}?token=${links.mint(approval.id, action)}`;
    return requestedNotice(approval, approval.cwd, {
      allow: link('allow'),
      deny: link('deny'),
      expiresAt: Date.now() + linkTtlMs,
    });
  }

  resolved(notice: ResolvedNotice): void {
    for (const endpoint of this.endpoints) endpoint.enqueue(notice);
  }

  close(): void {
    for (const endpoint of this.endpoints) endpoint.close();
  }
}

/** Where an action link points, on this server (routes-hooks.ts). */
export function actionPath(approvalId: string, action: LinkAction): string {
  return `/hooks/approvals/${encodeURIComponent(approvalId)}/${action}`;
}
