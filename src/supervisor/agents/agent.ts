// The boundary between a thread and the agent CLI behind it: what a thread needs of any agent, whatever
// its protocol. Claude Code is reached today through runtime/live-session.ts (its stream-json control
// protocol); the Codex app-server through codex-agent.ts. Approvals, policy, audit and the inbox see only
// the permission request and the decision below, never which agent asked.

/** What an agent asks permission for, in Warden's terms: the card kind and the tool call the policy judges. */
export interface AgentPermissionRequest {
  /** The agent's own id for the request (Codex: the JSON-RPC id), to answer it and to reconcile by. */
  readonly requestId: string;
  readonly kind: 'command' | 'file_change' | 'question' | 'other';
  /** The tool name the policy judges it as (`Bash` for a command, `Write` / `Edit` for a file change). */
  readonly toolName: string;
  readonly input: Readonly<Record<string, unknown>>;
  /**
   * The calls the policy judges when the request is several (each file of a change): the strictest
   * verdict stands. Absent: the request itself, as `toolName` and `input`.
   */
  readonly parts?: readonly { readonly toolName: string; readonly input: Record<string, unknown> }[];
  /** The agent's own reason for asking, when it gives one. */
  readonly reason?: string;
  /** The rule the agent would add for "always" (Codex: its execpolicy amendment, an argv prefix). */
  readonly proposedRule?: readonly string[];
  /** The agent's turn, for the run the approval belongs to. */
  readonly turnId?: string;
  /** Everything the agent sent, untouched. */
  readonly raw: unknown;
}

/** Warden's answer. `always` holds for the agent's session; `deny-and-stop` also ends the turn. */
export type AgentDecision =
  | { readonly behavior: 'allow' }
  | { readonly behavior: 'always'; readonly scope: 'session' }
  | { readonly behavior: 'deny'; readonly message?: string }
  | { readonly behavior: 'deny-and-stop'; readonly message?: string };

export interface AgentExit {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** What a thread does with its agent. Every method may reject with a WardenError. */
export interface AgentAdapter {
  /** The agent's own id of the conversation (Codex: its thread id): kept to resume it later. */
  readonly conversationId: string;
  /** Starts a turn with this user text, or adds it to the turn in progress. */
  send(text: string): Promise<void>;
  /** Stops the turn in progress; the conversation goes on. */
  interrupt(): Promise<void>;
  /** Ends the agent's process (and its process group). Idempotent. */
  stop(): Promise<void>;
  /** Resolves when the turn in progress (or the next one) has ended, with its status. */
  turnEnded(): Promise<string>;
  /** Resolves once, when the agent's process exits. */
  readonly exited: Promise<AgentExit>;
}

/** Permission requests in, decisions out: the thread's side, given to the adapter when it starts. */
export type AgentPermissionHandler = (request: AgentPermissionRequest) => Promise<AgentDecision>;
