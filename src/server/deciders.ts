// Named deciders: people or devices with a token of their own, so that every decision says who made it
// and one device can be shut out without the others. The server token stays the owner's (`owner`); each
// named token is 32 random bytes, shown once when it is made. Only its SHA-256 is kept, in
// `<dataDir>/deciders.json` (0600, replaced whole), with when it was made, last used and revoked — a copy
// of the file lets nobody in. Revoking is at once: listeners end the decider's browser sessions and close
// its WebSockets. The file is re-read when another process changed it (`warden token` with no server up).
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { ConflictError, NotFoundError, StoreError, ValidationError } from '../protocol/errors.js';
import { validateScope, type ApprovalScope } from '../supervisor/index.js';

export const DECIDERS_FILE = 'deciders.json';
/** The holder of the server token. */
export const OWNER = 'owner';
/** Lower-case letters, digits, `-` and `_`; it goes into login links and audit records as it is. */
export const DECIDER_NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;
/** A named token: recognisable in a leaked paste, never mistaken for the server token. */
const TOKEN_PREFIX = 'wdn_';
/** Last use is written at most this often (it is for people, not for the clock). */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * What a named decider may do. `approver` (the default for a new token): answer approvals and read what
 * it answers, nothing that starts or steers an agent (server/roles.ts). `operator`: everything but
 * managing tokens, as the owner — starting a thread or changing a mode runs code as surely as allowing a
 * command does. `hook`: report-only, for `warden hook run` in the settings of Claude Code sessions Warden
 * did not start: it reports their hook events and waits for the answers to the approvals it raised; it
 * reads nothing, decides nothing and starts nothing (server/roles.ts). `observer`: sees everything an
 * operator sees, decides nothing and changes nothing (an auditor, a lead looking on).
 *
 * An approver's or operator's `scope` (approvals/scope.ts) says which approvals it answers: the others are
 * not offered to it (a 403, no notification) unless a route escalates them to it (answerers.ts).
 */
export const DECIDER_ROLES = ['approver', 'operator', 'observer', 'hook'] as const;
export type DeciderRole = (typeof DECIDER_ROLES)[number];
/** Entries written before roles existed could do everything an operator can: they keep it. */
const ROLE_OF_OLDER_ENTRIES: DeciderRole = 'operator';

/** The roles that answer approvals. */
export const DECIDING_ROLES: readonly DeciderRole[] = ['approver', 'operator'];

export interface DeciderInfo {
  name: string;
  role: DeciderRole;
  /** The approvals it answers; `{}`: all of them. */
  scope: ApprovalScope;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

interface StoredDecider extends DeciderInfo {
  /** SHA-256 (hex) of the token. */
  tokenSha256: string;
}

export type RevokeListener = (name: string) => void;

export function validateDeciderName(name: unknown): string {
  if (typeof name !== 'string' || !DECIDER_NAME.test(name))
    throw new ValidationError(
      'a decider name is 1-32 lower-case letters, digits, - or _, starting with a letter or digit',
      'name',
    );
  if (name === OWNER) throw new ValidationError(`"${OWNER}" is the server token's holder`, 'name');
  return name;
}

export class DeciderTokens {
  readonly #path: string;
  readonly #listeners = new Set<RevokeListener>();
  #deciders = new Map<string, StoredDecider>();
  /** Token hash → name, for live (unrevoked) deciders only. */
  #byHash = new Map<string, string>();
  #loadedStamp = '';

  constructor(dataDir: string) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    this.#path = join(dataDir, DECIDERS_FILE);
    this.#reloadIfChanged();
  }

  get path(): string {
    return this.#path;
  }

