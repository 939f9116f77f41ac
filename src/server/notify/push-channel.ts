// The Web Push channel: for a waiting approval, each subscribed device gets a push of its own, encrypted to
// that device's keys, with action tokens minted for it (so a token read off one device is good for that
// approval only, once, and spent with every other token of the approval when any is used); when the
// approval is settled anywhere, the devices that were told get "answered elsewhere" under the same tag.
// A device is told only when the decider who subscribed it is in the notice's audience (approval-feed.ts).
import type { ActionLinks, LinkAction } from './action-links.js';
import { reaches, type NotifyChannel, type WaitingApproval } from './approval-feed.js';
import type { ResolvedNotice } from './notice.js';
import { PushEndpoint, type PushSettings } from './push-endpoint.js';
import { reminderPayload, requestedPayload, resolvedPayload, type PushPayload } from './push-payload.js';
import type { PushShow } from './push-subscriptions.js';
import type { PushSubscriptions } from './push-subscriptions.js';
import { actionPath } from './webhook-channel.js';

export interface PushChannelOptions extends Omit<PushSettings, 'onGone'> {
  subscriptions: PushSubscriptions;
  links: ActionLinks;
  linkTtlMs: number;
}

export class PushChannel implements NotifyChannel {
  readonly #options: PushChannelOptions;
  readonly #endpoints = new Map<string, PushEndpoint>();
  /** Approvals pushed and not yet settled: the devices that were told. */
  readonly #told = new Map<string, Set<string>>();
  #closed = false;

  constructor(options: PushChannelOptions) {
    this.#options = options;
  }

  requested(approval: WaitingApproval): void {
    const told = this.#push(approval, requestedPayload);
    // An escalation tells more devices of an approval some were told of already.
    for (const id of this.#told.get(approval.id) ?? []) told.add(id);
    if (told.size > 0) this.#told.set(approval.id, told);
  }

  /** Shortly before the deadline, the devices that were told get the prompt again with fresh tokens. */
  reminder(approval: WaitingApproval): void {
    const told = this.#told.get(approval.id);
    if (told !== undefined) this.#push(approval, reminderPayload, told);
  }

  #push(
    approval: WaitingApproval,
    build: (
      approval: WaitingApproval,
      show: PushShow,
      links: { allow: string; deny: string; expiresAt: number },
    ) => PushPayload,
    only?: ReadonlySet<string>,
  ): Set<string> {
    const { subscriptions, links, linkTtlMs } = this.#options;
    const told = new Set<string>();
    const expiresAt = Date.now() + linkTtlMs;
    const path = (action: LinkAction) =>
      `${actionPath(approval.id, action)}?token=${links.mint(approval.id, action)}`;
    for (const subscription of subscriptions.list()) {
      if (only !== undefined && !only.has(subscription.id)) continue;
      if (!reaches(approval.audience, subscription.decider)) continue;
      const payload = build(approval, subscription.show, {
        // Minted lazily: a device shown no Approve button holds no allow token.
        get allow() {
          return path('allow');
        },
        get deny() {
          return path('deny');
        },
        expiresAt,
      });
      this.#endpoint(subscription.id)?.enqueue(payload, Math.ceil(linkTtlMs / 1000));
      told.add(subscription.id);
    }
    return told;
  }

  resolved(notice: ResolvedNotice): void {
    const told = this.#told.get(notice.approval.id);
    if (told === undefined) return;
    this.#told.delete(notice.approval.id);
    const payload = resolvedPayload(notice);
    for (const id of told) this.#endpoint(id)?.enqueue(payload, Math.ceil(this.#options.linkTtlMs / 1000));
  }

  /** The device unsubscribed: its queue stops. */
  forget(id: string): void {
    this.#endpoints.get(id)?.close();
    this.#endpoints.delete(id);
  }

  close(): void {
    this.#closed = true;
    for (const endpoint of this.#endpoints.values()) endpoint.close();
    this.#endpoints.clear();
  }

  #endpoint(id: string): PushEndpoint | undefined {
    if (this.#closed) return undefined;
    const subscription = this.#options.subscriptions.get(id);
    if (subscription === undefined) return undefined;
    let endpoint = this.#endpoints.get(id);
    // A device that subscribed again (new keys) gets a fresh queue with the new keys.
    if (endpoint !== undefined && endpoint.subscription !== subscription) {
      endpoint.close();
      endpoint = undefined;
    }
    if (endpoint === undefined) {
      endpoint = new PushEndpoint(subscription, {
        ...this.#options,
        onGone: (goneId) => {
          this.forget(goneId);
          this.#options.subscriptions.remove(goneId);
        },
      });
      this.#endpoints.set(id, endpoint);
    }
    return endpoint;
  }
}
