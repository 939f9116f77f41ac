// Types of the scripted Messages API mock: what a script sees (RequestContext), what it answers (Reply),
// and what the mock records for assertions (RequestRecord).

/** Which conversation a request belongs to. Decided from headers and content, never from arrival order. */
export type RequestKind = 'main' | 'subagent' | 'side';

/** The flavour of a side request: one the CLI makes for itself, outside the agent conversations. */
export type SideKind = 'title' | 'suggestion' | 'progress_summary' | 'other';

/** One tool_result block of the last user message, flattened to text. */
export interface ToolResultSummary {
  readonly toolUseId: string;
  readonly text: string;
  readonly isError: boolean;
}

/** Everything a script needs to decide a reply, derived from one `POST /v1/messages` request. */
export interface RequestContext {
  /** 1-based request number in arrival order. For logs only: never route on it. */
  readonly n: number;
  readonly kind: RequestKind;
  /** Present only when `kind` is `side`. */
  readonly sideKind?: SideKind;
  /** The `x-claude-code-agent-id` header: the task id of the subagent that sent the request. */
  readonly agentId?: string;
  /** The `x-claude-code-parent-agent-id` header (nested subagents). */
  readonly parentAgentId?: string;
  /** The first `[[marker]]` found in the text of the conversation's user messages, without brackets. */
  readonly marker?: string;
  /** The first `[[marker]]` in the user message that started the current turn. */
  readonly turnMarker?: string;
  /** Tool round trips so far in this conversation: user messages that carry tool_result blocks. */
  readonly rounds: number;
  /** Tool round trips since the current turn began (the last user message without tool results). */
  readonly turnRounds: number;
  /** Turn-starting user messages so far (prompts and task notifications), including the current one. */
  readonly turns: number;
  /** Assistant messages so far in this conversation. */
  readonly step: number;
  /** Whether the current turn was started by a `<task-notification>` (a CLI-started root turn). */
  readonly isTaskNotification: boolean;
  /** The tool_result blocks of the last user message (empty at the start of a turn). */
  readonly toolResults: readonly ToolResultSummary[];
  /** Text blocks of the last user message, joined with newlines (tool results excluded). */
  readonly lastUserText: string;
  /** Text blocks of the first user message, joined with newlines. */
  readonly firstUserText: string;
  /** Text blocks of the user message that started the current turn (a prompt, a task notification). */
  readonly turnText: string;
  /** The system prompt as plain text. */
  readonly systemText: string;
  /** Names of the tools the request declares. Never route on these: subagents get `Agent` too. */
  readonly toolNames: readonly string[];
  readonly model: string;
  readonly stream: boolean;
  /** The parsed request body, untouched. */
  readonly body: Readonly<Record<string, unknown>>;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

export interface TextBlock {
  readonly type: 'text';
  readonly text: string;
}

export interface ToolUseBlock {
  readonly type: 'tool_use';
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
  /** Generated (`toolu_mock_NNNN`) when absent. */
  readonly id?: string;
}

export type ReplyBlock = TextBlock | ToolUseBlock;

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'pause_turn' | 'refusal';

/** What the mock sends back for one request. Every field is optional; `{}` is an empty end_turn. */
export interface Reply {
  readonly content?: readonly ReplyBlock[];
  /** Defaults to `tool_use` when the content has a tool_use block, else `end_turn`. */
  readonly stopReason?: StopReason;
  readonly usage?: { readonly inputTokens?: number; readonly outputTokens?: number };
  /** Wait this long before the response headers. */
  readonly delayMs?: number;
  /** Wait this long between streamed events. */
  readonly chunkDelayMs?: number;
  /** Start the reply and never finish it (streaming: no message_delta / message_stop). close() ends it. */
  readonly hang?: boolean;
  /** An HTTP status of 400 or more answers with an API error body instead of a message. */
  readonly status?: number;
  /** The error's message (and optionally type) for `status >= 400`. */
  readonly error?: string | { readonly type?: string; readonly message: string };
  /** Extra response headers (e.g. `retry-after`). */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Decides the reply to one request from its context alone. `null` (or `undefined`) asks for the default
 * reply: a short text, or a fitting answer for side requests. May be async, e.g. to await a test event.
 */
export type MockScript = (
  ctx: RequestContext,
) => Reply | null | undefined | Promise<Reply | null | undefined>;

/** What the mock recorded about one HTTP request, for assertions. Filled in as the request progresses. */
export interface RequestRecord {
  readonly n: number;
  readonly method: string;
  readonly path: string;
  /** Absent for requests that are not `POST /v1/messages` or could not be parsed. */
  readonly kind?: RequestKind;
  readonly sideKind?: SideKind;
  readonly agentId?: string;
  readonly parentAgentId?: string;
  readonly marker?: string;
  readonly turnMarker?: string;
  readonly rounds?: number;
  readonly turnRounds?: number;
  readonly isTaskNotification?: boolean;
  readonly toolResults?: readonly ToolResultSummary[];
  readonly lastUserText?: string;
  readonly toolNames?: readonly string[];
  readonly stream?: boolean;
  /** The HTTP status sent; undefined while the script is still deciding. */
  status?: number;
  /** A short description of the reply: `text`, `tool_use:Bash`, `error 500`, ... */
  reply?: readonly string[];
  /** Why the mock answered with an error of its own (bad body, unknown path, the script threw). */
  error?: string;
  /** True once the response has ended (or the client went away). */
  done: boolean;
}
