// @ts-check
// Who may answer a pending approval, on its card: "Answerable by: alice, ops" — the named deciders whose
// scope covers it, and those its route escalated it to (the owner always may and is not named) — and
// what its route does next: "escalates to bob at 14:05", or "escalated to bob by route ops". The server
// works the names out (src/server/answerers.ts); the page fetches them again when the route escalates.

import { h, replace } from './dom.js';
import { visibleText } from './visible-text.js';

/** @import { ApprovalItem } from './types.js' */

/**
 * Where the line goes on a card: a card is drawn once and kept while it waits (inbox.js), so the line is
 * drawn again into its slot on every render (`refreshAnswerable`), as who may answer changes.
 * @param {ApprovalItem} approval
 */
export function answerableSlot(approval) {
  return h('div', { class: 'answerable-slot' }, answerableBy(approval));
}

/**
 * @param {HTMLElement} card
 * @param {ApprovalItem} approval
 */
export function refreshAnswerable(card, approval) {
  const slot = card.querySelector('.answerable-slot');
  if (slot instanceof HTMLElement) replace(slot, answerableBy(approval));
}

/**
 * The line, or null when no named decider is involved (only the owner answers).
 * @param {ApprovalItem} approval
 */
export function answerableBy(approval) {
  const names = approval.answerableBy ?? [];
  const escalation = approval.routing?.escalation ?? null;
  if (names.length === 0 && escalation === null) return null;
  return h(
    'p',
    { class: 'answerable-by' },
    'Answerable by: ',
    h('strong', {}, names.length === 0 ? 'the owner' : visibleText(names.join(', '))),
    escalation === null ? null : h('span', { class: 'muted route-step' }, routeStep(escalation)),
  );
}

/** @param {NonNullable<NonNullable<ApprovalItem['routing']>['escalation']>} escalation */
function routeStep(escalation) {
  const to = visibleText(escalation.to.join(', '));
  if (escalation.escalatedAt !== null)
    return ` · escalated to ${to} by route ${visibleText(escalation.route)}`;
  const at = new Date(escalation.escalateAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return ` · escalates to ${to} at ${at} (route ${visibleText(escalation.route)})`;
}
