// A permission request from the CLI, start to end: is it still honourable, which run owns it, what the
// policy says, and otherwise an approval that waits for decide() or for the request to be withdrawn.
// Every outcome is recorded; every refusal says which condition failed. A verdict and an approval are in
// the log before the CLI hears anything: while the store cannot write, the request waits (durable-commit.ts).
import { setImmediate as nextTurn } from 'node:timers/promises';

import type { PermissionResult } from '../../protocol/control.js';
import { AbortError, ConflictError, ProtocolError, StoreError, WardenError } from '../../protocol/errors.js';
import { excerptOf } from '../../protocol/validate.js';
import type { CanUseTool } from '../../session/options.js';
import type { RejectCondition } from '../../store/event-types.js';
import type { ApprovalDeadline, ApprovalRecord, ApprovalRouting } from '../../store/records.js';
import type { SupervisorCore } from '../core.js';
import { alwaysAllowRules } from '../../policy/always-allow.js';
import { commitWhenPossible } from '../durable/durable-commit.js';
import { answerOnceDurable } from '../durable/durable-publish.js';
import { settledAnswer } from './approval-waiters.js';
import type { LiveSession } from '../runtime/live-session.js';
import { requestVerdict, type CompiledPolicy } from '../../policy/policy.js';
import { twoPersonReason } from '../../policy/two-person.js';
import { permissionRequestProblem } from './validate.js';

/** What the gate needs to know about the thread the request came to. */
export interface GateHost {
  readonly threadId: string;
  /** The thread's working directory (relative paths in a request are resolved against it). */
  cwd(): string;
  /** Is `session` the thread's current CLI process (not one it replaced)? */
  isCurrent(session: LiveSession): boolean;
  isStopping(): boolean;
  policy(): CompiledPolicy;
  /**
   * When a new approval for this call is answered by itself, if ever (the thread's deadlines). `guarded`:
   * the policy asked because the call writes a protected or sensitive file, so no deadline allows it.
   */
  deadlineFor(
    toolName: string,
    input: Record<string, unknown>,
    options: { guarded: boolean },
  ): ApprovalDeadline | null;
  /** Its risks and the escalation of the route that covers it (routes.ts). */
  routingFor(
    toolName: string,
    input: Record<string, unknown>,
    options: { guarded: boolean },
  ): ApprovalRouting;
}

type Context = Parameters<CanUseTool>[2];

interface Owner {
  runId: string | undefined;
  subagentId: string | null;
  /** The asking subagent is known and no longer running. */
  subagentEnded: boolean;
}

function ownerOf(session: LiveSession, agentId: string | undefined): Owner | undefined {
  if (agentId === undefined) {
    const runId = session.tracker.currentRunId ?? session.tracker.lastRunId;
    return {
      runId: runId !== undefined && session.contexts.has(runId) ? runId : undefined,
      subagentId: null,
      subagentEnded: false,
    };
  }
  const subagent = session.subagents.get(agentId);
  if (subagent !== undefined)
    return { runId: subagent.runId, subagentId: agentId, subagentEnded: !subagent.running };
  // Not a background task: a foreground subagent works inside the turn in progress.
  const current = session.tracker.currentRunId;
  return current === undefined ? undefined : { runId: current, subagentId: null, subagentEnded: false };
}

function refusal(
  host: GateHost,
  session: LiveSession,
  signal: AbortSignal,
  owner: Owner | undefined,
  agentId: string | undefined,
): { condition: RejectCondition; message: string } | undefined {
  if (!host.isCurrent(session))
    return {
      condition: 'stale_process',
      message: `Denied: the request came from a CLI process (generation ${session.generation}) that this thread has replaced`,
    };
  if (host.isStopping() || session.endReason !== undefined)
    return { condition: 'thread_stopping', message: 'Denied: the thread is stopping' };
  if (signal.aborted)
    return { condition: 'aborted', message: 'Denied: the CLI withdrew the request before it was handled' };
  if (owner?.subagentEnded === true)
    return {
      condition: 'subagent_not_running',
      message: `Denied: subagent ${agentId ?? ''} is no longer running`,
    };
  if (owner?.runId === undefined)
    return {
      condition: 'no_owner',
      message: `Denied: no live run of this thread can own the request${agentId === undefined ? '' : ` (unknown agent ${agentId})`}`,
    };
  return undefined;
}

/** Why a waiting approval ends when the CLI's request aborts. */
function cancelReason(
  session: LiveSession,
  runId: string,
  subagentId: string | null,
  cause: unknown,
): string {
  if (session.interrupting.has(runId)) return 'interrupted';
  if (session.endReason !== undefined) return session.endReason;
  if (subagentId !== null && session.stoppingSubagents.has(subagentId)) return 'subagent_stopped';
  return cause instanceof AbortError ? 'withdrawn' : 'process_exited';
}

