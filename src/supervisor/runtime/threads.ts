// The threads as the other parts of the supervisor find them: the record (named by its first prompt when
// nobody named it), its approvals, and its ThreadRuntime, made on first use. Unknown ids are NotFoundErrors.
import { NotFoundError } from '../../protocol/errors.js';
import type { StoredEvent } from '../../store/event-types.js';
import type { ApprovalRecord, ThreadRecord } from '../../store/records.js';
import type { SupervisorCore } from '../core.js';
import type { ThreadView } from '../types.js';
import { validateId } from '../validate.js';
import { ThreadRuntime } from './thread-runtime.js';
import { titleFromPrompt } from './thread-title.js';

export class Threads {
  readonly #core: SupervisorCore;
  readonly #runtimes = new Map<string, ThreadRuntime>();

  constructor(core: SupervisorCore) {
    this.#core = core;
  }

  /** The thread's runtime, made on first use; the thread must exist. */
  runtime(threadId: string): ThreadRuntime {
    validateId(threadId, 'threadId');
    this.thread(threadId);
    let runtime = this.#runtimes.get(threadId);
    if (runtime === undefined) {
      runtime = new ThreadRuntime(this.#core, threadId);
      this.#runtimes.set(threadId, runtime);
    }
    return runtime;
  }

  /** Every runtime made so far (close() lets go of each). */
  runtimes(): ThreadRuntime[] {
    return [...this.#runtimes.values()];
  }

  /** How many CLIs this host runs now. */
  liveClis(): number {
    let count = 0;
    for (const runtime of this.#runtimes.values()) if (runtime.live !== undefined) count += 1;
    return count;
  }

  /** Anything recorded for a thread starts its idle period again (idle-park.ts). */
  noteActivity(events: readonly StoredEvent[]): void {
    let last: string | undefined;
    for (const { threadId } of events)
      if (threadId !== last) this.#runtimes.get((last = threadId))?.noteActivity();
  }

  thread(threadId: string): ThreadRecord {
    const thread = this.#core.store.getThread(threadId);
    if (thread === undefined)
      throw new NotFoundError('thread', threadId, `Unknown thread ${JSON.stringify(threadId)}`);
    return this.titled(thread);
  }

  /** A thread from before titles were recorded is named by its first prompt, as a new one would be. */
  titled(thread: ThreadRecord): ThreadRecord {
    if (thread.title !== null) return thread;
    const prompt = this.#core.store.listRuns(thread.id).find((run) => run.prompt !== null)?.prompt;
    return { ...thread, title: prompt === undefined || prompt === null ? null : titleFromPrompt(prompt) };
  }

  /** The thread with its runs, subagents and approvals. */
  view(threadId: string): ThreadView {
    const thread = this.thread(threadId);
    const { store } = this.#core;
    return {
      thread,
      runs: store.listRuns(threadId),
      subagents: store.listSubagents(threadId),
      approvals: store.listApprovals({ threadId }),
    };
  }

  /** Whether the thread has a run queued or running, or a subagent at work (on whichever host runs it). */
  isBusy(threadId: string): boolean {
    const { store } = this.#core;
    return (
      store.listRuns(threadId).some((run) => run.status === 'queued' || run.status === 'running') ||
      store.listSubagents(threadId).some((subagent) => subagent.status === 'running')
    );
  }

  approval(approvalId: string): ApprovalRecord {
    const approval = this.#core.store.getApproval(approvalId);
    if (approval === undefined)
      throw new NotFoundError('approval', approvalId, `Unknown approval ${JSON.stringify(approvalId)}`);
    return approval;
  }
}
