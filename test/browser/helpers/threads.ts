// Setting up threads without the UI, for tests whose subject is what comes after.
import type { SupervisorEvent } from '../../../src/supervisor/index.js';
import type { Warden } from './warden.js';

/** Starts a thread with `prompt` and resolves with its first approval request once it is pending. */
export async function threadWaitingForApproval(
  warden: Warden,
  prompt: string,
): Promise<{ threadId: string; approvalId: string }> {
  const thread = await warden.supervisor.createThread({ cwd: warden.scratch.cwd, mode: 'supervised' });
  await warden.supervisor.send(thread.id, prompt);
  const requested = (await warden.waitForEvent(
    (e) => e.type === 'approval.requested' && e.threadId === thread.id,
  )) as Extract<SupervisorEvent, { type: 'approval.requested' }>;
  return { threadId: thread.id, approvalId: requested.data.approvalId };
}

/** Resolves once the thread's run has ended after the given approval (the CLI got its answer). */
export async function runEnded(warden: Warden, threadId: string): Promise<void> {
  await warden.waitForEvent((e) => e.type === 'run.ended' && e.threadId === threadId);
}
