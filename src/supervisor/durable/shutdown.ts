// What close() does: every live CLI is let go of (a detached one left running for the next host, its
// approvals pending and its runs going on; an idle one with a deadline for its watchdog) or, with
// stopAgents and for piped CLIs, stopped (runs interrupted, approvals cancelled: host_closed). Whatever
// happens there, the rest follows in one place: deadlines stop, the record backlog gets its last try, what
// was committed is made durable and published, iterators end and the store closes. Returns what was left
// running.
import type { SupervisorCore } from '../core.js';
import type { ThreadRuntime } from '../runtime/thread-runtime.js';
import type { CodexThread } from '../agents/codex-thread.js';
import type { CloseResult } from '../types.js';
import type { LeftRunning } from './detached-idle.js';

export async function shutDown(
  core: SupervisorCore,
  runtimes: readonly (ThreadRuntime | CodexThread)[],
  options: { stopAgents: boolean; stopDeadlines: () => void },
): Promise<CloseResult> {
  try {
    const left = await Promise.all(
      runtimes.map((runtime) =>
        options.stopAgents ? runtime.stop('host_closed').then(() => undefined) : runtime.detach(),
      ),
    );
    return { leftRunning: left.filter((entry): entry is LeftRunning => entry !== undefined) };
  } finally {
    options.stopDeadlines();
    // What the store could not take yet gets a last try, and what is left is reported (record-backlog.ts).
    core.backlog.close();
    // What was committed while closing is on disk and published before iterators end (a failure was
    // reported by the publisher).
    await core.durable().catch(() => undefined);
    core.notifier.close();
    core.store.close();
  }
}
