// @ts-check
// "If unanswered after [30] [minutes], deny": the field the new-thread form and the thread view share.
// The server takes 1 second to 30 days; the field says so before anything is sent.

import { h } from './dom.js';

const UNITS = /** @type {const} */ ([
  ['seconds', 1000],
  ['minutes', 60_000],
  ['hours', 3_600_000],
]);
const MIN_MS = 1000;
const MAX_MS = 30 * 24 * 3_600_000;

/**
 * "30 minutes", "1 hour", "45 seconds": a wait in the largest unit that divides it.
 * @param {number} ms
 */
export function waitWords(ms) {
  for (const [unit, size] of [...UNITS].reverse())
    if (ms % size === 0) {
      const n = ms / size;
      return `${n} ${n === 1 ? unit.slice(0, -1) : unit}`;
    }
  return `${ms / 1000} seconds`;
}

/**
 * @param {string} idPrefix ids of the number and unit fields: `<prefix>-after`, `<prefix>-unit`
 * @param {string} label
 */
export function deadlineField(idPrefix, label) {
  const amount = /** @type {HTMLInputElement} */ (
    h('input', {
      id: `${idPrefix}-after`,
      name: 'deadline',
      type: 'number',
      min: '1',
      step: 'any',
      inputmode: 'decimal',
      class: 'deadline-amount',
    })
  );
  const unit = /** @type {HTMLSelectElement} */ (
    h(
      'select',
      { id: `${idPrefix}-unit`, 'aria-label': 'Unit' },
      UNITS.map(([name]) => h('option', { value: name, selected: name === 'minutes' }, name)),
    )
  );
  const element = h(
    'div',
    { class: 'deadline-field' },
    h('label', { for: `${idPrefix}-after` }, label),
    h('span', { class: 'deadline-row' }, amount, unit, h('span', {}, ', deny')),
  );
  return {
    element,
    amount,
    unit,
    /**
     * The wait in ms, null when the field is empty, or an Error saying what is wrong.
     * @returns {number | null | Error}
     */
    value() {
      if (amount.value.trim() === '') return null;
      const size = UNITS.find(([name]) => name === unit.value)?.[1] ?? 60_000;
      const ms = Math.round(Number(amount.value) * size);
      if (!Number.isFinite(ms) || ms < MIN_MS || ms > MAX_MS)
        return new Error('a deadline is from 1 second to 30 days');
      return ms;
    },
    /** @param {number | null} ms */
    set(ms) {
      if (ms === null) {
        amount.value = '';
        unit.value = 'minutes';
        return;
      }
      const [name, size] = [...UNITS].reverse().find(([, s]) => ms % s === 0) ?? UNITS[0];
      unit.value = name;
      amount.value = String(ms / size);
    },
  };
}