/** A request that cannot be shown or answered for a known call: denied, logged and reported, never asked. */
function rejectMalformed(
  core: SupervisorCore,
  host: GateHost,
  session: LiveSession,
  request: { toolName: unknown; toolUseID: unknown; problem: string },
): PermissionResult {
  const message = `Denied: the permission request was malformed (${request.problem})`;
  core.warn(
    new ProtocolError(
      `A malformed permission request was denied (${request.problem})`,
      excerptOf({ tool_name: request.toolName, tool_use_id: request.toolUseID }),
    ),
  );
  core.record(host.threadId, [
    {
      type: 'permission.rejected',
      data: {
        runId: null,
        subagentId: null,
        toolName: typeof request.toolName === 'string' ? request.toolName : '',
        toolUseId: typeof request.toolUseID === 'string' ? request.toolUseID : '',
        generation: session.generation,
        condition: 'malformed_request',
        message,
      },
    },
  ]);
  return { behavior: 'deny', message };
}

export async function gatePermission(
  core: SupervisorCore,
  host: GateHost,
  session: LiveSession,
  toolName: string,
  input: Record<string, unknown>,
  context: Context,
): Promise<PermissionResult> {
  const { signal, agentID, toolUseID, requestId } = context;
  const problem = permissionRequestProblem(toolName, input, toolUseID);
  // Every answer that rests on a change goes out once the change is on disk (durable-publish.ts).
  const once = (answer: PermissionResult, ready = core.durable()): Promise<PermissionResult> =>
    answerOnceDurable(ready, answer, signal, () => withdrawn(session));
  if (problem !== undefined)
    return once(rejectMalformed(core, host, session, { toolName, toolUseID, problem }));
  // A request the CLI sends again to a host that re-attached: the approval made for it stands.
  const stored = session.attached ? session.storedApproval(requestId, toolUseID) : undefined;
  if (stored !== undefined) return answerStored(core, host, session, stored, input, signal);
  let owner = ownerOf(session, agentID);
  // A request and the frames before it (the turn's init, the task_started) travel different paths: the
  // control channel dispatches at once, messages queue for our reader. If the owner is not known yet,
  // one turn of the event loop lets the reader catch up with what the CLI wrote before the request.
  if (owner?.runId === undefined || (agentID !== undefined && !session.subagents.has(agentID))) {
    await nextTurn();
    owner = ownerOf(session, agentID);
  }
  // The host let go of the CLI meanwhile: the answer would never reach it, and the CLI asks the next host,
  // so nothing is recorded (neither a refusal nor a decision it never heard).
  if (session.detaching) return { behavior: 'deny', message: 'Denied: the host detached' };
  const refused = refusal(host, session, signal, owner, agentID);
  if (refused !== undefined || owner?.runId === undefined) {
    const { condition, message } = refused ?? { condition: 'no_owner' as const, message: 'Denied: no owner' };
    core.record(host.threadId, [
      {
        type: 'permission.rejected',
        data: {
          runId: owner?.runId ?? null,
          subagentId: owner?.subagentId ?? null,
          toolName,
          toolUseId: toolUseID,
          generation: session.generation,
          condition,
          message,
        },
      },
    ]);
    return once({ behavior: 'deny', message });
  }
  const { runId, subagentId } = { runId: owner.runId, subagentId: owner.subagentId };

  // The one function a simulation over the log asks too (policy/simulate.ts): the two cannot differ.
  const cli = { decisionReason: context.decisionReason, blockedPath: context.blockedPath };
  const policy = host.policy();
  const decided = requestVerdict(policy, toolName, input, cli);
  const { verdict } = decided;
  const twoPerson = twoPersonReason(core.options.twoPerson, { policy, toolName, input, step: decided.step });
  // A protected or CLI-sensitive write is a person's to allow, a two-person one two people's: no deadline
  // may allow it for them.
  const guarded = decided.step === 'protected-write' || twoPerson !== null;
  // The host lets go of the process meanwhile: the request is the next host's to answer.
  const wanted = (): boolean => !session.detaching;
  if (verdict.behavior !== 'ask') {
    // The CLI acts on the verdict the moment it hears it: it is in the log first.
    const recorded = await commitWhenPossible(
      core,
      host.threadId,
      [
        {
          type: 'permission.decided',
          data: {
            runId,
            subagentId,
            toolName,
            input,
            toolUseId: toolUseID,
            behavior: verdict.behavior,
            source: verdict.source,
            rule: verdict.rule,
            reason: verdict.reason,
            // What the CLI said when it asked, for a later simulation of this request.
            ...(typeof cli.decisionReason === 'string' ? { decisionReason: cli.decisionReason } : {}),
            ...(typeof cli.blockedPath === 'string' ? { blockedPath: cli.blockedPath } : {}),
          },
        },
      ],
      signal,
      wanted,
    );
    if (recorded === undefined) return withdrawn(session);
    return once(
      verdict.behavior === 'allow'
        ? { behavior: 'allow', updatedInput: input }
        : { behavior: 'deny', message: `Denied by the supervisor's policy: ${verdict.reason}` },
      core.whenDurable(recorded),
    );
  }

  const approvalId = core.newId();
  const suggestions = context.suggestions ?? [];
  const blockedPath = context.blockedPath ?? null;
  const rules = alwaysAllowRules({ toolName, input, cwd: host.cwd(), blockedPath, suggestions });
  const recorded = await commitWhenPossible(
    core,
    host.threadId,
    [
      {
        type: 'approval.requested',
        data: {
          approvalId,
          runId,
          subagentId,
          toolName,
          input,
          toolUseId: toolUseID,
          requestId,
          suggestions,
          alwaysAllowRules: rules,
          blockedPath,
          decisionReason: context.decisionReason ?? null,
          generation: session.generation,
          deadline: host.deadlineFor(toolName, input, { guarded }),
          routing: host.routingFor(toolName, input, { guarded }),
          twoPerson,
        },
      },
    ],
    signal,
    wanted,
  );
  // Withdrawn before it could be recorded: no approval exists, so none is left pending.
  if (recorded === undefined) return withdrawn(session);
  return awaitDecision(core, host, session, { approvalId, runId, subagentId, input }, signal);
}

