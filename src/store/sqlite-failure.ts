// What a SQLite failure means for whoever waits on the store: the disk is full, the file is held by another
// process, it is damaged, or an I/O call failed. SQLite's result codes (better-sqlite3 gives them as
// `code`, with the extended code when there is one: SQLITE_IOERR_FSYNC) map onto StoreError's codes, so
// that callers decide on a stable code, never on SQLite's wording.
import { StoreError, WardenError, type StoreErrorCode } from '../protocol/errors.js';

/** The StoreError code for a SQLite result code; STORE_FAILED for anything unknown. */
export function storeCodeOf(error: unknown): StoreErrorCode {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return 'STORE_FAILED';
  if (code === 'SQLITE_FULL') return 'STORE_FULL';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'STORE_LOCKED';
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') return 'STORE_CORRUPT';
  if (
    code.startsWith('SQLITE_IOERR') ||
    code.startsWith('SQLITE_CANTOPEN') ||
    code.startsWith('SQLITE_READONLY') ||
    code === 'SQLITE_NOMEM' ||
    code === 'SQLITE_PROTOCOL'
  )
    return 'STORE_UNAVAILABLE';
  return 'STORE_FAILED';
}

const WHY: Record<StoreErrorCode, string> = {
  STORE_FULL: 'the disk is full',
  STORE_UNAVAILABLE: 'an I/O error',
  STORE_LOCKED: 'it is in use by another process',
  STORE_CORRUPT: 'the file is damaged or is not a Warden database',
  STORE_TOO_NEW: 'a newer Warden wrote it',
  STORE_FAILED: 'an unexpected error',
};

/**
 * A thrown SQLite error as a StoreError saying what failed, on which file and why (`<what> at <path>:
 * <why> (<SQLite's message>)`). Our own errors pass through as they are.
 */
export function storeFailure(error: unknown, what: string, path: string): Error {
  if (WardenError.isWardenError(error)) return error;
  const code = storeCodeOf(error);
  const detail = error instanceof Error ? ` (${error.message})` : '';
  return new StoreError(`${what} at ${path}: ${WHY[code]}${detail}`, { cause: error, code });
}
