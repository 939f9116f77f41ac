// The threads of sessions Warden did not start: found by the CLI's session id, made on the first hook
// report of the session (titled after its first prompt, or its first request), each turn a run of its own
// (from the first report of the turn to its `Stop`). The reporter, the hook token that adopted the
// session, is kept: only it may wait on the session's approvals.
import { createHash } from 'node:crypto';

import { ConflictError } from '../../protocol/errors.js';
import type { EventDraft } from '../../store/event-types.js';
import type { ThreadRecord } from '../../store/records.js';
import type { SupervisorCore } from '../core.js';
import { titleFromPrompt } from '../runtime/thread-title.js';
import type { HookReport } from './hook-report.js';

export interface Adopted {
  readonly thread: ThreadRecord;
  /** The run of the turn in progress (made now when none was). */
  readonly runId: string;
}

export class ExternalThreads {
  readonly #core: SupervisorCore;
  /** CLI session id → thread id, and thread id → its reporter, filled from the store on first use. */
  #bySession: Map<string, string> | undefined;
  readonly #reporters = new Map<string, string>();

  constructor(core: SupervisorCore) {
    this.#core = core;
  }

  /** The session's thread, if it was adopted; refuses a reporter that is not the one that adopted it. */
  find(sessionId: string, reporter: string): ThreadRecord | undefined {
    const threadId = this.#index().get(sessionId);
    if (threadId === undefined) return undefined;
    if (this.#reporterOf(threadId) !== reporter)
      throw new ConflictError(`Session ${sessionId} was adopted through another hook token`);
    return this.#core.store.getThread(threadId);
  }

  /** The session's thread and the run of its turn in progress, made as needed (titled by `title`). */
  adopt(report: HookReport, reporter: string, title: string | null): Adopted {
    const found = this.find(report.sessionId, reporter);
    const drafts: EventDraft[] = [];
    const threadId = found?.id ?? this.#core.newId();
    if (found === undefined) {
      drafts.push({
        type: 'thread.created',
        data: {
          cwd: report.cwd,
          mode: 'supervised',
          model: null,
          rules: { allow: [], deny: [] },
          external: { sessionId: report.sessionId, reporter },
        },
      });
      const titled = title === null ? null : titleFromPrompt(title);
      if (titled !== null) drafts.push({ type: 'thread.titled', data: { title: titled, source: 'prompt' } });
    }
    let runId = found === undefined ? undefined : this.currentRun(found.id);
    if (runId === undefined) {
      runId = this.#core.newId();
      drafts.push({
        type: 'run.created',
        data: {
          runId,
          status: 'running',
          trigger: 'external',
          prompt: report.event === 'UserPromptSubmit' ? report.text : null,
          userMessageId: null,
          generation: 0,
        },
      });
    }
    if (drafts.length > 0) this.#core.commit(threadId, drafts);
    if (found === undefined) {
      this.#index().set(report.sessionId, threadId);
      this.#reporters.set(threadId, reporter);
    }
    const thread = this.#core.store.getThread(threadId);
    if (thread === undefined) throw new ConflictError(`Thread ${threadId} vanished while it was adopted`);
    return { thread, runId };
  }

  /** The turn in progress of an external thread: its running run. */
  currentRun(threadId: string): string | undefined {
    return this.#core.store.listRuns(threadId).find((run) => run.status === 'running')?.id;
  }

  #index(): Map<string, string> {
    if (this.#bySession === undefined) {
      this.#bySession = new Map();
      for (const thread of this.#core.store.listThreads())
        if (thread.kind === 'external' && thread.sessionId !== null)
          this.#bySession.set(thread.sessionId, thread.id);
    }
    return this.#bySession;
  }

  #reporterOf(threadId: string): string | undefined {
    let reporter = this.#reporters.get(threadId);
    if (reporter === undefined) {
      const [created] = this.#core.store.readEvents({ threadId, limit: 1 });
      reporter = created?.type === 'thread.created' ? created.data.external?.reporter : undefined;
      if (reporter !== undefined) this.#reporters.set(threadId, reporter);
    }
    return reporter;
  }
}

/**
 * The request id of a hook's permission request: the CLI gives none, so the same call of the same session
 * gets the same id (a hook that asks again after a restart finds its approval under it).
 */
export function hookRequestId(sessionId: string, toolName: string, input: Record<string, unknown>): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([sessionId, toolName, input]))
    .digest('hex');
  return `hook-${digest.slice(0, 32)}`;
}
