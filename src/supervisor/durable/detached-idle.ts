// How long a detached CLI lives once its host let go of it idle (close() without stopAgents): the
// option's validation, the deadline the host leaves for the CLI's watchdog (transport/detached-lifetime.ts),
// and, at the next open(), the threads whose CLI the watchdog ended so: parked, as if their host had parked
// them, so the next send resumes their session. A CLI that was busy when let go (a turn, a subagent, an
// approval waiting for a person) gets no deadline: it waits for the next host, which re-attaches it.
import type { EventDraft } from '../../store/event-types.js';
import type { Store } from '../../store/store.js';
import { markIdleUntil } from '../../transport/detached-lifetime.js';
import { closeoutDrafts } from './closeout.js';
import type { DetachedProcess } from './detached-cli.js';

/** The idle time a detached CLI with no host gets when none is given: thirty minutes. */
export const DEFAULT_DETACHED_IDLE_MS = 30 * 60_000;

const MAX_MS = 2 ** 31 - 1;

/**
 * `SupervisorOptions.detachedIdleMs`: a whole number of milliseconds from 1 to 2^31-1; `0` or `Infinity`:
 * a detached CLI with no host is never ended for being idle; absent, thirty minutes. Returns the period,
 * Infinity for never. Throws TypeError otherwise.
 */
export function validateDetachedIdleMs(value: unknown): number {
  if (value === undefined) return DEFAULT_DETACHED_IDLE_MS;
  if (value === 0 || value === Infinity) return Infinity;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_MS)
    throw new TypeError(
      `options.detachedIdleMs must be a whole number of milliseconds from 1 to ${MAX_MS}, or 0 or Infinity to never end an idle detached CLI`,
    );
  return value;
}

/** A detached CLI close() left running. */
export interface LeftRunning {
  readonly threadId: string;
  readonly pid: number;
  /**
   * When it ends by itself (epoch milliseconds) unless a host re-attaches it first; null when it waits for
   * a host however long that takes (it was busy, or `detachedIdleMs` is never).
   */
  readonly idleUntil: number | null;
  /** Why it was not idle when let go (the first reason); absent when it was. */
  readonly busy?: string;
}

/**
 * The deadline for a CLI let go of now: now + the period when it is idle and the period is finite, else
 * null. The watchdog reads whole seconds, rounded up.
 */
export function idleDeadline(idle: boolean, periodMs: number, now = Date.now()): number | null {
  return idle && Number.isFinite(periodMs) ? Math.ceil((now + periodMs) / 1000) * 1000 : null;
}

/** Leaves the deadline in the CLI's spool directory for its watchdog. */
export function leaveDeadline(spoolDir: string, idleUntil: number, periodMs: number): void {
  markIdleUntil(spoolDir, idleUntil, periodMs);
}

/**
 * At open(): the threads whose detached CLI was let go idle and not re-attached (the watchdog ended it, or
 * is ending it, or this host does not re-attach) are parked: `session.ended` (`parked`) and
 * `thread.parked` (`detached_idle`), with whatever was still open closed out as a stop would. One
 * transaction per thread; returns how many.
 */
export function parkLetGo(
  store: Store,
  parkable: ReadonlyMap<string, DetachedProcess & { periodMs: number }>,
): number {
  let parked = 0;
  for (const [threadId, cli] of parkable) {
    const drafts: EventDraft[] = closeoutDrafts(store, threadId, {
      reason: 'parked',
      approvals: 'cancelled',
      subagents: 'stopped',
    });
    drafts.push({
      type: 'thread.parked',
      data: { generation: cli.generation, reason: 'detached_idle', idleMs: cli.periodMs },
    });
    store.commit(threadId, drafts);
    parked += 1;
  }
  return parked;
}
