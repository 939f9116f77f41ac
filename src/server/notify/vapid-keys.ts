// The server's VAPID key pair (RFC 8292): push services accept a push only when it is signed with the
// private key of the pair the browser subscribed with. Made once per data directory and kept in a file only
// its owner can read; the public key is what the page hands to `pushManager.subscribe`. Replacing the pair
// voids every subscription (browsers must subscribe again).
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import webpush from 'web-push';

import { StoreError } from '../../protocol/errors.js';

export const VAPID_KEYS_FILE = 'vapid-keys.json';

export interface VapidKeys {
  /** Uncompressed P-256 point, base64url (65 bytes). */
  publicKey: string;
  /** The private scalar, base64url (32 bytes). Never leaves this machine. */
  privateKey: string;
}

const PUBLIC_KEY = /^[A-Za-z0-9_-]{87}$/;
const PRIVATE_KEY = /^[A-Za-z0-9_-]{43}$/;

/** Reads `<dataDir>/vapid-keys.json`, creating it (mode 0600) when missing. */
export function loadOrCreateVapidKeys(dataDir: string): VapidKeys & { path: string; created: boolean } {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, VAPID_KEYS_FILE);
  const fresh = webpush.generateVAPIDKeys();
  try {
    // `wx`: never replace a pair that browsers subscribed with.
    writeFileSync(path, `${JSON.stringify(fresh)}\n`, { mode: 0o600, flag: 'wx' });
    return { ...fresh, path, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  let keys: Partial<VapidKeys> = {};
  try {
    keys = JSON.parse(readFileSync(path, 'utf8')) as Partial<VapidKeys>;
  } catch {
    // reported below
  }
  if (
    typeof keys.publicKey !== 'string' ||
    typeof keys.privateKey !== 'string' ||
    !PUBLIC_KEY.test(keys.publicKey) ||
    !PRIVATE_KEY.test(keys.privateKey)
  )
    throw new StoreError(`${path} does not hold a valid VAPID key pair; delete it to have a new one made`);
  return { publicKey: keys.publicKey, privateKey: keys.privateKey, path, created: false };
}
