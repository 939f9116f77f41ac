// What a LiveSession knew about its CLI process, rebuilt from the store for a host that re-attaches to a
// process an earlier host left: the turns in progress and queued, the running subagents and the runs that
// own them, the contexts of runs not yet released, the CLI's session id, and the approvals the process
// asked for. The store holds exactly the effects of the frames processed up to the committed spool offset,
// so the rebuilt state is the one the next frame expects.
import type { ApprovalRecord, RunRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import type { TrackerSnapshot } from './turn-tracker.js';

export interface SessionSnapshot {
  readonly tracker: TrackerSnapshot;
  /** Running subagents of the process, with the run that owns each. */
  readonly subagents: readonly { readonly subagentId: string; readonly runId: string }[];
  /** Runs not released yet, with whether they ended. */
  readonly contexts: readonly { readonly runId: string; readonly ended: boolean }[];
  readonly sessionId: string | null;
  /** Every approval the process asked for, pending or settled: a request that comes again is one of them. */
  readonly approvals: readonly ApprovalRecord[];
}

const OPEN = new Set<RunRecord['status']>(['queued', 'running']);

export function snapshotSession(store: Store, threadId: string, generation: number): SessionSnapshot {
  const runs = store.listRuns(threadId).filter((run) => run.generation === generation);
  const hostRuns = runs.flatMap((run) =>
    OPEN.has(run.status) && run.userMessageId !== null
      ? [{ uuid: run.userMessageId, runId: run.id, announced: run.status === 'running' }]
      : [],
  );
  // One turn runs at a time: the running run is the turn in progress (or the message sent while the CLI
  // was idle, whose turn is about to begin: its init then changes nothing).
  const running = runs.find((run) => run.status === 'running');
  const current =
    running === undefined ? undefined : { runId: running.id, cli: running.userMessageId === null };
  const lastRunId = runs.filter((run) => run.startedAt !== null).at(-1)?.id;
  const subagents = store
    .listSubagents(threadId)
    .filter((subagent) => subagent.status === 'running' && subagent.generation === generation)
    .map((subagent) => ({ subagentId: subagent.id, runId: subagent.runId }));
  const contexts = runs
    .filter((run) => run.releasedAt === null)
    .map((run) => ({ runId: run.id, ended: !OPEN.has(run.status) }));
  const approvals = store
    .listApprovals({ threadId })
    .filter((approval) => approval.generation === generation);
  return {
    tracker: {
      hostRuns,
      ...(current === undefined ? {} : { current }),
      ...(lastRunId === undefined ? {} : { lastRunId }),
    },
    subagents,
    contexts,
    sessionId: store.getThread(threadId)?.sessionId ?? null,
    approvals,
  };
}
