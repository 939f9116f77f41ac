// The Codex app-server behind the agent boundary (agent.ts). Each approval it asks for is judged by
// Warden's policy first (the same policy and rules as a Claude thread's: the bash parse reads Codex's
// commands too); what the policy does not decide goes to the thread's permission handler, and the decision
// goes back as the Codex decision the request offers (codex-requests.ts). A denial's reason reaches the
// model through turn/steer, since Codex's decisions carry none.
import type {
  CodexAppServer,
  CodexNotification,
  ServerRequest,
  UnknownServerRequest,
} from '../../agents/codex/index.js';
import { startCodexAppServer } from '../../agents/codex/index.js';
import type { AskForApproval, SandboxMode } from '../../agents/codex/index.js';
import { decideToolCall } from '../../policy/can-use-tool.js';
import type { CompiledPolicy } from '../../policy/policy.js';
import type {
  AgentAdapter,
  AgentDecision,
  AgentExit,
  AgentPermissionHandler,
  AgentPermissionRequest,
} from './agent.js';
import {
  commandDecision,
  commandRequest,
  fileChangeDecision,
  fileChangeRequest,
  type CodexFileChange,
} from './codex-requests.js';

export interface CodexAgentOptions {
  readonly cwd: string;
  /** Replaces process.env for the app-server; give it CODEX_HOME. */
  readonly env: Record<string, string | undefined>;
  /** `-c` overrides (the model provider, the model). */
  readonly config?: readonly string[];
  readonly codexPath?: string;
  readonly policy: CompiledPolicy;
  readonly onPermission: AgentPermissionHandler;
  /** Codex's own approval policy; `untrusted` (the default) makes it ask before anything but reads. */
  readonly approvalPolicy?: AskForApproval;
  readonly sandbox?: SandboxMode;
  /** Resume this Codex thread (stored under CODEX_HOME) instead of starting one. */
  readonly resume?: string;
  readonly onNotification?: (notification: CodexNotification) => void;
}

/** A decision with where it came from: the policy, or the handler (a person, a rule, a timeout). */
export interface DecidedRequest {
  readonly request: AgentPermissionRequest;
  readonly decision: AgentDecision;
  readonly by: 'policy' | 'handler';
}

export class CodexAgent implements AgentAdapter {
  readonly conversationId: string;
  readonly exited: Promise<AgentExit>;
  /** Every request answered so far, in order. */
  readonly decided: DecidedRequest[] = [];

  readonly #server: CodexAppServer;
  #turnId: string | undefined;

  /** @internal Use startCodexAgent(). */
  constructor(server: CodexAppServer, conversationId: string) {
    this.#server = server;
    this.conversationId = conversationId;
    this.exited = server.exited;
  }

  /** @internal */
  set turnId(turnId: string | undefined) {
    this.#turnId = turnId;
  }

  async send(text: string): Promise<void> {
    const input = [{ type: 'text' as const, text, text_elements: [] }];
    if (this.#turnId !== undefined) {
      await this.#server.steerTurn({ threadId: this.conversationId, expectedTurnId: this.#turnId, input });
      return;
    }
    const { turn } = await this.#server.startTurn({ threadId: this.conversationId, input });
    this.#turnId = turn.id;
  }

  async interrupt(): Promise<void> {
    if (this.#turnId === undefined) return;
    await this.#server.interruptTurn({ threadId: this.conversationId, turnId: this.#turnId });
  }

  async turnEnded(): Promise<string> {
    const done = await this.#server.nextNotification(
      (notification) =>
        notification.method === 'turn/completed' && notification.params['threadId'] === this.conversationId,
    );
    return (done.params['turn'] as { status?: string } | undefined)?.status ?? 'unknown';
  }

  stop(): Promise<void> {
    return this.#server.close();
  }

