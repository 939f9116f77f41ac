// A Codex agent's permission requests in the supervisor's approval records and inbox: each request goes
// through the gate that sessions Warden did not start use (the thread's policy first, then an approval
// that waits for a decision from the browser, the terminal or the API), keyed by the Codex thread id, and
// the answer comes back as an AgentDecision. A request nobody answered in time is denied and the turn
// stopped: Codex has no terminal of its own to fall back to.
import type { PermissionResult } from '../../protocol/control.js';
import type { HookAnswer, HookWait } from '../external/external-gate.js';
import type { AgentDecision, AgentPermissionHandler } from './agent.js';

/** The part of the Supervisor the bridge needs (Supervisor.reportHook). */
export interface HookReceiver {
  reportHook(event: unknown, payload: unknown, reporter: string, wait: HookWait): Promise<HookAnswer>;
}

export interface CodexInboxOptions {
  /** The Codex thread id (AgentAdapter.conversationId), resolved once the agent has started. */
  readonly conversationId: () => string;
  readonly cwd: string;
  /** Who reports, as the supervisor records it (a decider's name). */
  readonly reporter: string;
  /** How long a request waits for a person; ten minutes by default. */
  readonly waitMs?: number;
  /** Aborts every wait (the agent is stopping). */
  readonly signal?: AbortSignal;
}

/** allow with rules → always (session); deny with interrupt → deny-and-stop; no answer → deny-and-stop. */
export function decisionOf(answer: HookAnswer): AgentDecision {
  if (answer === null) return { behavior: 'deny-and-stop', message: 'No one answered in time.' };
  const result: PermissionResult = answer;
  if (result.behavior === 'allow')
    return (result.updatedPermissions?.length ?? 0) > 0
      ? { behavior: 'always', scope: 'session' }
      : { behavior: 'allow' };
  return result.interrupt === true
    ? { behavior: 'deny-and-stop', message: result.message }
    : { behavior: 'deny', message: result.message };
}

export function codexInboxHandler(
  receiver: HookReceiver,
  options: CodexInboxOptions,
): AgentPermissionHandler {
  return async (request) => {
    const answer = await receiver.reportHook(
      'PermissionRequest',
      {
        session_id: options.conversationId(),
        cwd: options.cwd,
        tool_name: request.toolName,
        tool_input: request.input,
      },
      options.reporter,
      { signal: options.signal ?? new AbortController().signal, waitMs: options.waitMs ?? 600_000 },
    );
    return decisionOf(answer);
  };
}
