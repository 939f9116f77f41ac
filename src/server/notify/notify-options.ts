// `createServer({ notify })`: which channels are on (none by default) and their limits, checked at the
// boundary. Only http(s) webhook URLs are accepted; each receives approval previews. Web Push is on with
// `push` (devices then subscribe from the UI).
import { DECIDER_NAME } from '../deciders.js';
import { DEFAULT_LINK_TTL_MS } from './action-links.js';
import { WEBHOOK_FORMATS, type WebhookFormat } from './formats.js';
import type { WebhookTarget } from './webhook-channel.js';
import { DEFAULT_DELIVERY_LIMITS, type DeliveryLimits } from './webhook-endpoint.js';

export interface NotifyOptions {
  /**
   * POSTed to on every approval and its settling; `format` defaults to `json`. With `decider`, only the
   * approvals that named decider may answer (its scope, or a route's escalation to it).
   */
  webhooks?: { url: string; format?: WebhookFormat; decider?: string }[];
  /** How long an action link works (default 1 hour). */
  linkTtlMs?: number;
  /** Retries, timeout and queue bound per URL (defaults in DEFAULT_DELIVERY_LIMITS). */
  delivery?: Partial<DeliveryLimits>;
  /** Web Push to the devices that subscribe from the UI; `true` for the defaults. */
  push?: boolean | PushOptions;
}

export interface PushOptions {
  /** The VAPID contact push services see (`mailto:` or `https:`); default DEFAULT_PUSH_SUBJECT. */
  subject?: string;
  /** Accept `http://127.0.0.1` push services (a local stand-in, for tests); default false. */
  allowLocalEndpoints?: boolean;
}

export const DEFAULT_PUSH_SUBJECT = 'mailto:warden@localhost';

export interface ResolvedNotify {
  webhooks: WebhookTarget[];
  push: Required<PushOptions> | undefined;
  linkTtlMs: number;
  delivery: DeliveryLimits;
}

export function resolveNotifyOptions(notify: unknown): ResolvedNotify {
  if (notify === undefined)
    return {
      webhooks: [],
      push: undefined,
      linkTtlMs: DEFAULT_LINK_TTL_MS,
      delivery: DEFAULT_DELIVERY_LIMITS,
    };
  if (typeof notify !== 'object' || notify === null) throw new TypeError('options.notify must be an object');
  const { webhooks = [], linkTtlMs = DEFAULT_LINK_TTL_MS, delivery = {}, push } = notify as NotifyOptions;
  if (!Array.isArray(webhooks)) throw new TypeError('options.notify.webhooks must be an array');
  const targets = webhooks.map((hook: unknown, i): WebhookTarget => {
    const where = `options.notify.webhooks[${i}]`;
    if (typeof hook !== 'object' || hook === null) throw new TypeError(`${where} must be { url, format? }`);
    const { url, format = 'json', decider } = hook as { url?: unknown; format?: unknown; decider?: unknown };
    if (!isHttpUrl(url)) throw new TypeError(`${where}.url must be an http(s) URL`);
    if (!(WEBHOOK_FORMATS as readonly unknown[]).includes(format))
      throw new TypeError(`${where}.format must be one of ${WEBHOOK_FORMATS.join(', ')}`);
    if (decider !== undefined && (typeof decider !== 'string' || !DECIDER_NAME.test(decider)))
      throw new TypeError(`${where}.decider must be a decider's name`);
    return { url, format: format as WebhookFormat, ...(decider === undefined ? {} : { decider }) };
  });
  if (!Number.isInteger(linkTtlMs) || linkTtlMs < 1000)
    throw new TypeError('options.notify.linkTtlMs must be an integer of at least 1000');
  const limits = { ...DEFAULT_DELIVERY_LIMITS, ...delivery };
  for (const [key, value] of Object.entries(limits))
    if (!Number.isInteger(value) || value < (key === 'baseDelayMs' ? 0 : 1))
      throw new TypeError(`options.notify.delivery.${key} must be a positive integer`);
  return { webhooks: targets, push: resolvePush(push), linkTtlMs, delivery: limits };
}

function resolvePush(push: unknown): Required<PushOptions> | undefined {
  if (push === undefined || push === false) return undefined;
  if (push === true) return { subject: DEFAULT_PUSH_SUBJECT, allowLocalEndpoints: false };
  if (typeof push !== 'object' || push === null)
    throw new TypeError('options.notify.push must be true or { subject?, allowLocalEndpoints? }');
  const { subject = DEFAULT_PUSH_SUBJECT, allowLocalEndpoints = false } = push as PushOptions;
  if (typeof subject !== 'string' || !isPushSubject(subject))
    throw new TypeError('options.notify.push.subject must be a mailto: or https: URL');
  if (typeof allowLocalEndpoints !== 'boolean')
    throw new TypeError('options.notify.push.allowLocalEndpoints must be a boolean');
  return { subject, allowLocalEndpoints };
}

/** What push services accept as the VAPID contact. */
export function isPushSubject(subject: string): boolean {
  try {
    const { protocol } = new URL(subject);
    return protocol === 'mailto:' || protocol === 'https:';
  } catch {
    return false;
  }
}

export function isHttpUrl(url: unknown): url is string {
  if (typeof url !== 'string') return false;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:';
  } catch {
    return false;
  }
}
