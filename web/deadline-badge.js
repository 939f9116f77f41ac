// @ts-check
// The deadline of a pending approval, on its card: "denied automatically in 29:41" (or "allowed
// automatically…" for a rule the person marked safe), counting down once a second (ticker.js fills every
// <time data-until>), and what it was set by. The server answers at that moment, recorded as by the
// deadline; the card leaves, and the thread's timeline says "denied by the deadline".

import { h } from './dom.js';
import { visibleText } from './visible-text.js';

/** @import { ApprovalRecord } from './types.js' */

/**
 * "29:41", "1:02:05", "0:00": the time left until a deadline, to the second.
 * @param {number} ms
 */
export function countdown(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const seconds = String(total % 60).padStart(2, '0');
  const minutes = Math.floor(total / 60);
  if (minutes < 60) return `${minutes}:${seconds}`;
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}:${seconds}`;
}

/**
 * The line under a card's head, or null for an approval that waits as long as it takes.
 * @param {ApprovalRecord} approval
 */
export function deadlineBadge(approval) {
  const deadline = approval.deadline;
  if (deadline === null || deadline === undefined || Number.isNaN(Date.parse(deadline.at))) return null;
  const left = Date.parse(deadline.at) - Date.now();
  return h(
    'p',
    { class: `deadline ${deadline.behavior}`, 'data-deadline-at': deadline.at },
    deadline.behavior === 'allow' ? 'allowed automatically in ' : 'denied automatically in ',
    h('time', { 'data-until': deadline.at, datetime: deadline.at }, countdown(left)),
    h(
      'span',
      { class: 'muted deadline-source' },
      deadline.rule === null
        ? ' · the thread’s deadline'
        : [' · deadline of rule ', h('code', {}, visibleText(deadline.rule))],
    ),
  );
}
