// @ts-check
// Keeps every "waiting 3m 05s" and "ended 2m ago" on the page current: once a second, each
// <time data-since="ISO"> shows how long ago that was, and each <time data-until="ISO"> (a deadline)
// how long is left. One timer for the whole page.

import { countdown } from './deadline-badge.js';
import { duration } from './format.js';

export function startTicker() {
  const tick = () => {
    const now = Date.now();
    for (const element of document.querySelectorAll('time[data-since]')) {
      const since = Date.parse(element.getAttribute('data-since') ?? '');
      if (!Number.isNaN(since)) element.textContent = duration(now - since);
    }
    for (const element of document.querySelectorAll('time[data-until]')) {
      const until = Date.parse(element.getAttribute('data-until') ?? '');
      if (!Number.isNaN(until)) element.textContent = countdown(until - now);
    }
  };
  tick();
  return setInterval(tick, 1000);
}

/** Fills new <time data-since> elements at once instead of leaving them blank until the next tick. */
export function tickNow() {
  const now = Date.now();
  for (const element of document.querySelectorAll('time[data-since]:empty')) {
    const since = Date.parse(element.getAttribute('data-since') ?? '');
    if (!Number.isNaN(since)) element.textContent = duration(now - since);
  }
}
