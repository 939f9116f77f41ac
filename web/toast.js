// @ts-check
// Short notices ("Approved", "Someone else already answered this"), read out by screen readers through the
// live region they sit in. They never cover the message box: while one shows, the notices sit at the
// edge of the screen (top or bottom) farther from the composer, and move if a scroll brings it near.

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
  placeAwayFromComposer();
  setTimeout(() => note.remove(), SHOW_MS);
}

/** Puts the notices at the top when the composer is in the lower half of the screen, else at the bottom. */
function placeAwayFromComposer() {
  const region = document.getElementById('toasts');
  if (region === null) return;
  const composer = document.querySelector('form.composer');
  let top = false;
  if (composer !== null) {
    const box = composer.getBoundingClientRect();
    const visible = box.bottom > 0 && box.top < window.innerHeight;
    top = visible && box.top + box.height / 2 > window.innerHeight / 2;
  }
  region.classList.toggle('top', top);
}

window.addEventListener('scroll', () => placeAwayFromComposer(), { passive: true });
window.addEventListener('resize', () => placeAwayFromComposer());
