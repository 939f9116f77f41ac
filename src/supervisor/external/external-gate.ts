// A permission request from a session Warden did not start, reported by its hook and held open by it:
// the thread's policy first (the same table as every thread's), else an approval that waits for decide()
// while the hook waits. The approval never outlives the wait: when the hook gives up (its wait is over)
// or goes away (the CLI's hook timeout, or its user answered in the terminal, ended it), the approval is
// cancelled saying so, and the CLI asks in its own terminal. A hook that asks again for the same call
// (after a restart of the server) waits on the same approval.
import type { PermissionResult } from '../../protocol/control.js';
import { ConflictError } from '../../protocol/errors.js';
import { alwaysAllowRules } from '../../policy/always-allow.js';
import { compiledPolicyFor, requestVerdict } from '../../policy/policy.js';
import { settledAnswer } from '../approvals/approval-waiters.js';
import { deadlineFor } from '../approvals/deadlines.js';
import { routingFor } from '../approvals/routes.js';
import { effectiveRules } from '../approvals/grants.js';
import type { SupervisorCore } from '../core.js';
import type { ApprovalRecord, ThreadRecord } from '../../store/records.js';
import type { HookReport } from './hook-report.js';
import { hookRequestId, type ExternalThreads } from './external-threads.js';

/** Why an approval of an external session ended without a decision. */
export const HOOK_WAIT_OVER = 'hook_wait_over';
export const TERMINAL_MOVED_ON = 'terminal_moved_on';
const HOST_CLOSING = 'host_closing';

/** The supervisor closed while the hook waited: the hook asks the next one (the approval is pending). */
export class HostClosingError extends ConflictError {
  constructor() {
    super('The server is closing: ask again');
  }
}

/** What the hook is told: the answer, or null (no answer: the CLI asks in its terminal). */
export type HookAnswer = PermissionResult | null;

export interface HookWait {
  /** Aborted when the hook's connection ends. */
  readonly signal: AbortSignal;
  /** How long the hook waits for a person, at most; without it, until someone answers (or it goes away). */
  readonly waitMs?: number;
  /** Told the approval's id once it exists (the hook then knows to ask again if the server goes away). */
  readonly onApproval?: (approvalId: string) => void;
  /** Aborted when the supervisor closes: the approval stays pending for the hook to ask the next one. */
  readonly closing?: AbortSignal;
}

export async function gateExternal(
  core: SupervisorCore,
  threads: ExternalThreads,
  report: HookReport,
  reporter: string,
  wait: HookWait,
): Promise<HookAnswer> {
  const toolName = report.toolName ?? '';
  const input = report.toolInput ?? {};
  const firstAsk = `${toolName}: ${typeof input.command === 'string' ? input.command : typeof input.file_path === 'string' ? input.file_path : ''}`;
  const { thread, runId } = threads.adopt(report, reporter, firstAsk);
  const requestId = hookRequestId(report.sessionId, toolName, input);
  return gateRequest(
    core,
    { thread, runId, toolName, input, requestId, suggestions: report.suggestions },
    wait,
  );
}

/** A permission request of a thread whose agent Warden does not hold a control channel to. */
export interface GatedRequest {
  readonly thread: ThreadRecord;
  readonly runId: string;
  readonly toolName: string;
  readonly input: Record<string, unknown>;
  /** The same id for the same request asked again (after a restart): it waits on the same approval. */
  readonly requestId: string;
  readonly suggestions: ApprovalRecord['suggestions'];
  /**
   * The calls the policy judges instead of the request itself, the strictest verdict standing: each file
   * of a change of several, so that a protected path second in the list is seen.
   */
  readonly parts?: readonly { readonly toolName: string; readonly input: Record<string, unknown> }[];
  /** The policy's allow is not enough (the call runs where its rules were not judged): a person is asked. */
  readonly askUnlessDenied?: boolean;
}

/**
 * The thread's policy first (no sandbox of Warden's holds around such an agent), else an approval that
 * waits for decide() while `wait` lasts: an external session's hook, or a Codex thread's request.
 */
