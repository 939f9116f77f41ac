// The devices that asked for Web Push: each browser's push subscription (the push service URL it was given,
// and the keys its pushes are encrypted to) with what it chose to be shown. Kept in
// `<dataDir>/push-subscriptions.json` (mode 0600, replaced whole by a rename, so a crash leaves the old or the
// new list), since a subscription outlives the server. A subscription is checked at the boundary: an
// https push service (http only to 127.0.0.1, and only when the server was told so, for tests), and keys
// that are a real P-256 point and a 16-byte secret.
import { createHash, ECDH } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { StoreError } from '../../protocol/errors.js';
import { ApiError } from '../http-error.js';
import { isLocalHost } from './local-address.js';

export const PUSH_SUBSCRIPTIONS_FILE = 'push-subscriptions.json';
/** More devices than this is not a person's set of devices. */
export const MAX_PUSH_SUBSCRIPTIONS = 50;
const MAX_ENDPOINT_CHARS = 2048;

/**
 * What a notification shows, chosen per device: `preview` the tool and a short preview of its input (and
 * Approve / Deny buttons), `tool` the tool's name only, `none` only that an approval waits. Only `preview`
 * offers Approve: a decision is given only to what the person saw.
 */
export const PUSH_SHOW = ['preview', 'tool', 'none'] as const;
export type PushShow = (typeof PUSH_SHOW)[number];

export interface StoredSubscription {
  /** base64url SHA-256 of the endpoint, cut: how the API names a subscription. */
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  show: PushShow;
  createdAt: string;
  /** The named decider who subscribed it; absent: the owner (and subscriptions made before deciders were). */
  decider?: string;
}

export class PushSubscriptions {
  readonly path: string;
  readonly #allowLocal: boolean;
  #list: StoredSubscription[];

  constructor(dataDir: string, options: { allowLocalEndpoints?: boolean } = {}) {
    this.path = join(dataDir, PUSH_SUBSCRIPTIONS_FILE);
    this.#allowLocal = options.allowLocalEndpoints === true;
    this.#list = load(this.path);
  }

  list(): readonly StoredSubscription[] {
    return this.#list;
  }

  get(id: string): StoredSubscription | undefined {
    return this.#list.find((s) => s.id === id);
  }

  /** Adds (or updates, by endpoint) a subscription given by a browser; an ApiError (400) when it is bad. */
  add(input: {
    endpoint: string;
    keys: { p256dh: string; auth: string };
    show?: PushShow;
    decider?: string;
  }): StoredSubscription {
    checkEndpoint(input.endpoint, this.#allowLocal);
    checkKeys(input.keys);
    const id = subscriptionId(input.endpoint);
    const existing = this.get(id);
    if (existing === undefined && this.#list.length >= MAX_PUSH_SUBSCRIPTIONS)
      throw new ApiError(400, 'VALIDATION', `At most ${MAX_PUSH_SUBSCRIPTIONS} devices can subscribe`);
    const stored: StoredSubscription = {
      id,
      endpoint: input.endpoint,
      keys: { p256dh: input.keys.p256dh, auth: input.keys.auth },
      show: input.show ?? 'preview',
      createdAt: existing?.createdAt ?? new Date().toISOString(),
      ...(input.decider === undefined ? {} : { decider: input.decider }),
    };
    this.#save([...this.#list.filter((s) => s.id !== id), stored]);
    return stored;
  }

  /** Removes a subscription (the user unsubscribed, or the push service said it is gone). */
  remove(id: string): boolean {
    if (this.get(id) === undefined) return false;
    this.#save(this.#list.filter((s) => s.id !== id));
    return true;
  }

  #save(list: StoredSubscription[]): void {
    const tmp = `${this.path}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ subscriptions: list }, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, this.path);
    this.#list = list;
  }
}

export function subscriptionId(endpoint: string): string {
  return createHash('sha256').update(endpoint).digest('base64url').slice(0, 22);
}

function checkEndpoint(endpoint: string, allowLocal: boolean): void {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw invalid('endpoint must be a URL');
  }
  if (endpoint.length > MAX_ENDPOINT_CHARS)
    throw invalid(`endpoint is over ${MAX_ENDPOINT_CHARS} characters`);
  if (url.username !== '' || url.password !== '') throw invalid('endpoint must not carry credentials');
  if (url.protocol === 'http:' && allowLocal && url.hostname === '127.0.0.1') return;
  if (url.protocol !== 'https:') throw invalid('endpoint must be an https URL of a push service');
  if (isLocalHost(url.hostname) && !allowLocal)
    throw invalid('endpoint must be a push service on the internet, not a local or private address');
}

function checkKeys(keys: { p256dh: string; auth: string }): void {
  const p256dh = Buffer.from(keys.p256dh, 'base64url');
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(keys.p256dh) || p256dh.length !== 65 || p256dh[0] !== 4)
    throw invalid('keys.p256dh must be an uncompressed P-256 public key (65 bytes, base64url)');
  try {
    // Throws when the bytes are not a point of the curve.
    ECDH.convertKey(p256dh, 'prime256v1');
  } catch {
    throw invalid('keys.p256dh is not a point of P-256');
  }
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(keys.auth) || Buffer.from(keys.auth, 'base64url').length !== 16)
    throw invalid('keys.auth must be 16 bytes, base64url');
}

function invalid(message: string): ApiError {
  return new ApiError(400, 'VALIDATION', `subscription.${message}`);
}

function load(path: string): StoredSubscription[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as { subscriptions?: unknown };
    if (!Array.isArray(parsed.subscriptions)) throw new Error('no list');
    return parsed.subscriptions as StoredSubscription[];
  } catch {
    throw new StoreError(`${path} is not a list of push subscriptions; delete it (devices subscribe again)`);
  }
}
