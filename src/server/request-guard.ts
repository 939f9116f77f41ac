// Who may talk to the server. Three checks, shared by the HTTP routes and the WebSocket upgrade:
// - Host: the request names this server (a loopback name, or the host it was bound to), so a DNS-rebound
//   page cannot reach the API under a name of its own;
// - Origin: a browser request that changes state, and every WebSocket upgrade, comes from a page of this
//   server (same host:port) — cookies ride along on cross-site requests, so the cookie alone proves
//   nothing about who sent it;
// - credentials: `Authorization: Bearer <token>` (API clients), or the session cookie a browser gets from
//   the login page (sessions.ts). The token itself is never accepted from a cookie. Besides the server token
//   (the owner's), a named decider's token (deciders.ts) is a Bearer credential until it is revoked.
import { isIP } from 'node:net';
import { hostname as osHostname } from 'node:os';

import { ApiError } from './http-error.js';
import { OWNER, type DeciderRole, type DeciderTokens } from './deciders.js';
import type { Session, SessionRegistry } from './sessions.js';
import { tokenMatches } from './token.js';

/** Reads one request header (lower-case name); both Hono and node:http requests can provide it. */
export type HeaderReader = (name: string) => string | undefined;

/** Who a request is: a Bearer token (the owner's or a named decider's), or a browser session of one. */
export type Caller = (
  { via: 'token'; decider: string } | { via: 'session'; session: Session; decider: string }
) & {
  /** A named decider's role (roles.ts); undefined for the owner. */
  role?: DeciderRole | undefined;
};

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1']);
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '']);
/** Cookies of the session's name looked at per request; a browser sends one per Path it was set for. */
const MAX_SAME_NAME_COOKIES = 8;

export class RequestGuard {
  readonly #token: string;
  readonly #bindHost: string;
  readonly #sessions: SessionRegistry;
  readonly #deciders: DeciderTokens | undefined;
  #port = 0;

  constructor(token: string, bindHost: string, sessions: SessionRegistry, deciders?: DeciderTokens) {
    this.#token = token;
    this.#bindHost = bindHost.toLowerCase();
    this.#sessions = sessions;
    this.#deciders = deciders;
  }

  /** Whether `decider` may act now (the owner always; a named decider until revoked). */
  isActive(decider: string): boolean {
    return decider === OWNER || (this.#deciders?.isActive(decider) ?? false);
  }

  /** Set once the server listens (the port may have been chosen by the OS). */
  set port(port: number) {
    this.#port = port;
  }

  /** Cookies are not scoped by port: two servers on one machine must not overwrite each other's. */
  get cookieName(): string {
    return `warden_session_${this.#port}`;
  }

  /** Throws 403 unless the Host header names this server. */
  checkHost(header: HeaderReader): string {
    const host = header('host');
    const parsed = host === undefined ? undefined : parseHost(host);
    if (
      host === undefined ||
      parsed === undefined ||
      parsed.port !== this.#port ||
      !this.#allows(parsed.name)
    )
      throw new ApiError(403, 'FORBIDDEN', `Host ${JSON.stringify(host ?? '')} is not this server`);
    return host.toLowerCase();
  }

  /**
   * Throws 403 when a browser says the request comes from another site. A missing Origin is a
   * non-browser client (curl, a script) unless Sec-Fetch-Site says otherwise; the token still applies.
   */
  checkOrigin(header: HeaderReader, required: boolean): void {
    const host = this.checkHost(header);
    const origin = header('origin');
    if (origin === undefined) {
      const site = header('sec-fetch-site');
      if (required && site !== undefined && site !== 'same-origin' && site !== 'none')
        throw new ApiError(403, 'FORBIDDEN', `Cross-site request refused (Sec-Fetch-Site: ${site})`);
      return;
    }
    if (origin.toLowerCase() !== `http://${host}`)
      throw new ApiError(403, 'FORBIDDEN', `Origin ${origin} may not use this server`);
  }

  /** Throws 401 unless the Bearer header carries the token or the cookie names a live session. */
  checkToken(header: HeaderReader): Caller {
    const auth = header('authorization');
    const bearer = auth?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
    if (tokenMatches(this.#token, bearer)) return { via: 'token', decider: OWNER };
    const named = this.#deciders?.authenticate(bearer);
    if (named !== undefined) return { via: 'token', decider: named, role: this.#deciders?.roleOf(named) };
    const session = this.sessionOf(header);
    if (session !== undefined)
      return {
        via: 'session',
        session,
        decider: session.decider,
        role: session.decider === OWNER ? undefined : this.#deciders?.roleOf(session.decider),
      };
    throw new ApiError(
      401,
      'UNAUTHORIZED',
      auth !== undefined
        ? 'Invalid token'
        : header('cookie')?.includes(`${this.cookieName}=`) === true
          ? 'The session has ended (logged out, expired, or the server restarted): open a new login link'
          : 'Missing credentials: send Authorization: Bearer <token>, or open a login link',
    );
  }

  /**
   * The live session the request's cookie names, if any. Every cookie of that name counts: another server
   * on the same host can plant one (cookies are not kept per port) with a longer Path, which the browser
   * sends first, and it must not shadow the user's live session.
   */
  sessionOf(header: HeaderReader): Session | undefined {
    for (const secret of readCookies(header('cookie'), this.cookieName).slice(0, MAX_SAME_NAME_COOKIES)) {
      const session = this.#sessions.lookup(secret);
      // A revoked decider's sessions were ended; this holds even if one slipped through.
      if (session !== undefined && this.isActive(session.decider)) return session;
    }
    return undefined;
  }

  #allows(name: string): boolean {
    if (name === this.#bindHost) return true;
    const loopbackBind = LOOPBACK_NAMES.has(this.#bindHost);
    if (loopbackBind) return LOOPBACK_NAMES.has(name);
    if (WILDCARD_HOSTS.has(this.#bindHost))
      return isIP(name) !== 0 || name === 'localhost' || name === osHostname().toLowerCase();
    return false;
  }
}

/** `example:8080`, `[::1]:8080` → name and port (80 when absent, as the browser means it). */
function parseHost(host: string): { name: string; port: number } | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(host.trim());
  if (match === null) return undefined;
  const name = (match[1] ?? '').toLowerCase().replace(/^\[|\]$/g, '');
  return { name, port: match[2] === undefined ? 80 : Number(match[2]) };
}

/** Every value the Cookie header gives `name`, in the order sent. */
export function readCookies(header: string | undefined, name: string): string[] {
  if (header === undefined) return [];
  const values: string[] = [];
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) values.push(part.slice(eq + 1).trim());
  }
  return values;
}
