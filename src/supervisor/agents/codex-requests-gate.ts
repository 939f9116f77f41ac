// A Codex thread's permission requests through the supervisor's approvals: the thread's policy first,
// then an approval that waits (with no time limit of its own: the thread's deadlines and routes apply)
// for a decision from the inbox, the terminal or the API. The approval is keyed by the app-server
// process and the request's JSON-RPC id, so a request the spool replays after a restart finds its
// approval again, pending or already decided.
import { resolve } from 'node:path';

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
import { questionRequest, questionResponse } from './codex-questions.js';

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
  if (request.method === 'item/tool/requestUserInput') {
    const params = (request as Extract<ServerRequest, { method: typeof request.method }>).params;
    const asked = questionRequest(id, params);
    const answer = await ask(context, asked);
    const answers = answeredQuestions(answer);
    if (answers === null) await context.tell(asked.turnId, denial(answer));
    return questionResponse(params, answers);
  }
  context.onAsked(id);
  // Permission profiles and MCP elicitations have no card for Codex yet: refused, so Codex goes on.
  throw new Error(`Warden does not answer ${request.method} for Codex threads yet`);
}

/** A command's or a file change's decision, its reason given to the model when it is a deny. */
async function decide(context: CodexRequestContext, request: AgentPermissionRequest): Promise<AgentDecision> {
  const answer = await ask(context, request);
  const decision = sessionRulesStayWarden(editRefused(answer, { ...request.input }) ?? decisionOf(answer));
  if (decision.behavior === 'deny' || decision.behavior === 'deny-and-stop')
    await context.tell(request.turnId, decision.message);
  return decision;
}

/** The request's answer: the decision already made for it (asked again after a restart), else the gate's. */
async function ask(context: CodexRequestContext, request: AgentPermissionRequest): Promise<HookAnswer> {
  const { core, threadId } = context;
  const input = { ...request.input };
  const requestId = `codex-${context.marker}-${request.requestId}`;
  const settled = core.store
    .listApprovals({ threadId })
    .find((approval) => approval.requestId === requestId && approval.status !== 'pending');
  if (settled !== undefined) {
    // Decided while no host held the request (or just before the last one went): that decision stands.
    context.onAsked(request.requestId);
    return settled.decision === null ? null : settledAnswer(settled, input);
  }
  const thread = core.store.getThread(threadId);
  if (thread === undefined) return { behavior: 'deny', message: 'The thread is gone.', interrupt: true };
  try {
    return await gateRequest(
      core,
      {
        thread,
        runId: context.runOf(request.turnId),
        toolName: request.toolName,
        input,
        requestId,
        suggestions: [],
        ...(request.parts === undefined ? {} : { parts: request.parts }),
        // A command Codex runs in another directory (the model chooses its workdir) is not the call the
        // thread's rules were written for: relative paths would be judged against the wrong folder.
        ...(ranElsewhere(input, thread.cwd) ? { askUnlessDenied: true } : {}),
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
  } finally {
    context.onAsked(request.requestId);
  }
}

function ranElsewhere(input: Record<string, unknown>, threadCwd: string): boolean {
  return typeof input['cwd'] === 'string' && resolve(input['cwd']) !== resolve(threadCwd);
}

/** The person's answers by question text (AskUserQuestion's convention), or null: not answered. */
function answeredQuestions(answer: HookAnswer): Record<string, string> | null {
  if (answer?.behavior !== 'allow') return null;
  const answers = (answer.updatedInput as { answers?: unknown } | undefined)?.answers;
  if (typeof answers !== 'object' || answers === null) return null;
  return Object.fromEntries(
    Object.entries(answers).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

function denial(answer: HookAnswer): string | undefined {
  return answer?.behavior === 'deny' ? answer.message : undefined;
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
