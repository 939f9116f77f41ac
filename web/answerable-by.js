// @ts-check
// Who may answer a pending approval, on its card: "Answerable by: alice, ops" — the named deciders whose
// scope covers it, and those its route escalated it to (the owner always may and is not named) — and
// what its route does next: "escalates to bob at 14:05", or "escalated to bob by route ops". The server
// works the names out (src/server/answerers.ts); the page fetches them again when the route escalates.

import { h, replace } from './dom.js';
import { visibleText } from './visible-text.js';

/** @import { ApprovalItem } from './types.js' */
/** @typedef {{ decider: string, role: string | null }} Me */

/**
 * Where the line goes on a card: a card is drawn once and kept while it waits (inbox.js), so the line is
 * drawn again into its slot on every render (`refreshAnswerable`), as who may answer changes.
 * @param {ApprovalItem} approval
 * @param {Me} [me]
 */
export function answerableSlot(approval, me) {
  return h('div', { class: 'answerable-slot' }, answerableBy(approval, me));
}

/**
 * @param {HTMLElement} card
 * @param {ApprovalItem} approval
 * @param {Me} [me]
 */
export function refreshAnswerable(card, approval, me) {
  const slot = card.querySelector('.answerable-slot');
  if (slot instanceof HTMLElement) replace(slot, answerableBy(approval, me));
}

/**
 * The line, or null when no named decider is involved (only the owner answers). `me`: who the page is
 * signed in as; a named decider who may not answer is told so (the server refuses its answer with 403).
 * @param {ApprovalItem} approval
 * @param {Me} [me]
 */
export function answerableBy(approval, me) {
  const names = approval.answerableBy ?? [];
  const escalation = approval.routing?.escalation ?? null;
  if (names.length === 0 && escalation === null) return null;
  const notMine =
    me !== undefined &&
    me.decider !== 'owner' &&
    approval.answerableBy !== undefined &&
    !names.includes(me.decider);
  return h(
    'p',
    { class: 'answerable-by' },
    'Answerable by: ',
    h('strong', {}, names.length === 0 ? 'the owner' : visibleText(names.join(', '))),
    escalation === null ? null : h('span', { class: 'muted route-step' }, routeStep(escalation)),
    notMine ? h('span', { class: 'not-mine' }, ` · not yours (${visibleText(me.decider)}) to answer`) : null,
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
