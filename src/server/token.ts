// The server's access token: generated once per data directory, kept in a file only its owner can
// read, and compared in constant time. Whoever has it can drive every agent of this server (Bearer header)
// and mint login links, so it never goes into a cookie, a URL, or a log.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { StoreError } from '../protocol/errors.js';

export const TOKEN_FILE = 'server-token';

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{32,}$/;

export interface LoadedToken {
  token: string;
  path: string;
  /** The file was created just now (first start). */
  created: boolean;
}

/**
 * Reads `<dataDir>/server-token`, creating it (32 random bytes, base64url, mode 0600) when missing. A file
 * others can read is tightened to 0600; a file that holds no valid token is an error, not overwritten.
 */
export function loadOrCreateToken(dataDir: string): LoadedToken {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, TOKEN_FILE);
  const token = randomBytes(32).toString('base64url');
  try {
    // `wx`: never replace a token another process just wrote.
    writeFileSync(path, `${token}\n`, { mode: 0o600, flag: 'wx' });
    return { token, path, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  const existing = readFileSync(path, 'utf8').trim();
  if (!TOKEN_PATTERN.test(existing))
    throw new StoreError(`${path} does not hold a valid token; delete it to have a new one generated`);
  return { token: existing, path, created: false };
}

/** Reads the token of an existing data directory (for `warden login`); a StoreError when there is none. */
export function readToken(dataDir: string): LoadedToken {
  const path = join(dataDir, TOKEN_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new StoreError(`No server token at ${path}: has warden serve run with this data directory?`, {
      cause: error,
    });
  }
  const token = text.trim();
  if (!TOKEN_PATTERN.test(token)) throw new StoreError(`${path} does not hold a valid token`);
  return { token, path, created: false };
}

/** Constant-time comparison, so response timing does not leak how much of a guess was right. */
export function tokenMatches(expected: string, candidate: string | undefined): boolean {
  if (candidate === undefined) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(candidate);
  return a.length === b.length && timingSafeEqual(a, b);
}
