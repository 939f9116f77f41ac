// Browser sessions: what the login cookie carries instead of the API token. A session is 32 random bytes
// handed to the browser once; the server keeps only its SHA-256, in memory, so every session ends when the
// process does. Sessions last a fixed time from login (no sliding renewal), can be ended one by one
// (logout) or all at once, and their number is capped. The registry also redeems login tickets: each
// once, within its lifetime, and only tickets minted after the registry was created — a link printed
// before a restart opens nothing after it. Each session is of a decider (deciders.ts): the owner, or the
// named decider its ticket named; revoking a decider ends its sessions at once.
import { createHash, randomBytes } from 'node:crypto';

import { OWNER } from './deciders.js';
import { verifyLoginTicket } from './login-ticket.js';

export interface SessionOptions {
  /** How long a session lasts from login. Default 12 hours. */
  lifetimeMs?: number;
  /** How long a login ticket may be redeemed after it was minted. Default 15 minutes. */
  ticketTtlMs?: number;
  /** Past this many live sessions, the oldest ends. Default 64. */
  maxSessions?: number;
  /** The clock (tests move it). Default Date.now. */
  now?: () => number;
}

export const DEFAULT_SESSION_LIFETIME_MS = 12 * 3600_000;
export const DEFAULT_TICKET_TTL_MS = 15 * 60_000;
const DEFAULT_MAX_SESSIONS = 64;
/** A ticket minted a little "in the future" (clocks of two processes) is still fine. */
const CLOCK_SKEW_MS = 5_000;

export interface Session {
  /** The SHA-256 of the secret: what the server keys the session by. */
  readonly key: string;
  readonly expiresAt: number;
  /** Whose session it is: `owner`, or a named decider. */
  readonly decider: string;
}

export type SessionEndListener = (key: string) => void;

export class SessionRegistry {
  readonly #lifetimeMs: number;
  readonly #ticketTtlMs: number;
  readonly #maxSessions: number;
  readonly #now: () => number;
  /** Tickets minted before this are refused. */
  readonly #notBefore: number;
  /** key → expiry and decider; a Map keeps login order, so the first entry is the oldest. */
  readonly #sessions = new Map<string, { expiresAt: number; decider: string }>();
  /** Redeemed ticket nonces, until their ticket would have expired anyway. */
  readonly #usedNonces = new Map<string, number>();
  readonly #listeners = new Set<SessionEndListener>();

  constructor(options: SessionOptions = {}) {
    this.#lifetimeMs = positive(options.lifetimeMs, DEFAULT_SESSION_LIFETIME_MS, 'lifetimeMs');
    this.#ticketTtlMs = positive(options.ticketTtlMs, DEFAULT_TICKET_TTL_MS, 'ticketTtlMs');
    this.#maxSessions = positive(options.maxSessions, DEFAULT_MAX_SESSIONS, 'maxSessions');
    if (options.now !== undefined && typeof options.now !== 'function')
      throw new TypeError('sessions.now must be a function');
    this.#now = options.now ?? Date.now;
    this.#notBefore = this.#now();
  }

  get lifetimeMs(): number {
    return this.#lifetimeMs;
  }

  /** Live sessions now. */
  get size(): number {
    this.#prune();
    return this.#sessions.size;
  }

  /**
   * Trades a login ticket (checked against `token`) for a new session: returns the session's secret for
   * the cookie, or undefined when the ticket is forged, expired, from before this registry, or used, or
   * names a decider `isActive` says may not log in (unknown or revoked).
   */
  redeem(
    token: string,
    ticket: unknown,
    isActive: (decider: string) => boolean = (decider) => decider === OWNER,
  ): { secret: string; session: Session } | undefined {
    const parsed = verifyLoginTicket(token, ticket);
    if (parsed === undefined) return undefined;
    const decider = parsed.decider ?? OWNER;
    if (!isActive(decider)) return undefined;
    const now = this.#now();
    this.#prune();
    const expires = parsed.issuedAt + this.#ticketTtlMs;
    if (parsed.issuedAt < this.#notBefore || parsed.issuedAt > now + CLOCK_SKEW_MS || expires <= now)
      return undefined;
    if (this.#usedNonces.has(parsed.nonce)) return undefined;
    this.#usedNonces.set(parsed.nonce, expires);

    while (this.#sessions.size >= this.#maxSessions) {
      const oldest = this.#sessions.keys().next().value;
      if (oldest === undefined) break;
      this.#end(oldest);
    }
    const secret = randomBytes(32).toString('base64url');
    const session = { key: hash(secret), expiresAt: now + this.#lifetimeMs, decider };
    this.#sessions.set(session.key, { expiresAt: session.expiresAt, decider });
    return { secret, session };
  }

  /** The live session a cookie value names, or undefined (unknown, ended, expired). */
  lookup(secret: string | undefined): Session | undefined {
    if (secret === undefined || secret === '' || secret.length > 200) return undefined;
    const key = hash(secret);
    const entry = this.#sessions.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.#now()) {
      this.#end(key);
      return undefined;
    }
    return { key, ...entry };
  }

  /** Ends every session of `decider` (its token was revoked); returns how many there were. */
  revokeDecider(decider: string): number {
    const keys = [...this.#sessions].filter(([, entry]) => entry.decider === decider).map(([key]) => key);
    for (const key of keys) this.#end(key);
    return keys.length;
  }

  /** Ends one session (logout); true if it was live. */
  revoke(key: string): boolean {
    if (!this.#sessions.has(key)) return false;
    this.#end(key);
    return true;
  }

  /** Ends every session; returns how many there were. */
  revokeAll(): number {
    const keys = [...this.#sessions.keys()];
    for (const key of keys) this.#end(key);
    return keys.length;
  }

  /** Called with the key of every session that is revoked or found expired (to close its sockets). */
  onEnd(listener: SessionEndListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #end(key: string): void {
    this.#sessions.delete(key);
    for (const listener of this.#listeners) listener(key);
  }

  #prune(): void {
    const now = this.#now();
    for (const [key, { expiresAt }] of this.#sessions) if (expiresAt <= now) this.#end(key);
    for (const [nonce, expiresAt] of this.#usedNonces) if (expiresAt <= now) this.#usedNonces.delete(nonce);
  }
}

function hash(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new TypeError(`sessions.${name} must be a positive number`);
  return value;
}
