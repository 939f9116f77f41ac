// The audit trail as a file: JSON Lines (one record per line: its canonical JSON with its `hash` added,
// so the chain can be checked from the export alone) or CSV (RFC 4180: every field quoted when it holds
// a quote, comma or line break, quotes doubled; CRLF line ends). A CSV field that a spreadsheet would run
// as a formula — one starting with =, +, -, @, a tab or a carriage return — gets a leading ' so that it
// stays text: tool inputs and deny messages are written by the model and must not become formulas.
// Columns are only ever added at the end, so a sheet or script that reads them by position keeps working.
import type { AuditRecord, AuditRow } from '../store/audit-record.js';
import { canonicalJson } from '../store/canonical-json.js';

export type AuditFormat = 'jsonl' | 'csv';

export const CSV_COLUMNS = [
  'seq',
  'at',
  'kind',
  'decided_by',
  'via',
  'outcome',
  'tool',
  'input',
  'input_sha256',
  'edited_input',
  'rules',
  'reason',
  'interrupt',
  'thread_id',
  'approval_id',
  'event_seq',
  'prev',
  'hash',
  // Added with format v2 (the record's `grant`); empty for other outcomes and for v1 records.
  'scope',
  'destination',
  'settings_file',
  'session_id',
] as const;

/** The JSON Lines line of a stored record (with its line end). */
export function jsonlLine(row: AuditRow): string {
  let record: unknown;
  try {
    record = JSON.parse(row.text);
  } catch {
    // A record that no longer parses is exported as found, so the export shows the damage.
    return `${JSON.stringify({ seq: row.seq, hash: row.hash, unreadable: row.text })}\n`;
  }
  return `${canonicalJson({ ...(record as object), hash: row.hash })}\n`;
}

export function csvHeader(): string {
  return `${CSV_COLUMNS.join(',')}\r\n`;
}

/** The CSV line of a stored record (with its line end). */
export function csvLine(row: AuditRow): string {
  let record: Partial<AuditRecord>;
  try {
    record = JSON.parse(row.text) as Partial<AuditRecord>;
  } catch {
    record = {
      seq: row.seq,
      kind: 'genesis',
      reason: `unreadable record: ${row.text}`,
    };
  }
  const json = (value: unknown): string =>
    value === null || value === undefined ? '' : canonicalJson(value);
  const values: Record<(typeof CSV_COLUMNS)[number], string | number | boolean | null | undefined> = {
    seq: row.seq,
    at: record.at,
    kind: record.kind,
    decided_by: record.decidedBy?.name,
    via: record.decidedBy?.via,
    outcome: record.outcome,
    tool: record.tool,
    input: json(record.input),
    input_sha256: record.inputSha256,
    edited_input: json(record.edit?.edited),
    rules: (record.rules ?? []).join(' '),
    reason: record.reason ?? record.note,
    interrupt: record.interrupt === true ? 'true' : 'false',
    thread_id: record.threadId,
    approval_id: record.approvalId,
    event_seq: record.eventSeq,
    prev: record.prev,
    hash: row.hash,
    scope: record.grant?.scope,
    destination: record.grant?.destination,
    settings_file: record.grant?.settingsFile,
    session_id: record.grant?.sessionId,
  };
  return `${CSV_COLUMNS.map((column) => csvField(values[column])).join(',')}\r\n`;
}

export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
