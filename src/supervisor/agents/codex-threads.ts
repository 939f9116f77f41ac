// The threads of this host whose agent is Codex: each one's runtime (codex-thread.ts), made on first use,
// joined again at open when an earlier host left its app-server running, and let go of (or stopped) at
// close as a Claude thread's CLI is.
import type { SupervisorCore } from '../core.js';
import type { DetachedProcess } from '../durable/detached-cli.js';
import { CodexThread, type CodexLaunch } from './codex-thread.js';

export class CodexThreads {
  readonly #core: SupervisorCore;
  readonly #launch: CodexLaunch;
  readonly #threads = new Map<string, CodexThread>();

  constructor(core: SupervisorCore, launch: CodexLaunch) {
    this.#core = core;
    this.#launch = launch;
  }

  /** The thread's runtime (the thread must exist and run Codex: the caller checks). */
  runtime(threadId: string): CodexThread {
    let thread = this.#threads.get(threadId);
    if (thread === undefined) {
      thread = new CodexThread(this.#core, threadId, this.#launch);
      this.#threads.set(threadId, thread);
    }
    return thread;
  }

  /**
   * Joins the app-server an earlier host left. Until it has asked again for what it still waits on, a
   * decision for the thread's approvals waits (core.reconciling), as for a re-attached Claude CLI.
   */
  attach(threadId: string, cli: DetachedProcess): void {
    const settled: Promise<void> = this.runtime(threadId)
      .attach(cli)
      .catch((error: unknown) =>
        this.#core.warnFailure(error, `Could not reconcile Codex thread ${threadId}`),
      )
      .finally(() => {
        if (this.#core.reconciling.get(threadId) === settled) this.#core.reconciling.delete(threadId);
      });
    this.#core.reconciling.set(threadId, settled);
  }

  /** Every runtime made so far (close() lets go of each). */
  runtimes(): CodexThread[] {
    return [...this.#threads.values()];
  }
}
