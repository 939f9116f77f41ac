// A Codex thread's permission requests through the supervisor's approvals: the thread's policy first,
// then an approval that waits (with no time limit of its own: the thread's deadlines and routes apply)
// for a decision from the inbox, the terminal or the API. The approval is keyed by the app-server
// process and the request's JSON-RPC id, so a request the spool replays after a restart finds its
// approval again, pending or already decided.
import type { PermissionResult } from '../../protocol/control.js';
import type { ServerRequest, UnknownServerRequest } from '../../agents/codex/index.js';
import { settledAnswer } from '../approvals/approval-waiters.js';
import type { SupervisorCore } from '../core.js';
import { gateRequest, HostClosingError, type HookAnswer } from '../external/external-gate.js';
import type { AgentDecision, AgentPermissionRequest } from './agent.js';
import { decisionOf } from './codex-inbox.js';
import {
  commandDecision,
  commandRequest,
  fileChangeDecision,
  fileChangeRequest,
  type CodexFileChange,
} from './codex-requests.js';

/** What answering a request needs of its thread's runtime (codex-thread.ts). */
export interface CodexRequestContext {
  readonly core: SupervisorCore;
  readonly threadId: string;
  /** The app-server process's marker: request ids restart at 0 in each process. */
  readonly marker: string;
  /** The run the request belongs to (by Codex's turn id), made if none is running. */
  runOf(turnId: string | undefined): string;
  /** The changes each `fileChange` item announced on `item/started`, by item id. */
  readonly changes: ReadonlyMap<string, CodexFileChange[]>;
  /** A denial's reason, given to the model as input to its turn (Codex's decisions carry none). */
  tell(turnId: string | undefined, message: string | undefined): Promise<void>;
  /** Aborted when the host lets go of the thread: the approval stays pending for the next host. */
  readonly closing: AbortSignal;
  /** Told once a request has reached its approval (a re-attach waits for the ones the spool replays). */
  onAsked(requestId: string): void;
}

/** Never settles: the host let go while the request waited, and the next host answers it. */
const LEFT_FOR_THE_NEXT_HOST = new Promise<never>(() => undefined);

export async function answerCodexRequest(
  context: CodexRequestContext,
  request: ServerRequest | UnknownServerRequest,
): Promise<unknown> {
  const id = String(request.id);
  if (request.method === 'item/commandExecution/requestApproval') {
    const params = (request as Extract<ServerRequest, { method: typeof request.method }>).params;
    const offered = (params as { availableDecisions?: unknown[] | null }).availableDecisions;
    const decision = await decide(context, commandRequest(id, params));
    return { decision: commandDecision(decision, offered) };
  }
  if (request.method === 'item/fileChange/requestApproval') {
    const params = (request as Extract<ServerRequest, { method: typeof request.method }>).params;
    const changes = context.changes.get(params.itemId) ?? [];
    const decision = await decide(context, fileChangeRequest(id, params, changes));
    return { decision: fileChangeDecision(decision) };
  }
  context.onAsked(id);
  // Questions, permission profiles and MCP elicitations have no card for Codex yet: refused, so it goes on.
  throw new Error(`Warden does not answer ${request.method} for Codex threads yet`);
}

async function decide(context: CodexRequestContext, request: AgentPermissionRequest): Promise<AgentDecision> {
  const { core, threadId } = context;
  const input = { ...request.input };
  const requestId = `codex-${context.marker}-${request.requestId}`;
  let answer: HookAnswer;
  const settled = core.store
    .listApprovals({ threadId })
    .find((approval) => approval.requestId === requestId && approval.status !== 'pending');
  if (settled !== undefined) {
    // Decided while no host held the request (or just before the last one went): that decision stands.
    context.onAsked(request.requestId);
    answer = settled.decision === null ? null : settledAnswer(settled, input);
  } else {
    const thread = core.store.getThread(threadId);
    if (thread === undefined) return { behavior: 'deny-and-stop', message: 'The thread is gone.' };
    try {
      answer = await gateRequest(
        core,
        {
          thread,
          runId: context.runOf(request.turnId),
          toolName: request.toolName,
          input,
          requestId,
          suggestions: [],
          ...(request.parts === undefined ? {} : { parts: request.parts }),
        },
        {
          signal: new AbortController().signal,
          closing: context.closing,
          onApproval: () => context.onAsked(request.requestId),
        },
      );
    } catch (error) {
      if (error instanceof HostClosingError) return LEFT_FOR_THE_NEXT_HOST;
      throw error;
    }
  }
  context.onAsked(request.requestId);
  const decision = sessionRulesStayWarden(editRefused(answer, input) ?? decisionOf(answer));
  if (decision.behavior === 'deny' || decision.behavior === 'deny-and-stop')
    await context.tell(request.turnId, decision.message);
  return decision;
}

/**
 * An always-allow is Warden's rule, the one the person saw on the card: Warden's policy applies it to the
 * requests that follow (Codex asks for each under `untrusted`). Codex's own session grant or execpolicy
 * amendment would allow what the person never saw (an argv prefix of Codex's choosing): not given.
 */
function sessionRulesStayWarden(decision: AgentDecision): AgentDecision {
  return decision.behavior === 'always' ? { behavior: 'allow' } : decision;
}

/**
 * Codex runs what it asked for or nothing: an allow with an edited input would run the original, which is
 * not what the person saw. Such an answer stops the turn instead.
 */
function editRefused(answer: HookAnswer, input: Record<string, unknown>): AgentDecision | undefined {
  const result: PermissionResult | null = answer;
  if (result?.behavior !== 'allow' || result.updatedInput === undefined) return undefined;
  if (JSON.stringify(result.updatedInput) === JSON.stringify(input)) return undefined;
  return {
    behavior: 'deny-and-stop',
    message: 'Codex cannot run an edited request: it was not run. Ask for the change instead.',
  };
}
