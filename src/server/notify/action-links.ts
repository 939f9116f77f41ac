// Single-use action tokens for the links a notification carries (`POST /hooks/approvals/:id/:action?token=`).
// A token is 32 random bytes bound to one approval and one action, short-lived, and good for one use; the
// server keeps only its SHA-256, in memory (a restart voids every link). Whoever holds a link can take that
// one decision and nothing else: the link is a capability, so it bypasses the API's token and sessions.
import { createHash, randomBytes } from 'node:crypto';

export const LINK_ACTIONS = ['allow', 'deny'] as const;
export type LinkAction = (typeof LINK_ACTIONS)[number];

export const DEFAULT_LINK_TTL_MS = 60 * 60 * 1000;

interface Entry {
  approvalId: string;
  action: LinkAction;
  expiresAt: number;
  spent: boolean;
}

/** What redeeming a token found. Only `ok` may lead to a decision. */
export type Redeemed = 'ok' | 'unknown' | 'expired' | 'spent';

export class ActionLinks {
  readonly #entries = new Map<string, Entry>();
  readonly #ttlMs: number;
  readonly #now: () => number;

  constructor(options: { ttlMs?: number; now?: () => number } = {}) {
    this.#ttlMs = options.ttlMs ?? DEFAULT_LINK_TTL_MS;
    this.#now = options.now ?? Date.now;
  }

  /** A new token for this approval and action. */
  mint(approvalId: string, action: LinkAction): string {
    this.#prune();
    const token = randomBytes(32).toString('base64url');
    this.#entries.set(hash(token), {
      approvalId,
      action,
      expiresAt: this.#now() + this.#ttlMs,
      spent: false,
    });
    return token;
  }

  /**
   * Checks the token against the approval and action the link names and, when it is good, spends it
   * together with every other token of that approval: one decision per approval through links.
   */
  redeem(approvalId: string, action: string, token: string | undefined): Redeemed {
    if (token === undefined || token === '') return 'unknown';
    const entry = this.#entries.get(hash(token));
    if (entry === undefined || entry.approvalId !== approvalId || entry.action !== action) return 'unknown';
    if (entry.spent) return 'spent';
    if (entry.expiresAt <= this.#now()) return 'expired';
    this.settle(approvalId);
    return 'ok';
  }

  /** The approval was settled (anywhere): its links are spent (a later use is a 409, not a 401). */
  settle(approvalId: string): void {
    for (const entry of this.#entries.values()) if (entry.approvalId === approvalId) entry.spent = true;
  }

  get size(): number {
    return this.#entries.size;
  }

  #prune(): void {
    const now = this.#now();
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(key);
  }
}

function hash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