  list(): DeciderInfo[] {
    this.#reloadIfChanged();
    return [...this.#deciders.values()].map(publicInfo);
  }

  /**
   * A new decider (or a new token for a revoked one); the token is returned here and never again. Its
   * role is `approver` unless `role` says otherwise; its scope everything unless `scope` narrows it.
   */
  create(
    name: unknown,
    { role = 'approver', scope, now = new Date() }: { role?: unknown; scope?: unknown; now?: Date } = {},
  ): { token: string; decider: DeciderInfo } {
    const valid = validateDeciderName(name);
    if (!(DECIDER_ROLES as readonly unknown[]).includes(role))
      throw new ValidationError(`role must be one of ${DECIDER_ROLES.join(', ')}`, 'role');
    const checkedScope = validateScope(scope);
    if (Object.keys(checkedScope).length > 0 && !DECIDING_ROLES.includes(role as DeciderRole))
      throw new ValidationError(
        `a scope says what a decider answers; role ${String(role)} answers nothing`,
        'scope',
      );
    this.#reloadIfChanged();
    const existing = this.#deciders.get(valid);
    if (existing !== undefined && existing.revokedAt === null)
      throw new ConflictError(`A decider named ${valid} exists; revoke it first to give it a new token`);
    const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const decider: StoredDecider = {
      name: valid,
      role: role as DeciderRole,
      scope: checkedScope,
      createdAt: now.toISOString(),
      lastUsedAt: null,
      revokedAt: null,
      tokenSha256: sha256(token),
    };
    this.#deciders.set(valid, decider);
    this.#save();
    return { token, decider: publicInfo(decider) };
  }

  /** Revokes the decider's token; its sessions and sockets end through the listeners. */
  revoke(name: string, now = new Date()): DeciderInfo {
    this.#reloadIfChanged();
    const decider = this.#deciders.get(name);
    if (decider === undefined)
      throw new NotFoundError('decider', name, `No decider named ${JSON.stringify(name)}`);
    if (decider.revokedAt === null) {
      decider.revokedAt = now.toISOString();
      this.#save();
    }
    this.#announce(name);
    return publicInfo(decider);
  }

  /** The name of the live decider whose token `candidate` is, or undefined. */
  authenticate(candidate: string | undefined): string | undefined {
    if (candidate === undefined || !candidate.startsWith(TOKEN_PREFIX) || candidate.length > 200)
      return undefined;
    this.#reloadIfChanged();
    // A map keyed by the hash: what the lookup's timing could tell is about the hash, not the token.
    const name = this.#byHash.get(sha256(candidate));
    if (name !== undefined) this.#touch(name);
    return name;
  }

  /** The role of a live decider; undefined for the owner (who may do everything) and unknown names. */
  roleOf(name: string): DeciderRole | undefined {
    if (name === OWNER) return undefined;
    this.#reloadIfChanged();
    const decider = this.#deciders.get(name);
    return decider === undefined || decider.revokedAt !== null ? undefined : decider.role;
  }

  /** The live deciders that answer approvals, with their scopes. */
  deciding(): { name: string; scope: ApprovalScope }[] {
    this.#reloadIfChanged();
    return [...this.#deciders.values()]
      .filter((d) => d.revokedAt === null && DECIDING_ROLES.includes(d.role))
      .map(({ name, scope }) => ({ name, scope }));
  }

  /** Whether `name` may act now: the owner always, a named decider until revoked. */
  isActive(name: string): boolean {
    if (name === OWNER) return true;
    this.#reloadIfChanged();
    const decider = this.#deciders.get(name);
    return decider !== undefined && decider.revokedAt === null;
  }

  onRevoke(listener: RevokeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #announce(name: string): void {
    for (const listener of this.#listeners) listener(name);
  }

  #touch(name: string): void {
    const decider = this.#deciders.get(name);
    if (decider === undefined) return;
    const now = Date.now();
    if (decider.lastUsedAt !== null && now - Date.parse(decider.lastUsedAt) < LAST_USED_RESOLUTION_MS) return;
    decider.lastUsedAt = new Date(now).toISOString();
    this.#save();
  }

  #reloadIfChanged(): void {
    let stamp: string;
    try {
      const stats = statSync(this.#path);
      stamp = `${stats.mtimeMs}:${stats.size}:${stats.ino}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      stamp = 'missing';
    }
    if (stamp === this.#loadedStamp) return;
    const before = new Set([...this.#byHash.values()]);
    this.#deciders = stamp === 'missing' ? new Map<string, StoredDecider>() : parseFile(this.#path);
    this.#index();
    this.#loadedStamp = stamp;
    // Revoked by another process: end what this one holds for them.
    const live = new Set(this.#byHash.values());
    for (const name of before) if (!live.has(name)) this.#announce(name);
  }

  #index(): void {
    this.#byHash = new Map<string, string>(
      [...this.#deciders.values()].filter((d) => d.revokedAt === null).map((d) => [d.tokenSha256, d.name]),
    );
  }

  #save(): void {
    this.#index();
    const body = { version: 1, deciders: [...this.#deciders.values()] };
    const temporary = `${this.#path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, this.#path);
    const stats = statSync(this.#path);
    this.#loadedStamp = `${stats.mtimeMs}:${stats.size}:${stats.ino}`;
  }
}

function parseFile(path: string): Map<string, StoredDecider> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new StoreError(`${path} is not a deciders file Warden wrote`, { cause: error });
  }
  const list = (parsed as { deciders?: unknown } | null)?.deciders;
  if (!Array.isArray(list)) throw new StoreError(`${path} holds no list of deciders`);
  const deciders = new Map<string, StoredDecider>();
  for (const item of list as Partial<StoredDecider>[]) {
    if (
      typeof item?.name !== 'string' ||
      !DECIDER_NAME.test(item.name) ||
      typeof item.tokenSha256 !== 'string' ||
      !/^[0-9a-f]{64}$/.test(item.tokenSha256) ||
      typeof item.createdAt !== 'string'
    )
      throw new StoreError(`${path} holds a malformed decider entry`);
    if (item.role !== undefined && !(DECIDER_ROLES as readonly unknown[]).includes(item.role))
      throw new StoreError(`${path} holds a decider with an unknown role`);
    let scope: ApprovalScope;
    try {
      scope = validateScope(item.scope);
    } catch (error) {
      throw new StoreError(`${path} holds a decider with a malformed scope`, { cause: error });
    }
    deciders.set(item.name, {
      name: item.name,
      role: item.role ?? ROLE_OF_OLDER_ENTRIES,
      // Entries written before scopes existed answer everything, as they did.
      scope,
      tokenSha256: item.tokenSha256,
      createdAt: item.createdAt,
      lastUsedAt: typeof item.lastUsedAt === 'string' ? item.lastUsedAt : null,
      revokedAt: typeof item.revokedAt === 'string' ? item.revokedAt : null,
    });
  }
  return deciders;
}

function publicInfo({ name, role, scope, createdAt, lastUsedAt, revokedAt }: StoredDecider): DeciderInfo {
  return { name, role, scope, createdAt, lastUsedAt, revokedAt };
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
