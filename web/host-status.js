// @ts-check
// How the page speaks of the host of a fleet that runs a thread, once its lease has run out: the words
// the inbox cards, the thread view's header and the sidebar's marker share.

/** @import { ThreadHost } from './types.js' */

/**
 * "since 14:02:11" (its last heartbeat), or "since it started" for a host that never beat.
 * @param {ThreadHost} host
 */
export function unreachableSince(host) {
  return host.lastSeen === null
    ? 'since it started'
    : `since ${new Date(host.lastSeen).toLocaleTimeString()}`;
}
