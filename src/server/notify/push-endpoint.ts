// One device's Web Push subscription: its own bounded queue, one push at a time (so the device gets an
// approval before its "answered elsewhere"), each POST to the push service cut off after `timeoutMs`,
// retried with backoff on 429, 5xx and network failures. A 404 or 410 means the subscription is gone (the
// browser unsubscribed or the service expired it): the device is forgotten. The channel hands pushes
// over without waiting, so a dead or slow push service only ever delays this device's queue.
import { createHash } from 'node:crypto';

import webpush from 'web-push';

import { failureOf, retryDelay, sleep } from './backoff.js';
import type { PushPayload } from './push-payload.js';
import type { StoredSubscription } from './push-subscriptions.js';
import { SerialQueue } from './serial-queue.js';
import type { VapidKeys } from './vapid-keys.js';
import { redact, type DeliveryLimits } from './webhook-endpoint.js';

/** Why a push was given up (reported through onError; never thrown to the supervisor). */
export class PushDeliveryError extends Error {
  override readonly name = 'PushDeliveryError';
  readonly code = 'PUSH_FAILED';
}

export interface PushSettings {
  vapid: VapidKeys;
  /** The VAPID `sub` claim: a mailto: or https: contact for the push service's operator. */
  subject: string;
  limits: DeliveryLimits;
  onError: (error: unknown) => void;
  /** The push service answered 404/410: the subscription no longer exists. */
  onGone: (subscriptionId: string) => void;
}

interface Item {
  payload: PushPayload;
  ttlSeconds: number;
}

export class PushEndpoint {
  readonly #queue: SerialQueue<Item>;

  constructor(
    readonly subscription: StoredSubscription,
    readonly settings: PushSettings,
  ) {
    this.#queue = new SerialQueue({
      maxQueue: () => this.settings.limits.maxQueue,
      deliver: (item) => this.#deliver(item),
      onDropped: ({ payload }, maxQueue) =>
        this.settings.onError(
          new PushDeliveryError(
            `push to ${redact(this.subscription.endpoint)}: queue full (${maxQueue}); dropped ${payload.type} for approval ${payload.approvalId}`,
          ),
        ),
    });
  }

  /** Queues a push; returns at once. */
  enqueue(payload: PushPayload, ttlSeconds: number): void {
    this.#queue.push({ payload, ttlSeconds });
  }

  /** Stops: the POST in flight is aborted, waiting pushes are dropped. */
  close(): void {
    this.#queue.close();
  }

  async #deliver({ payload, ttlSeconds }: Item): Promise<void> {
    const { limits, vapid, subject } = this.settings;
    const { endpoint, keys } = this.subscription;
    let request: webpush.RequestDetails;
    try {
      request = webpush.generateRequestDetails({ endpoint, keys }, JSON.stringify(payload), {
        vapidDetails: { subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
        contentEncoding: 'aes128gcm',
        TTL: ttlSeconds,
        urgency: payload.type === 'approval.requested' ? 'high' : 'normal',
        // Same topic for an approval's pushes: a push service still holding the prompt for an offline
        // device replaces it with the "answered elsewhere" (RFC 8030 §5.4).
        topic: createHash('sha256').update(payload.approvalId).digest('base64url').slice(0, 32),
      });
    } catch (error) {
      this.settings.onError(error);
      return;
    }
    let last = '';
    for (let attempt = 1; attempt <= limits.attempts; attempt++) {
      if (this.#queue.signal.aborted) return;
      if (attempt > 1 && !(await sleep(retryDelay(attempt, limits), this.#queue.signal))) return;
      try {
        const response = await fetch(request.endpoint, {
          method: 'POST',
          headers: request.headers as Record<string, string>,
          body: request.body,
          redirect: 'manual',
          signal: AbortSignal.any([this.#queue.signal, AbortSignal.timeout(limits.timeoutMs)]),
        });
        await response.body?.cancel();
        if (response.status >= 200 && response.status < 300) return;
        if (response.status === 404 || response.status === 410) {
          this.settings.onGone(this.subscription.id);
          return;
        }
        last = `answered ${response.status}`;
        if (response.status < 500 && response.status !== 408 && response.status !== 429) break;
      } catch (error) {
        if (this.#queue.signal.aborted) return;
        last = failureOf(error, limits.timeoutMs);
      }
    }
    this.settings.onError(
      new PushDeliveryError(
        `push to ${redact(this.subscription.endpoint)}: gave up on ${payload.type} for approval ${payload.approvalId}: ${last}`,
      ),
    );
  }
}
