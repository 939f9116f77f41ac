// @ts-check
// One row of the audit view per record: when, which thread, the tool and what it acts on (with the
// deny message, the policy's reason, or why it was cancelled), the outcome, who decided and through
// what, and for an "always allow" the rules it added, for how long and where they are kept — the CLI's
// session, Warden's thread rules, or the project's settings file named by its path. Every string from
// the record (commands, paths, names, messages) goes in as text with its invisible characters shown.

import { h } from './dom.js';
import { folderName } from './format.js';
import { titleLine } from './preview.js';
import { visibleText } from './visible-text.js';

/** @import { State } from './state.js' */
/** @import { AuditGrant, AuditOutcome, AuditRecord } from '../src/store/audit-record.js' */
/** @import { ExportedRecord } from './audit-api.js' */

/** The columns, in order: each cell carries its column's name for the stacked phone layout. */
export const COLUMNS = ['Time', 'Thread', 'Tool', 'Outcome', 'Decider', 'Via', 'Scope / destination'];

/** @type {Record<AuditOutcome, string>} */
export const OUTCOME_WORDS = {
  allow: 'allowed',
  allow_always: 'always allowed',
  deny: 'denied',
  cancelled: 'cancelled',
  expired: 'expired',
};

/** @type {Record<AuditGrant['scope'], string>} */
const SCOPE_WORDS = {
  session: 'this CLI session',
  thread: 'this thread',
  project: 'this project',
};

/**
 * @param {ExportedRecord} record
 * @param {State} state
 * @returns {HTMLTableRowElement}
 */
export function auditRow(record, state) {
  if ('unreadable' in record)
    return h(
      'tr',
      { class: 'audit-row unreadable', 'data-seq': record.seq },
      cell(0, h('span', { class: 'seq' }, `#${record.seq}`)),
      h(
        'td',
        { colspan: COLUMNS.length - 1, 'data-label': 'Record' },
        h(
          'div',
          { class: 'cell' },
          'This record cannot be read (run Verify): ',
          h('code', {}, visibleText(record.unreadable.slice(0, 300))),
        ),
      ),
    );
  return h(
    'tr',
    {
      class: `audit-row ${record.kind}`,
      'data-seq': record.seq,
      'data-outcome': record.outcome ?? '',
    },
    cell(0, time(record)),
    cell(1, threadLink(record.threadId, state)),
    cell(2, what(record)),
    cell(3, outcome(record)),
    cell(4, record.decidedBy === null ? '—' : visibleText(record.decidedBy.name)),
    cell(5, record.decidedBy?.via ?? '—'),
    cell(6, scope(record)),
  );
}

/**
 * @param {number} column
 * @param {import('./dom.js').Children} content
 */
function cell(column, content) {
  // One box for the content: on a phone the cell is a grid of its label and this box.
  return h('td', { 'data-label': COLUMNS[column] ?? '' }, h('div', { class: 'cell' }, content));
}

/** @param {AuditRecord} record */
function time(record) {
  const date = new Date(record.at);
  const words = Number.isNaN(date.getTime())
    ? record.at
    : date.toLocaleString([], { dateStyle: 'short', timeStyle: 'medium' });
  return [
    h('time', { datetime: record.at }, words),
    ' ',
    h('span', { class: 'seq muted' }, `#${record.seq}`),
  ];
}

/**
 * @param {string | null} threadId
 * @param {State} state
 */
function threadLink(threadId, state) {
  if (threadId === null) return '—';
  const thread = state.threads.get(threadId);
  const name = thread?.title ?? (thread?.cwd === undefined ? threadId.slice(0, 8) : folderName(thread.cwd));
  return h(
    'a',
    { href: `#/threads/${encodeURIComponent(threadId)}`, class: 'thread-link', title: threadId },
    visibleText(name),
  );
}

/** @param {AuditRecord} record */
function what(record) {
  if (record.kind === 'genesis')
    return h('span', { class: 'muted' }, record.note ?? 'The trail starts here.');
  return [
    h(
      'div',
      { class: 'audit-call' },
      record.tool === null ? null : h('span', { class: 'tool' }, visibleText(record.tool)),
      record.tool === null || record.input === null ? null : titleLine(record.tool, record.input),
      record.edit === null ? null : h('span', { class: 'edited' }, 'input edited'),
    ),
    record.reason === null || record.reason === ''
      ? null
      : h('div', { class: 'muted audit-reason' }, visibleText(record.reason)),
  ];
}

/** @param {AuditRecord} record */
function outcome(record) {
  // A route's step decides nothing: it says what happened while the approval waited.
  if (record.kind === 'reminded' || record.kind === 'escalated')
    return h('span', { class: 'outcome muted' }, record.kind);
  if (record.outcome === null) return '—';
  const words = OUTCOME_WORDS[record.outcome] ?? record.outcome;
  return h(
    'span',
    { class: `outcome outcome-${record.outcome}` },
    record.interrupt ? `${words}, turn stopped` : words,
    // A two-person approval (docs/decisions.md#two-person-rules): its first allow answered nobody.
    record.kind === 'endorsement' ? ', 1 of 2' : null,
    record.endorsedBy === undefined ? null : `, 2 of 2 (first: ${record.endorsedBy.name})`,
  );
}

/**
 * For an always-allow: for how long, where, and which rules; for the policy's answer, the rule that
 * decided. A record from before grants were recorded (format v1) says it does not know the scope.
 * @param {AuditRecord} record
 */
function scope(record) {
  const rules =
    record.rules.length === 0
      ? null
      : h(
          'ul',
          { class: 'audit-rules' },
          record.rules.map((rule) => h('li', {}, h('code', {}, visibleText(rule)))),
        );
  if (record.outcome !== 'allow_always')
    return record.decidedBy?.via === 'policy' && rules !== null ? ['by rule', rules] : '—';
  const grant = record.grant ?? null;
  if (grant === null)
    return [h('span', { class: 'muted' }, 'scope not recorded (a record from before scopes were)'), rules];
  return [
    h('strong', { class: `grant-scope ${grant.scope}` }, SCOPE_WORDS[grant.scope]),
    h('div', { class: 'grant-destination' }, destination(grant)),
    rules,
  ];
}

/** @param {AuditGrant} grant */
function destination(grant) {
  switch (grant.destination) {
    case 'session':
      return [
        'sent to the CLI as a session rule',
        grant.sessionId === null ? null : [' (session ', h('code', {}, visibleText(grant.sessionId)), ')'],
      ];
    case 'warden':
      return 'kept by Warden for the thread, until removed';
    default:
      return [
        `written by the CLI to its ${grant.destination} file`,
        grant.settingsFile === null
          ? null
          : [' ', h('code', { class: 'settings-file' }, visibleText(grant.settingsFile))],
      ];
  }
}
