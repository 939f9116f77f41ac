// Login tickets: the secret a login link carries instead of the API token. A ticket is minted from the
// token (an HMAC over when it was made and a random nonce), so any process that can read the token file —
// `warden serve` at start, `warden login` later — can mint one without talking to the server, while the
// token itself never appears in a URL. The server accepts a ticket once, for a short time, and only if it
// was made after the server started (see sessions.ts). A ticket may name a decider (deciders.ts): it then
// opens a session of that decider, minted by the owner for them (`warden token create`, `warden login
// --as`), and only while the decider's token is not revoked.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const LABEL = 'warden-login-ticket-v1';
const TICKET_PATTERN =
  /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{22})\.(?:([a-z0-9][a-z0-9_-]{0,31})\.)?([A-Za-z0-9_-]{43})$/;

export interface ParsedTicket {
  /** When it was minted (ms since the epoch). */
  issuedAt: number;
  nonce: string;
  /** The decider the session will be of; undefined: the owner. */
  decider?: string;
}

/** A fresh ticket: `<issuedAt base36>.<nonce>[.<decider>].<mac>`, URL-safe as it is. */
export function mintLoginTicket(token: string, issuedAt: number = Date.now(), decider?: string): string {
  const issued = Math.floor(issuedAt).toString(36);
  const nonce = randomBytes(16).toString('base64url');
  const named = decider === undefined ? '' : `${decider}.`;
  return `${issued}.${nonce}.${named}${mac(token, issued, nonce, decider)}`;
}

/** The ticket's parts when its MAC is right for `token`; undefined for anything else. */
export function verifyLoginTicket(token: string, ticket: unknown): ParsedTicket | undefined {
  if (typeof ticket !== 'string') return undefined;
  const match = TICKET_PATTERN.exec(ticket);
  if (match === null) return undefined;
  const [, issued = '', nonce = '', decider, given = ''] = match;
  const expected = Buffer.from(mac(token, issued, nonce, decider));
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return undefined;
  return { issuedAt: parseInt(issued, 36), nonce, ...(decider === undefined ? {} : { decider }) };
}

function mac(token: string, issued: string, nonce: string, decider: string | undefined): string {
  const named = decider === undefined ? '' : `\0${decider}`;
  return createHmac('sha256', token).update(`${LABEL}\0${issued}\0${nonce}${named}`).digest('base64url');
}
