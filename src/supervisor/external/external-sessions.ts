// Sessions Warden did not start (a terminal, an IDE, a headless `claude -p`), as their hooks report them
// (`warden hook run`): one thread each, in the same inbox as every thread. A permission request waits as
// an approval while the hook waits (external-gate.ts); a prompt, a notification and the end of a turn are
// recorded on the thread. Warden answers these sessions and shows them; it never drives them.
import { ConflictError } from '../../protocol/errors.js';
import type { SupervisorCore } from '../core.js';
import { gateExternal, type HookAnswer, type HookWait } from './external-gate.js';
import { ExternalThreads } from './external-threads.js';
import { validateHookReport } from './hook-report.js';

/**
 * After a restart, how long an external session's pending approval waits for its hook to ask again
 * (the hook retries while its own wait lasts) before it is closed out.
 */
export const RECLAIM_AFTER_RESTART_MS = 30_000;
export const HOOK_GONE_AFTER_RESTART = 'hook_gone_after_restart';

export class ExternalSessions {
  readonly #core: SupervisorCore;
  readonly #threads: ExternalThreads;
  readonly #timers = new Set<NodeJS.Timeout>();
  /** Approvals restored at open whose hook has not asked again yet → what ends their wait. */
  readonly #reclaiming = new Map<string, () => void>();
  /** Ends the waits of the hooks connected now when the supervisor closes. */
  readonly #closing = new AbortController();

  constructor(core: SupervisorCore) {
    this.#core = core;
    this.#threads = new ExternalThreads(core);
  }

  /**
   * One hook report from `reporter` (a hook token's name). A PermissionRequest resolves with the answer
   * once someone decides, or null once the hook stops waiting; every other event with null at once.
   */
  async report(event: unknown, payload: unknown, reporter: string, wait: HookWait): Promise<HookAnswer> {
    this.#core.checkOpen();
    const report = validateHookReport(event, payload);
    if (report.event === 'PermissionRequest')
      return gateExternal(this.#core, this.#threads, report, reporter, {
        ...wait,
        closing: this.#closing.signal,
        onApproval: (approvalId) => {
          this.#reclaiming.get(approvalId)?.();
          wait.onApproval?.(approvalId);
        },
      });
    if (report.event === 'Stop') {
      const thread = this.#threads.find(report.sessionId, reporter);
      const runId = thread === undefined ? undefined : this.#threads.currentRun(thread.id);
      if (thread !== undefined && runId !== undefined)
        this.#core.commit(thread.id, [
          {
            type: 'run.ended',
            data: { runId, status: 'completed', reason: null, result: null, origin: null },
          },
          { type: 'run.released', data: { runId } },
        ]);
    } else {
      const { thread, runId } = this.#threads.adopt(report, reporter, report.text);
      this.#core.commit(thread.id, [
        report.event === 'UserPromptSubmit'
          ? { type: 'message.user', data: { runId, uuid: this.#core.newId(), text: report.text ?? '' } }
          : {
              type: 'external.notified',
              data: { notificationType: report.notificationType, message: report.text ?? '' },
            },
      ]);
    }
    await this.#core.durable();
    return null;
  }

  /**
   * At open: pending approvals of external sessions wait a while for their hooks to ask again; until
   * then a decision for one of them waits too (as for a re-attached CLI: core.reconciling), then it is
   * closed out (`hook_gone_after_restart`).
   */
  restore(): void {
    const { store } = this.#core;
    const byThread = new Map<string, Promise<void>[]>();
    for (const approval of store.listApprovals({ status: 'pending' })) {
      if (store.getThread(approval.threadId)?.kind !== 'external') continue;
      let reclaimed: () => void = () => undefined;
      const back = new Promise<void>((resolve) => (reclaimed = resolve));
      this.#reclaiming.set(approval.id, reclaimed);
      byThread.set(approval.threadId, [...(byThread.get(approval.threadId) ?? []), back]);
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        this.#reclaiming.delete(approval.id);
        reclaimed();
        if (this.#core.closed || this.#core.waiters.has(approval.id)) return;
        try {
          this.#core.commit(approval.threadId, [
            { type: 'approval.expired', data: { approvalId: approval.id, reason: HOOK_GONE_AFTER_RESTART } },
          ]);
        } catch (error) {
          // Settled meanwhile (answered, or its hook came back and it was decided): that stands.
          if (!(error instanceof ConflictError))
            this.#core.warnFailure(error, `Could not close out approval ${approval.id}`);
        }
      }, RECLAIM_AFTER_RESTART_MS);
      timer.unref();
      this.#timers.add(timer);
    }
    for (const [threadId, waits] of byThread) {
      const settled = Promise.all(waits).then(() => {
        if (this.#core.reconciling.get(threadId) === settled) this.#core.reconciling.delete(threadId);
      });
      this.#core.reconciling.set(threadId, settled);
    }
  }

  /**
   * At close: no close-out timer fires any more (the next open starts them again), and the hooks waiting
   * now are let go of with their approvals pending (they ask the next server).
   */
  stop(): void {
    this.#closing.abort();
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const reclaimed of this.#reclaiming.values()) reclaimed();
    this.#reclaiming.clear();
  }
}
