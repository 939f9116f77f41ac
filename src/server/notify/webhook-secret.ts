// The key webhook bodies are signed with: one per data directory, made on first use and kept in a file
// only its owner can read. A receiver holding it checks that a body came from this server and is recent
// (see signature.ts). It is not the API token: giving it to a receiver grants nothing on the server.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { StoreError } from '../../protocol/errors.js';

export const WEBHOOK_SECRET_FILE = 'webhook-secret';

const SECRET_PATTERN = /^[A-Za-z0-9_-]{32,}$/;

/** Reads `<dataDir>/webhook-secret`, creating it (32 random bytes, base64url, mode 0600) when missing. */
export function loadOrCreateWebhookSecret(dataDir: string): { secret: string; path: string } {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, WEBHOOK_SECRET_FILE);
  const secret = randomBytes(32).toString('base64url');
  try {
    // `wx`: never replace a secret receivers already hold.
    writeFileSync(path, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return { secret, path };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  const existing = readFileSync(path, 'utf8').trim();
  if (!SECRET_PATTERN.test(existing))
    throw new StoreError(`${path} does not hold a valid webhook secret; delete it to have a new one made`);
  return { secret: existing, path };
}
