// Login tickets: the secret a login link carries instead of the API token. A ticket is minted from the
// token (an HMAC over when it was made and a random nonce), so any process that can read the token file —
// `warden serve` at start, `warden login` later — can mint one without talking to the server, while the
// token itself never appears in a URL. The server accepts a ticket once, for a short time, and only if it
// was made after the server started (see sessions.ts).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const LABEL = 'warden-login-ticket-v1';
const TICKET_PATTERN = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

export interface ParsedTicket {
  /** When it was minted (ms since the epoch). */
  issuedAt: number;
  nonce: string;
}

/** A fresh ticket: `<issuedAt base36>.<nonce>.<mac>`, URL-safe as it is. */
export function mintLoginTicket(token: string, issuedAt: number = Date.now()): string {
  const issued = Math.floor(issuedAt).toString(36);
  const nonce = randomBytes(16).toString('base64url');
  return `${issued}.${nonce}.${mac(token, issued, nonce)}`;
}

/** The ticket's parts when its MAC is right for `token`; undefined for anything else. */
export function verifyLoginTicket(token: string, ticket: unknown): ParsedTicket | undefined {
  if (typeof ticket !== 'string') return undefined;
  const match = TICKET_PATTERN.exec(ticket);
  if (match === null) return undefined;
  const [, issued = '', nonce = '', given = ''] = match;
  const expected = Buffer.from(mac(token, issued, nonce));
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return undefined;
  return { issuedAt: parseInt(issued, 36), nonce };
}

function mac(token: string, issued: string, nonce: string): string {
  return createHmac('sha256', token).update(`${LABEL}\0${issued}\0${nonce}`).digest('base64url');
}
