// A store written by a newer Warden is refused before anything touches it: this Warden would misread the
// tables the newer one added or changed, and a later write would corrupt them for the newer one. The
// check runs before the first write of an open (SQLite's journal-mode pragma, PostgreSQL's migration
// transaction), so the file or database is left byte for byte as the newer Warden left it.
import { StoreError } from '../protocol/errors.js';

/** Throws STORE_TOO_NEW when `found` (the store's schema version) is past `latest` (the newest known). */
export function refuseNewerSchema(where: string, found: number, latest: number): void {
  if (found <= latest) return;
  throw new StoreError(
    `The store at ${where} has schema version ${found}; this Warden knows versions up to ${latest}. ` +
      'It was left as it is: open it with a newer Warden.',
    { code: 'STORE_TOO_NEW' },
  );
}
