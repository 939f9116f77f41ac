// @ts-check
// The thread's CLI process in one line, read from the thread's own events: its pid, whether it runs
// detached (it outlives the server and a restarted server takes it over) and whether this server
// re-attached to it after a restart. Nothing while no process is on record.

/** @import { StoredEvent } from './types.js' */

/**
 * @param {readonly StoredEvent[]} log the thread's events, sorted by seq
 * @returns {string | null}
 */
export function cliProcessLine(log) {
  /** @type {{ pid: number, detached: boolean, reattached: boolean } | null} */
  let cli = null;
  for (const event of log) {
    if (event.type === 'session.process_started')
      cli = {
        pid: Number(event.data.pid),
        detached: typeof event.data.spoolDir === 'string',
        reattached: false,
      };
    else if (event.type === 'session.reattached' && cli !== null) cli.reattached = true;
    else if (event.type === 'session.process_exited') cli = null;
    // As the server's record does: one that survived being stopped stays on record.
    else if (event.type === 'session.leftover_process' && event.data.outcome !== 'survived') cli = null;
  }
  if (cli === null) return null;
  const parts = [`CLI pid ${cli.pid}`, cli.detached ? 'detached' : 'ends with the server'];
  if (cli.reattached) parts.push('re-attached after a restart');
  return parts.join(' · ');
}
