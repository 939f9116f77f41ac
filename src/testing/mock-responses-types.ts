// Types of the scripted OpenAI Responses API mock (mock-responses.ts), the model side of the Codex CLI: what
// a script sees (ResponsesContext), what it answers (ResponsesReply) and what the mock records.

/** The output of one earlier tool call, as the client sends it back in the next request's input. */
export interface ToolOutputSummary {
  readonly callId: string;
  /** `function_call_output` (exec_command and other functions) or `custom_tool_call_output` (apply_patch). */
  readonly type: 'function_call_output' | 'custom_tool_call_output';
  readonly output: string;
}

/** Everything a script needs to decide a reply, derived from one `POST /v1/responses` request. */
export interface ResponsesContext {
  /** 1-based request number in arrival order. For logs only: never route on it. */
  readonly n: number;
  readonly model: string;
  /** The `thread-id` header: the Codex thread the request belongs to. */
  readonly threadId?: string;
  /** The text of the user message that started the current turn (Codex's own context blocks left out). */
  readonly turnText: string;
  /** The first `[[marker]]` in `turnText`, without brackets. */
  readonly turnMarker?: string;
  /** Tool outputs since the turn began, oldest first. Empty on a turn's first request. */
  readonly toolOutputs: readonly ToolOutputSummary[];
  /** Tool round trips since the current turn began. */
  readonly turnRounds: number;
  /** Names of the tools the request declares (namespaced ones as `namespace.name`). */
  readonly toolNames: readonly string[];
  /** The parsed request body, untouched. */
  readonly body: Readonly<Record<string, unknown>>;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** Assistant text. */
export interface ResponsesText {
  readonly type: 'text';
  readonly text: string;
}

/** A shell command through Codex's `exec_command` function. */
export interface ResponsesExec {
  readonly type: 'exec';
  readonly cmd: string;
  /** Ask to run outside Codex's sandbox (`sandbox_permissions: "require_escalated"`) with this reason. */
  readonly escalate?: string;
  readonly workdir?: string;
  /** Generated (`call_mock_NNNN`) when absent. */
  readonly callId?: string;
}

/** A patch in Codex's own format (`*** Begin Patch` … `*** End Patch`) through its `apply_patch` tool. */
export interface ResponsesPatch {
  readonly type: 'patch';
  readonly patch: string;
  readonly callId?: string;
}

/** Any other function call, by name with its arguments. */
export interface ResponsesFunction {
  readonly type: 'function';
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly callId?: string;
}

export type ResponsesItem = ResponsesText | ResponsesExec | ResponsesPatch | ResponsesFunction;

/** What the mock sends back for one request. `{}` is an empty completed response. */
export interface ResponsesReply {
  readonly items?: readonly ResponsesItem[];
  /** Wait this long before the response headers. */
  readonly delayMs?: number;
  /** Start the stream and never finish it (no response.completed). close() ends it. */
  readonly hang?: boolean;
  /** An HTTP status of 400 or more answers with an API error body instead of a stream. */
  readonly status?: number;
  readonly error?: string;
}

/** Decides the reply to one request from its context alone; `null` asks for the default (a short text). */
export type ResponsesScript = (
  ctx: ResponsesContext,
) => ResponsesReply | null | undefined | Promise<ResponsesReply | null | undefined>;

/** What the mock recorded about one HTTP request, for assertions. Filled in as the request progresses. */
export interface ResponsesRecord {
  readonly n: number;
  readonly method: string;
  readonly path: string;
  readonly threadId?: string;
  readonly turnText?: string;
  readonly turnMarker?: string;
  readonly toolOutputs?: readonly ToolOutputSummary[];
  /** The HTTP status sent; undefined while the script is still deciding. */
  status?: number;
  /** A short description of the reply: `text`, `exec`, `patch`, `function:name`, `error 500`, `hang`. */
  reply?: readonly string[];
  /** Why the mock answered with an error of its own (bad body, unknown path, the script threw). */
  error?: string;
  /** True once the response has ended (or the client went away). */
  done: boolean;
}
