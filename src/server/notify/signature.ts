// `X-Warden-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`. The time is inside
// the signed text, so a receiver can refuse an old body replayed at it (e.g. older than 5 minutes).
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-warden-signature';

export function signBody(secret: string, body: string, nowMs = Date.now()): string {
  const t = Math.floor(nowMs / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}

/**
 * What a receiver does (exported for receivers written in TypeScript, and for tests): true when the header
 * signs this exact body with this secret and its time is within `toleranceSec` of now.
 */
export function verifySignature(
  secret: string,
  body: string,
  header: string | null | undefined,
  options: { toleranceSec?: number; nowMs?: number } = {},
): boolean {
  const match = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (match === null) return false;
  const t = Number(match[1]);
  const now = Math.floor((options.nowMs ?? Date.now()) / 1000);
  if (Math.abs(now - t) > (options.toleranceSec ?? 300)) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(match[2] ?? '', 'hex'));
}
