// What has to be written when a thread's CLI process is gone (stopped, died, or the host restarted): every
// pending approval settled, every running subagent and unfinished run ended, every run context released,
// the session ended. One list of drafts, committed in one transaction, so nothing stays `pending` with no
// one able to answer it.
import type { EventDraft } from '../../store/event-types.js';
import type { Store } from '../../store/store.js';

export interface CloseoutOptions {
  /** Recorded on everything this ends: `thread_stopped`, `process_exited`, `host_restart`, `host_closed`. */
  reason: string;
  /** `expired` after a restart (nobody could answer them any more); `cancelled` otherwise. */
  approvals: 'cancelled' | 'expired';
  /** `stopped` when we stopped the thread; `lost` when the process vanished under them. */
  subagents: 'stopped' | 'lost';
  /** What ended the process, for the session.ended event. */
  error?: string | null;
}

export function closeoutDrafts(store: Store, threadId: string, options: CloseoutOptions): EventDraft[] {
  const thread = store.getThread(threadId);
  if (thread === undefined) return [];
  const { reason } = options;
  const drafts: EventDraft[] = [];
  for (const approval of store.listApprovals({ threadId, status: 'pending' })) {
    const type = options.approvals === 'expired' ? 'approval.expired' : 'approval.cancelled';
    drafts.push({ type, data: { approvalId: approval.id, reason } });
  }
  for (const subagent of store.listSubagents(threadId)) {
    if (subagent.status !== 'running') continue;
    drafts.push({
      type: 'subagent.ended',
      data: { subagentId: subagent.id, status: options.subagents, summary: null, reason },
    });
  }
  for (const run of store.listRuns(threadId)) {
    if (run.status === 'queued' || run.status === 'running')
      drafts.push({
        type: 'run.ended',
        data: { runId: run.id, status: 'interrupted', reason, result: null, origin: null },
      });
    if (run.releasedAt === null) drafts.push({ type: 'run.released', data: { runId: run.id } });
  }
  if (thread.status !== 'idle' && thread.status !== 'parked')
    drafts.push({
      type: 'session.ended',
      data: { generation: thread.generation, reason, error: options.error ?? null },
    });
  return drafts;
}

export interface RecoverySummary {
  threads: number;
  runsInterrupted: number;
  approvalsExpired: number;
  subagentsLost: number;
}

/**
 * After a crash of the host: runs that were not finished become `interrupted` (reason `host_restart`),
 * pending approvals `expired`, running subagents `lost`, live sessions ended. One transaction per thread.
 * The threads in `keep` are left as they are: their CLI still runs and a host re-attaches to it.
 */
export function recoverAfterCrash(store: Store, keep: ReadonlySet<string> = new Set()): RecoverySummary {
  const summary: RecoverySummary = { threads: 0, runsInterrupted: 0, approvalsExpired: 0, subagentsLost: 0 };
  for (const thread of store.listThreads()) {
    // An external session's CLI never ran here: its hook asks again (external-restore.ts).
    if (keep.has(thread.id) || thread.kind === 'external') continue;
    const drafts = closeoutDrafts(store, thread.id, {
      reason: 'host_restart',
      approvals: 'expired',
      subagents: 'lost',
    });
    if (drafts.length === 0) continue;
    store.commit(thread.id, drafts);
    summary.threads += 1;
    for (const draft of drafts) {
      if (draft.type === 'run.ended') summary.runsInterrupted += 1;
      if (draft.type === 'approval.expired') summary.approvalsExpired += 1;
      if (draft.type === 'subagent.ended') summary.subagentsLost += 1;
    }
  }
  return summary;
}
