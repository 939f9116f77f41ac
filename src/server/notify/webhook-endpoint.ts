// One webhook URL: its own bounded queue and one delivery at a time (so a receiver sees an approval before
// its "resolved"), each POST cut off after `timeoutMs`, failures retried with exponential backoff and jitter
// up to `attempts` tries. A dead or hanging URL only ever delays its own queue: the channel hands it
// notices without waiting, and past `maxQueue` the oldest waiting notice is dropped (and reported).
import { randomUUID } from 'node:crypto';

import { failureOf, retryDelay, sleep } from './backoff.js';
import { render, type WebhookFormat } from './formats.js';
import type { Notice } from './notice.js';
import { SerialQueue } from './serial-queue.js';
import { SIGNATURE_HEADER, signBody } from './signature.js';

export interface DeliveryLimits {
  /** Tries per notice, the first included. */
  attempts: number;
  /** The first retry waits up to this long; each next one twice as long, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** One POST, connection to response, at most this long. */
  timeoutMs: number;
  /** Notices waiting for this URL, at most. */
  maxQueue: number;
}

export const DEFAULT_DELIVERY_LIMITS: DeliveryLimits = {
  attempts: 5,
  baseDelayMs: 1000,
  maxDelayMs: 60_000,
  timeoutMs: 10_000,
  maxQueue: 100,
};

/** Why a delivery was given up (reported through onError; never thrown to the supervisor). */
export class WebhookDeliveryError extends Error {
  override readonly name = 'WebhookDeliveryError';
  readonly code = 'WEBHOOK_FAILED';
}

export class WebhookEndpoint {
  readonly #queue: SerialQueue<{ notice: Notice; delivery: string }>;

  constructor(
    readonly url: string,
    readonly format: WebhookFormat,
    readonly limits: DeliveryLimits,
    readonly secret: string,
    readonly onError: (error: unknown) => void,
  ) {
    this.#queue = new SerialQueue({
      maxQueue: () => this.limits.maxQueue,
      deliver: (item) => this.#deliver(item.notice, item.delivery),
      onDropped: ({ notice }, maxQueue) =>
        this.onError(
          new WebhookDeliveryError(
            `webhook ${redact(this.url)}: queue full (${maxQueue}); dropped ${notice.type} for approval ${notice.approval.id}`,
          ),
        ),
    });
  }

  /** Queues a notice; returns at once. */
  enqueue(notice: Notice): void {
    this.#queue.push({ notice, delivery: randomUUID() });
  }

  /** Stops: the POST in flight is aborted, waiting notices are dropped. */
  close(): void {
    this.#queue.close();
  }

  async #deliver(notice: Notice, delivery: string): Promise<void> {
    const rendered = render(this.format, notice);
    let last = '';
    for (let attempt = 1; attempt <= this.limits.attempts; attempt++) {
      if (this.#queue.signal.aborted) return;
      if (attempt > 1 && !(await sleep(retryDelay(attempt, this.limits), this.#queue.signal))) return;
      try {
        const response = await fetch(this.url, {
          method: 'POST',
          body: rendered.body,
          redirect: 'manual',
          headers: {
            ...rendered.headers,
            'user-agent': 'warden-webhook',
            'x-warden-event': notice.type,
            'x-warden-delivery': delivery,
            'x-warden-attempt': String(attempt),
            [SIGNATURE_HEADER]: signBody(this.secret, rendered.body),
          },
          signal: AbortSignal.any([this.#queue.signal, AbortSignal.timeout(this.limits.timeoutMs)]),
        });
        await response.body?.cancel();
        if (response.status >= 200 && response.status < 300) return;
        last = `answered ${response.status}`;
        // A refusal that will not change on its own (bad URL, auth, gone) is not retried.
        if (response.status < 500 && response.status !== 408 && response.status !== 429) break;
      } catch (error) {
        if (this.#queue.signal.aborted) return;
        last = failureOf(error, this.limits.timeoutMs);
      }
    }
    this.onError(
      new WebhookDeliveryError(
        `webhook ${redact(this.url)}: gave up on ${notice.type} for approval ${notice.approval.id}: ${last}`,
      ),
    );
  }
}

/** A webhook URL may carry a secret of the receiver's (a path token, user:pass): logs show the origin only. */
export function redact(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '<invalid url>';
  }
}
