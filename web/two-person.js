// @ts-check
// A two-person approval on its card (docs/decisions.md#two-person-rules): why it needs two deciders'
// allows, and how far it got — "1 of 2 — allowed by alice" once the first allow is in. The allow button
// says that it needs a second person; the first decider's own second click is refused by the server.

import { h } from './dom.js';
import { visibleText } from './visible-text.js';

/** @import { ApprovalRecord } from './types.js' */

/**
 * The decider of the first allow, or null (none yet, or one allow answers this approval).
 * @param {ApprovalRecord} approval
 */
export function firstAllowBy(approval) {
  const first = allowsIn(approval) > 0 ? approval.endorsements[0] : undefined;
  return first === undefined ? null : first.decidedBy.name;
}

/**
 * How many allows are in that did not answer it yet (0 or 1): a card is drawn anew when it changes.
 * @param {ApprovalRecord} approval
 */
export function allowsIn(approval) {
  return Array.isArray(approval.endorsements) ? approval.endorsements.length : 0;
}

/**
 * The line under a card's head, or null for an approval one allow answers.
 * @param {ApprovalRecord} approval
 */
export function twoPersonBadge(approval) {
  if (typeof approval.twoPerson !== 'string') return null;
  const by = firstAllowBy(approval);
  return h(
    'p',
    { class: `two-person ${by === null ? 'none' : 'one'}`, 'data-two-person': by === null ? '0' : '1' },
    by === null ? '0 of 2 allows' : `1 of 2 — allowed by ${visibleText(by)}`,
    h(
      'span',
      { class: 'muted two-person-reason' },
      ` · two people must allow (${visibleText(approval.twoPerson)})`,
    ),
  );
}

/**
 * What the allow button says.
 * @param {ApprovalRecord} approval
 */
export function approveLabel(approval) {
  if (typeof approval.twoPerson !== 'string') return 'Approve once ';
  return firstAllowBy(approval) === null
    ? 'Approve (needs a second person) '
    : 'Approve as the second person ';
}