/** The answer to a request that ended while its record waited for the store: nobody reads it. */
function withdrawn(session: LiveSession): PermissionResult {
  return {
    behavior: 'deny',
    message: session.detaching ? 'Denied: the host detached' : 'The request was withdrawn',
  };
}

/**
 * A re-delivered request whose approval the store has: a pending one is waited on again under its id,
 * routed to its run as before; a settled one (the earlier host died before the CLI heard) is answered
 * as it was settled.
 */
function answerStored(
  core: SupervisorCore,
  host: GateHost,
  session: LiveSession,
  stored: ApprovalRecord,
  input: Record<string, unknown>,
  signal: AbortSignal,
): Promise<PermissionResult> {
  const current = core.store.getApproval(stored.id) ?? stored;
  session.claim(stored.id);
  // Settled a moment ago, perhaps: the answer waits until that is on disk.
  if (current.status !== 'pending')
    return answerOnceDurable(core.durable(), settledAnswer(current, input), signal, () => withdrawn(session));
  const { id: approvalId, runId, subagentId } = current;
  return awaitDecision(core, host, session, { approvalId, runId, subagentId, input }, signal);
}

/** Waits for decide() or a cancellation; the CLI withdrawing the request cancels the approval. */
async function awaitDecision(
  core: SupervisorCore,
  host: GateHost,
  session: LiveSession,
  request: { approvalId: string; runId: string; subagentId: string | null; input: Record<string, unknown> },
  signal: AbortSignal,
): Promise<PermissionResult> {
  const { approvalId, runId, subagentId, input } = request;
  const answer = core.waiters.wait(approvalId, input);
  const onAbort = (): void => {
    if (session.detaching) {
      // The host lets go of a CLI that lives on: the request stays pending for the next host.
      core.waiters.abandon(approvalId, { behavior: 'deny', message: 'The host detached' });
      return;
    }
    const reason = cancelReason(session, runId, subagentId, signal.reason);
    const withdrawnAnswer: PermissionResult = {
      behavior: 'deny',
      message: `The request was withdrawn (${reason})`,
    };
    try {
      core.commit(host.threadId, [{ type: 'approval.cancelled', data: { approvalId, reason } }]);
    } catch (error) {
      if (error instanceof ConflictError) {
        // Already settled (decided, or cancelled by interrupt/stop first): the first change stands, and
        // its answer, not a withdrawal, ends the call once it is on disk (the publisher gives it then;
        // this only makes sure the call ends). Nobody reads it, but what was said matches the log.
        const settled = core.store.getApproval(approvalId);
        void core.durable().then(
          () => core.waiters.abandon(approvalId, settled ? settledAnswer(settled, input) : withdrawnAnswer),
          () => core.waiters.abandon(approvalId, withdrawnAnswer),
        );
        return;
      }
      core.warn(
        WardenError.isWardenError(error)
          ? error
          : new StoreError(`Could not cancel approval ${approvalId}`, { cause: error }),
      );
    }
    core.waiters.abandon(approvalId, withdrawnAnswer);
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await answer;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