  /** @internal A denial's reason, as user input in the turn the request belongs to. */
  async tell(turnId: string | undefined, message: string | undefined): Promise<void> {
    if (turnId === undefined || message === undefined || message === '') return;
    const input = [{ type: 'text' as const, text: message, text_elements: [] }];
    await this.#server
      .steerTurn({ threadId: this.conversationId, expectedTurnId: turnId, input })
      .catch(() => undefined);
  }
}

/** The policy's verdict, or the handler's decision when the policy asks. */
async function decide(
  options: CodexAgentOptions,
  request: AgentPermissionRequest,
): Promise<{ decision: AgentDecision; by: 'policy' | 'handler' }> {
  // Each part on its own (every file of a change), the strictest standing: a deny, else an ask.
  const verdicts = (request.parts ?? [{ toolName: request.toolName, input: { ...request.input } }]).map(
    (part) => decideToolCall(options.policy, part.toolName, { ...part.input }),
  );
  const verdict = verdicts.find((v) => v.behavior === 'deny') ??
    verdicts.find((v) => v.behavior === 'ask') ??
    verdicts[0] ?? { behavior: 'ask' as const };
  if (verdict.behavior === 'allow') return { decision: { behavior: 'allow' }, by: 'policy' };
  if (verdict.behavior === 'deny')
    return { decision: { behavior: 'deny', message: verdict.message }, by: 'policy' };
  return { decision: await options.onPermission(request), by: 'handler' };
}

export async function startCodexAgent(options: CodexAgentOptions): Promise<CodexAgent> {
  const changes = new Map<string, CodexFileChange[]>();
  let agent: CodexAgent | undefined;
  const answer = async (request: AgentPermissionRequest): Promise<AgentDecision> => {
    const { decision, by } = await decide(options, request);
    agent?.decided.push({ request, decision, by });
    if (decision.behavior === 'deny' || decision.behavior === 'deny-and-stop')
      await agent?.tell(request.turnId, decision.message);
    return decision;
  };
  const onServerRequest = async (request: ServerRequest | UnknownServerRequest): Promise<unknown> => {
    const id = String(request.id);
    if (request.method === 'item/commandExecution/requestApproval') {
      const params = (request as Extract<ServerRequest, { method: typeof request.method }>).params;
      const offered = (params as { availableDecisions?: unknown[] | null }).availableDecisions;
      return { decision: commandDecision(await answer(commandRequest(id, params)), offered) };
    }
    if (request.method === 'item/fileChange/requestApproval') {
      const params = (request as Extract<ServerRequest, { method: typeof request.method }>).params;
      const decision = await answer(fileChangeRequest(id, params, changes.get(params.itemId) ?? []));
      return { decision: fileChangeDecision(decision) };
    }
    // Questions, permission profiles and MCP elicitations have no card here yet: refused, so Codex goes on.
    throw new Error(`Warden does not answer ${request.method} for Codex threads yet`);
  };
  const server = await startCodexAppServer({
    cwd: options.cwd,
    env: options.env,
    ...(options.config === undefined ? {} : { config: options.config }),
    ...(options.codexPath === undefined ? {} : { codexPath: options.codexPath }),
    onServerRequest,
    onNotification: (notification) => {
      const item = notification.params['item'] as
        { type?: string; id?: string; changes?: CodexFileChange[] } | undefined;
      if (notification.method === 'item/started' && item?.type === 'fileChange' && item.id !== undefined)
        changes.set(item.id, item.changes ?? []);
      if (notification.method === 'turn/completed' && agent !== undefined) agent.turnId = undefined;
      options.onNotification?.(notification);
    },
  });
  try {
    const settings = {
      cwd: options.cwd,
      approvalPolicy: options.approvalPolicy ?? 'untrusted',
      sandbox: options.sandbox ?? 'workspace-write',
    };
    const { thread } =
      options.resume === undefined
        ? await server.startThread(settings)
        : await server.resumeThread({ threadId: options.resume, ...settings });
    agent = new CodexAgent(server, thread.id);
    return agent;
  } catch (error) {
    await server.close();
    throw error;
  }
}