export async function gateRequest(
  core: SupervisorCore,
  request: GatedRequest,
  wait: HookWait,
): Promise<HookAnswer> {
  const { thread, runId, toolName, input, requestId } = request;
  // Asked again for a call whose approval waits (the server restarted under the hook): the same one.
  const waiting = core.store
    .listApprovals({ threadId: thread.id, status: 'pending' })
    .find((approval) => approval.requestId === requestId);
  if (waiting !== undefined && !core.waiters.has(waiting.id))
    return awaitDecision(core, thread.id, waiting.id, input, wait);

  // No sandbox of Warden's holds around this agent, whatever this host's own CLIs run in.
  const policy = compiledPolicyFor(thread.mode, effectiveRules(thread), thread.cwd, false);
  const decided = strictest(
    (request.parts ?? [{ toolName, input }]).map((part) =>
      requestVerdict(policy, part.toolName, part.input, {}),
    ),
  );
  const { verdict } = decided;
  // Judged somewhere the policy did not see (another working directory): it may deny, never allow.
  const allowedUnseen = verdict.behavior === 'allow' && request.askUnlessDenied === true;
  if (verdict.behavior !== 'ask' && !allowedUnseen) {
    const events = core.commit(thread.id, [
      {
        type: 'permission.decided',
        data: {
          runId,
          subagentId: null,
          toolName,
          input,
          // The CLI names no tool call to a PermissionRequest hook: each request gets an id of its own.
          toolUseId: `hook:${core.newId()}`,
          behavior: verdict.behavior,
          source: verdict.source,
          rule: verdict.rule,
          reason: verdict.reason,
        },
      },
    ]);
    await core.whenDurable(events);
    return verdict.behavior === 'allow'
      ? { behavior: 'allow', updatedInput: input }
      : { behavior: 'deny', message: `Denied by the supervisor's policy: ${verdict.reason}` };
  }

  const approvalId = core.newId();
  core.commit(thread.id, [
    {
      type: 'approval.requested',
      data: {
        approvalId,
        runId,
        subagentId: null,
        toolName,
        input,
        toolUseId: `hook:${approvalId}`,
        requestId,
        suggestions: request.suggestions,
        // A request of several parts (files) has no one rule as narrow as all of it: allowed once only.
        alwaysAllowRules:
          (request.parts?.length ?? 1) > 1
            ? []
            : alwaysAllowRules({ toolName, input, cwd: thread.cwd, blockedPath: null, suggestions: [] }),
        blockedPath: null,
        decisionReason: null,
        generation: 0,
        deadline: deadlineFor(thread.deadlines, {
          toolName,
          input,
          cwd: thread.cwd,
          guarded: decided.step === 'protected-write',
        }),
        routing: routingFor(
          core.options.routes,
          {
            toolName,
            input,
            cwd: thread.cwd,
            guarded: decided.step === 'protected-write',
          },
          core.options.routeClock.now(),
        ),
      },
    },
  ]);
  return awaitDecision(core, thread.id, approvalId, input, wait);
}

const SEVERITY = { allow: 0, ask: 1, deny: 2 } as const;

/** The strictest of the verdicts (deny, then ask, then allow); the first of its kind stands. */
function strictest<T extends { verdict: { behavior: 'allow' | 'ask' | 'deny' } }>(verdicts: T[]): T {
  const [first, ...rest] = verdicts;
  if (first === undefined) throw new TypeError('a request has at least one part to judge');
  return rest.reduce(
    (worst, next) => (SEVERITY[next.verdict.behavior] > SEVERITY[worst.verdict.behavior] ? next : worst),
    first,
  );
}

/** Waits for decide(), the end of the hook's wait, or the hook going away; whichever comes first. */
async function awaitDecision(
  core: SupervisorCore,
  threadId: string,
  approvalId: string,
  input: Record<string, unknown>,
  wait: HookWait,
): Promise<HookAnswer> {
  const answer = core.waiters.wait(approvalId, input);
  await core.durable();
  wait.onApproval?.(approvalId);
  let timer: NodeJS.Timeout | undefined;
  const ended = new AbortController();
  const givenUp = new Promise<string>((resolve) => {
    if (wait.waitMs !== undefined) timer = setTimeout(() => resolve(HOOK_WAIT_OVER), wait.waitMs);
    const on = (signal: AbortSignal | undefined, reason: string): void => {
      if (signal?.aborted === true) resolve(reason);
      else signal?.addEventListener('abort', () => resolve(reason), { once: true, signal: ended.signal });
    };
    on(wait.signal, TERMINAL_MOVED_ON);
    on(wait.closing, HOST_CLOSING);
  });
  try {
    const first = await Promise.race([answer.then((result) => ({ result })), givenUp]);
    if (typeof first !== 'string') return answered(core, approvalId, first.result);
    if (first === HOST_CLOSING) {
      // Nothing is recorded: the approval waits, pending, for the hook to ask the next server.
      core.waiters.abandon(approvalId, { behavior: 'deny', message: 'The server closed' });
      throw new HostClosingError();
    }
    return closeOut(core, threadId, approvalId, input, first);
  } finally {
    clearTimeout(timer);
    ended.abort();
  }
}

/** The hook stopped waiting: the approval is cancelled, unless a decision got there first. */
async function closeOut(
  core: SupervisorCore,
  threadId: string,
  approvalId: string,
  input: Record<string, unknown>,
  reason: string,
): Promise<HookAnswer> {
  try {
    core.commit(threadId, [{ type: 'approval.cancelled', data: { approvalId, reason } }]);
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    // Decided at the same moment: that decision stands and is what the hook is told.
    const settled = core.store.getApproval(approvalId);
    core.waiters.abandon(approvalId, { behavior: 'deny', message: 'The hook stopped waiting' });
    await core.durable();
    return settled === undefined ? null : answered(core, approvalId, settledAnswer(settled, input));
  }
  core.waiters.abandon(approvalId, { behavior: 'deny', message: 'The hook stopped waiting' });
  await core.durable();
  return null;
}

/** A cancellation or expiry is no answer (the CLI asks its user); a decision is passed on. */
function answered(core: SupervisorCore, approvalId: string, result: PermissionResult): HookAnswer {
  const status = core.store.getApproval(approvalId)?.status;
  return status === 'allowed' || status === 'denied' ? result : null;
}
