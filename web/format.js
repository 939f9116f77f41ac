// @ts-check
// Words for states and times, in one place so the inbox and the thread view say the same thing.

/** @import { RunRecord, SubagentRecord, ThreadMode, ThreadRecord } from './types.js' */

/** @type {Record<ThreadMode, { label: string, hint: string }>} */
export const MODES = {
  supervised: { label: 'Supervised', hint: 'Ask before commands and file changes' },
  'auto-edits': { label: 'Auto-accept edits', hint: 'Edits inside the folder go through; the rest asks' },
  'full-access': { label: 'Full access', hint: 'Everything goes through without asking' },
};

/**
 * "3s", "4m 05s", "2h 10m", "3d 4h": how long something has waited, compact enough for a phone.
 * @param {number} ms
 */
export function duration(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  const hours = Math.floor(m / 60);
  if (hours < 24) return `${hours}h ${String(m % 60).padStart(2, '0')}m`;
  return `${Math.floor(hours / 24)}d ${hours % 24}h`;
}

/** @param {string} iso */
export function clock(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

/**
 * Who started a run, as a sentence fragment: "started by you", "started by the CLI after a subagent
 * reported". A run the CLI started says why only once its result arrives, hence the plain "the CLI".
 * @param {string} trigger
 */
export function triggerLabel(trigger) {
  switch (trigger) {
    case 'human':
      return 'started by you';
    case 'cli':
      return 'started by the CLI';
    case 'task-notification':
      return 'started by the CLI after a subagent reported';
    case 'external':
      return 'a turn of a session started outside Warden';
    case 'history_lost':
      return 'sent again in a new session (the earlier conversation could not be restored)';
    default:
      return `started by the CLI (${trigger})`;
  }
}

/**
 * The run's state as the inbox shows it next to an approval. The point of Warden: an approval can belong
 * to a run whose turn already ended while its background subagent still works.
 * @param {RunRecord | undefined} run
 */
export function runStateLabel(run) {
  if (run === undefined) return 'run unknown';
  switch (run.status) {
    case 'completed':
      return 'run completed';
    case 'failed':
      return 'run failed';
    case 'interrupted':
      return 'run interrupted';
    case 'queued':
      return 'run queued';
    case 'running':
      return 'run in progress';
  }
}

/** @param {string} cwd the last path segment, which usually names the project */
export function folderName(cwd) {
  const parts = cwd.split('/').filter(Boolean);
  return parts.at(-1) ?? cwd;
}

/**
 * Cuts long text for a preview and says so.
 * @param {string} text
 * @param {number} max
 */
export function clip(text, max) {
  return text.length <= max ? text : `${text.slice(0, max)}\n… (${text.length - max} more characters)`;
}

/**
 * "$0.0123", "$1.20", "cost unknown": a run's cost in US dollars, with enough digits for small runs.
 * @param {number | null} usd
 */
export function cost(usd) {
  if (usd === null) return 'cost unknown';
  return `$${usd >= 1 ? usd.toFixed(2) : usd.toFixed(4)}`;
}

/** @param {number} n a token count, grouped by thousands ("12,345") */
export function tokens(n) {
  return n.toLocaleString('en-US');
}

/**
 * What the thread is doing, for its header: a turn running (`working`), a CLI waiting for the next
 * message (`ready`), maybe with a background subagent still at work, a CLI being stopped, none, or
 * none because it was parked while idle (the next message resumes it).
 * @param {ThreadRecord} thread
 * @param {RunRecord[]} runs
 * @param {SubagentRecord[]} subagents
 * @returns {{ key: 'working' | 'ready' | 'stopping' | 'stopped' | 'parked', words: string }}
 */
export function threadActivity(thread, runs, subagents) {
  if (thread.status === 'stopping') return { key: 'stopping', words: 'stopping the CLI' };
  if (thread.status === 'idle') return { key: 'stopped', words: 'idle, no CLI running' };
  if (thread.status === 'parked')
    return { key: 'parked', words: 'parked: no CLI while idle; the next message resumes it' };
  if (runs.some((run) => run.status === 'running' || run.status === 'queued'))
    return { key: 'working', words: 'working: a turn is running' };
  const background = subagents.filter((s) => s.status === 'running').length;
  return {
    key: 'ready',
    words:
      background > 0
        ? `idle, CLI ready · ${background === 1 ? 'a background subagent works' : `${background} background subagents work`}`
        : 'idle, CLI ready',
  };
}
