// @ts-check
// Short notices at the bottom of the screen ("Approved", "Someone else already answered this"), read out by
// screen readers through the live region they sit in.

import { byId, h } from './dom.js';

const SHOW_MS = 6000;

/**
 * @param {string} text
 * @param {'info' | 'warn' | 'error'} [tone]
 */
export function toast(text, tone = 'info') {
  const region = byId('toasts', HTMLElement);
  const note = h('div', { class: `toast ${tone}`, role: tone === 'error' ? 'alert' : null }, text);
  region.append(note);
  setTimeout(() => note.remove(), SHOW_MS);
}
