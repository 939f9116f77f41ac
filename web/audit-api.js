// @ts-check
// The audit trail's API calls: a page of records (JSON Lines, newest first, filtered on the server), the
// chain's verification, and the address of the CSV export with the same filters. Same origin, so the
// login cookie goes along — for the export link too, which the browser downloads as the person.

import { ApiError } from './api.js';

/** @import { AuditOutcome, AuditRecord, VerifyResult } from '../src/store/audit-record.js' */

/**
 * A record as exported: its fields and its hash; a record that no longer parses comes as `unreadable`.
 * @typedef {(AuditRecord & { hash: string }) | { seq: number, hash: string, unreadable: string }} ExportedRecord
 */

/** @typedef {{ threadId?: string, decider?: string, outcome?: AuditOutcome }} AuditFilters */

/** How many records a page of the view holds. */
export const PAGE_SIZE = 50;

/**
 * The filters as query parameters (empty ones left out).
 * @param {AuditFilters} filters
 * @returns {URLSearchParams}
 */
export function filterParams(filters) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters))
    if (typeof value === 'string' && value !== '') params.set(name, value);
  return params;
}

/**
 * A page of records, newest first: `before` is the seq the previous page ended at.
 * @param {AuditFilters} filters
 * @param {number | undefined} before
 * @returns {Promise<{ records: ExportedRecord[], more: boolean }>}
 */
export async function readAuditPage(filters, before) {
  const params = filterParams(filters);
  params.set('format', 'jsonl');
  params.set('order', 'desc');
  params.set('limit', String(PAGE_SIZE));
  if (before !== undefined) params.set('before', String(before));
  const text = await get(`/api/audit?${params.toString()}`, 'application/jsonl');
  /** @type {ExportedRecord[]} */
  const records = text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
  return { records, more: records.length === PAGE_SIZE };
}

/** @returns {Promise<VerifyResult>} the server's check of the whole chain, from its first record */
export async function verifyAudit() {
  return JSON.parse(await get('/api/audit/verify', 'application/json'));
}

/**
 * The CSV export of every record the filters keep, in the chain's order.
 * @param {AuditFilters} filters
 */
export function exportUrl(filters) {
  const params = filterParams(filters);
  params.set('format', 'csv');
  return `/api/audit?${params.toString()}`;
}

/**
 * @param {string} path
 * @param {string} accept
 * @returns {Promise<string>} the body; a failed call throws ApiError with the server's message
 */
async function get(path, accept) {
  let response;
  try {
    response = await fetch(path, { headers: { accept }, credentials: 'same-origin' });
  } catch (cause) {
    throw new ApiError(0, 'NETWORK', `The server cannot be reached (${String(cause)})`);
  }
  const text = await response.text();
  if (response.ok) return text;
  /** @type {any} */
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  const error = json?.error;
  throw new ApiError(
    response.status,
    typeof error?.code === 'string' ? error.code : `HTTP_${response.status}`,
    typeof error?.message === 'string' ? error.message : `GET ${path}: ${response.status}`,
  );
}
