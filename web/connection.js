// @ts-check
// The connection indicator in the top bar: a coloured dot and a word, announced politely to screen
// readers. While offline it counts down to the next attempt; clicking it retries at once.

import { byId } from './dom.js';

/** @import { Connection } from './live.js' */

const WORDS = { connecting: 'Connecting…', syncing: 'Catching up…', live: 'Live' };

/**
 * @param {() => void} retryNow
 * @returns {(connection: Connection) => void}
 */
export function connectionIndicator(retryNow) {
  const button = byId('connection', HTMLButtonElement);
  const label = byId('connection-label', HTMLElement);
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let countdown;
  button.addEventListener('click', retryNow);
  return (connection) => {
    clearInterval(countdown);
    button.dataset.state = connection.state;
    if (connection.state !== 'waiting') {
      label.textContent = WORDS[connection.state];
      button.title = connection.state === 'live' ? 'Receiving events as they happen' : '';
      return;
    }
    button.title = `${connection.reason}. Click to retry now.`;
    const show = () => {
      const seconds = Math.max(0, Math.ceil((connection.retryAt - Date.now()) / 1000));
      label.textContent = `Offline, retrying in ${seconds}s`;
    };
    show();
    countdown = setInterval(show, 1000);
  };
}
