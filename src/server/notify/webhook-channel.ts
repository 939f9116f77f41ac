// The webhook channel: for a waiting approval, a notice with fresh action links (one pair shared by every
// URL) goes to each URL's queue; a settled one goes as a "resolved" notice. Handing a notice to a URL never
// waits (webhook-endpoint.ts); the log is read by the approval feed (approval-feed.ts). A URL set for a
// named decider gets only the approvals that decider may answer, and their settling.
import type { ActionLinks, LinkAction } from './action-links.js';
import { reaches, type NotifyChannel, type WaitingApproval } from './approval-feed.js';
import type { WebhookFormat } from './formats.js';
import { requestedNotice, type RequestedNotice, type ResolvedNotice } from './notice.js';
import { WebhookEndpoint, type DeliveryLimits } from './webhook-endpoint.js';

export interface WebhookTarget {
  url: string;
  format: WebhookFormat;
  /** The named decider it tells (absent: the owner, told of every approval). */
  decider?: string;
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
  /** Per approval told and not yet settled: the endpoints told of it. */
  readonly #told = new Map<string, Set<number>>();

  constructor(options: WebhookChannelOptions) {
    this.#options = options;
    this.endpoints = options.targets.map(
      (target) =>
        new WebhookEndpoint(target.url, target.format, options.limits, options.secret, options.onError),
    );
  }

  requested(approval: WaitingApproval): void {
    const notice = this.#notice(approval);
    this.#each(approval, (endpoint, index) => {
      endpoint.enqueue(notice);
      const told = this.#told.get(approval.id) ?? new Set<number>();
      told.add(index);
      this.#told.set(approval.id, told);
    });
  }

  /** The deadline is near: the same notice once more, with fresh links and when it will be answered. */
  reminder(approval: WaitingApproval): void {
    if (approval.deadline === null && approval.routeStep === undefined) return;
    const notice: RequestedNotice = {
      ...this.#notice(approval),
      ...(approval.deadline === null
        ? {}
        : { reminder: { deadlineAt: approval.deadline.at, behavior: approval.deadline.behavior } }),
    };
    this.#each(approval, (endpoint) => endpoint.enqueue(notice));
  }

  #each(approval: WaitingApproval, fn: (endpoint: WebhookEndpoint, index: number) => void): void {
    this.endpoints.forEach((endpoint, index) => {
      if (reaches(approval.audience, this.#options.targets[index]?.decider)) fn(endpoint, index);
    });
  }

  #notice(approval: WaitingApproval): RequestedNotice {
    const { links, baseUrl, linkTtlMs } = this.#options;
    const link = (action: LinkAction) =>
      `${baseUrl}${actionPath(approval.id, action)}?token=${links.mint(approval.id, action)}`;
    const notice = requestedNotice(approval, approval.cwd, {
      allow: link('allow'),
      deny: link('deny'),
      expiresAt: Date.now() + linkTtlMs,
    });
    const step = approval.routeStep;
    return step === undefined ? notice : { ...notice, route: { name: step.route, step: step.step } };
  }

  resolved(notice: ResolvedNotice): void {
    const told = this.#told.get(notice.approval.id);
    this.#told.delete(notice.approval.id);
    for (const index of told ?? []) this.endpoints[index]?.enqueue(notice);
  }

  close(): void {
    for (const endpoint of this.endpoints) endpoint.close();
  }
}

/** Where an action link points, on this server (routes-hooks.ts). */
export function actionPath(approvalId: string, action: LinkAction): string {
  return `/hooks/approvals/${encodeURIComponent(approvalId)}/${action}`;
}
