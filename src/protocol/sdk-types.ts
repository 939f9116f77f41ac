// Public types with the official Agent SDK's names and shapes (0.3.328) that the wire types alone do not
// give: hook inputs and outputs (discriminated on `hook_event_name`, so narrowing works), what the Query
// methods return, and the streaming events of `includePartialMessages`. An application typed against the
// official SDK compiles against these unchanged (test/types). Types only.
import type { APIAssistantMessage, APIUsage } from './api-types.js';
import type { McpServerStatus as WireMcpServerStatus } from './control-requests.js';
import type { PermissionUpdate } from './permissions.js';

// ------------------------------------------------------------------------------------------------ hooks

/** Every hook event of Claude Code 2.1.328. */
export type KnownHookEvent =
  | 'PreToolUse'
  | 'PostToolUse'
  | 'PostToolUseFailure'
  | 'PostToolBatch'
  | 'Notification'
  | 'UserPromptSubmit'
  | 'UserPromptExpansion'
  | 'SessionStart'
  | 'SessionEnd'
  | 'Stop'
  | 'StopFailure'
  | 'SubagentStart'
  | 'SubagentStop'
  | 'PreCompact'
  | 'PostCompact'
  | 'PreModelSwitch'
  | 'PostModelSwitch'
  | 'PermissionRequest'
  | 'PermissionDenied'
  | 'Setup'
  | 'TeammateIdle'
  | 'TaskCreated'
  | 'TaskCompleted'
  | 'Elicitation'
  | 'ElicitationResult'
  | 'ConfigChange'
  | 'WorktreeCreate'
  | 'WorktreeRemove'
  | 'InstructionsLoaded'
  | 'CwdChanged'
  | 'FileChanged'
  | 'DirectoryAdded'
  | 'MessageDisplay';

/** Open-ended: each CLI release may add an event, and its hooks must still register. */
export type HookEvent = KnownHookEvent | (string & {});

export type McpServerProvenance = { name: string; source: string };

export type BaseHookInput = {
  session_id: string;
  transcript_path: string;
  cwd: string;
  prompt_id?: string;
  permission_mode?: string;
  agent_id?: string;
  agent_type?: string;
  effort?: { level: string };
};

export type PreToolUseHookInput = BaseHookInput & {
  hook_event_name: 'PreToolUse';
  tool_name: string;
  tool_input: unknown;
  tool_use_id: string;
  mcp_server?: McpServerProvenance;
};

export type PostToolUseHookInput = BaseHookInput & {
  hook_event_name: 'PostToolUse';
  tool_name: string;
  tool_input: unknown;
  tool_response: unknown;
  tool_use_id: string;
  duration_ms?: number;
  mcp_server?: McpServerProvenance;
};

export type PostToolUseFailureHookInput = BaseHookInput & {
  hook_event_name: 'PostToolUseFailure';
  tool_name: string;
  tool_input: unknown;
  tool_use_id: string;
  error: string;
  is_interrupt?: boolean;
  duration_ms?: number;
  mcp_server?: McpServerProvenance;
};

export type NotificationHookInput = BaseHookInput & {
  hook_event_name: 'Notification';
  message: string;
  title?: string;
  notification_type: string;
};

export type UserPromptSubmitHookInput = BaseHookInput & {
  hook_event_name: 'UserPromptSubmit';
  prompt: string;
  source?: 'user' | 'sdk' | 'system' | 'loop_wakeup' | 'schedule_wakeup' | 'poll_event';
  session_title?: string;
};

export type SessionStartHookInput = BaseHookInput & {
  hook_event_name: 'SessionStart';
  source: 'startup' | 'resume' | 'clear' | 'compact' | 'fork';
  agent_type?: string;
  model?: string;
  session_title?: string;
};

export type ExitReason = 'clear' | 'resume' | 'logout' | 'prompt_input_exit' | 'other';

export type SessionEndHookInput = BaseHookInput & {
  hook_event_name: 'SessionEnd';
  reason: ExitReason;
};

export type StopHookInput = BaseHookInput & {
  hook_event_name: 'Stop';
  stop_hook_active: boolean;
  last_assistant_message?: string;
};

export type SubagentStartHookInput = BaseHookInput & {
  hook_event_name: 'SubagentStart';
  agent_id: string;
  agent_type: string;
};

export type SubagentStopHookInput = BaseHookInput & {
  hook_event_name: 'SubagentStop';
  stop_hook_active: boolean;
  agent_id: string;
  agent_transcript_path: string;
  agent_type: string;
  last_assistant_message?: string;
};

export type PreCompactHookInput = BaseHookInput & {
  hook_event_name: 'PreCompact';
  trigger: 'manual' | 'auto';
  custom_instructions: string | null;
};

export type PermissionRequestHookInput = BaseHookInput & {
  hook_event_name: 'PermissionRequest';
  tool_name: string;
  tool_input: unknown;
  permission_suggestions?: PermissionUpdate[];
  mcp_server?: McpServerProvenance;
};

type DetailedHookInput =
  | PreToolUseHookInput
  | PostToolUseHookInput
  | PostToolUseFailureHookInput
  | NotificationHookInput
  | UserPromptSubmitHookInput
  | SessionStartHookInput
  | SessionEndHookInput
  | StopHookInput
  | SubagentStartHookInput
  | SubagentStopHookInput
  | PreCompactHookInput
  | PermissionRequestHookInput;

/** The other events' inputs; their fields pass through as the CLI sends them. */
export type OtherHookInput = BaseHookInput & {
  hook_event_name: Exclude<KnownHookEvent, DetailedHookInput['hook_event_name']>;
  [key: string]: unknown;
};

/** What a hook callback receives: narrow on `hook_event_name`. */
export type HookInput = DetailedHookInput | OtherHookInput;

export type HookPermissionDecision = 'allow' | 'deny' | 'ask' | 'defer';

export type PreToolUseHookSpecificOutput = {
  hookEventName: 'PreToolUse';
  permissionDecision?: HookPermissionDecision;
  permissionDecisionReason?: string;
  updatedInput?: Record<string, unknown>;
  additionalContext?: string;
};

export type PostToolUseHookSpecificOutput = {
  hookEventName: 'PostToolUse';
  additionalContext?: string;
  updatedMCPToolOutput?: unknown;
};

export type UserPromptSubmitHookSpecificOutput = {
  hookEventName: 'UserPromptSubmit';
  additionalContext?: string;
  sessionTitle?: string;
};

export type SessionStartHookSpecificOutput = {
  hookEventName: 'SessionStart';
  additionalContext?: string;
};

export type PermissionRequestHookSpecificOutput = {
  hookEventName: 'PermissionRequest';
  decision:
    | { behavior: 'allow'; updatedInput?: Record<string, unknown>; updatedPermissions?: PermissionUpdate[] }
    | { behavior: 'deny'; message?: string; interrupt?: boolean };
};

/** The other events' outputs (`additionalContext` and what newer CLIs accept). */
export type OtherHookSpecificOutput = {
  hookEventName: Exclude<
    KnownHookEvent,
    'PreToolUse' | 'PostToolUse' | 'UserPromptSubmit' | 'SessionStart' | 'PermissionRequest'
  >;
  additionalContext?: string;
  [key: string]: unknown;
};

export type SyncHookJSONOutput = {
  continue?: boolean;
  suppressOutput?: boolean;
  stopReason?: string;
  decision?: 'approve' | 'block';
  systemMessage?: string;
  reason?: string;
  hookSpecificOutput?:
    | PreToolUseHookSpecificOutput
    | PostToolUseHookSpecificOutput
    | UserPromptSubmitHookSpecificOutput
    | SessionStartHookSpecificOutput
    | PermissionRequestHookSpecificOutput
    | OtherHookSpecificOutput;
};

/** The hook runs on in the background; the CLI does not wait for its result. */
export type AsyncHookJSONOutput = { async: true; asyncTimeout?: number };

export type HookJSONOutput = AsyncHookJSONOutput | SyncHookJSONOutput;

// ------------------------------------------------------------------------------- what Query methods return

export type SlashCommand = {
  name: string;
  description: string;
  argumentHint: string;
  aliases?: string[];
  builtin?: boolean;
};

export type ModelInfo = {
  value: string;
  resolvedModel?: string;
  displayName: string;
  description: string;
  supportsEffort?: boolean;
  supportedEffortLevels?: ('low' | 'medium' | 'high' | 'xhigh' | 'max')[];
  supportsAdaptiveThinking?: boolean;
  supportsFastMode?: boolean;
  supportsAutoMode?: boolean;
};

export type AccountInfo = {
  email?: string;
  organization?: string;
  subscriptionType?: string;
  tokenSource?: string;
  apiKeySource?: string;
  apiProvider?:
    | 'firstParty'
    | 'bedrock'
    | 'vertex'
    | 'foundry'
    | 'anthropicAws'
    | 'anthropicGoogleCloud'
    | 'mantle'
    | 'gateway';
};

export type AgentInfo = { name: string; description: string; model?: string };

/** The `initialize` reply, as `initializationResult()` returns it. Further fields pass through. */
export type SDKControlInitializeResponse = {
  commands: SlashCommand[];
  agents: AgentInfo[];
  output_style: string;
  available_output_styles: string[];
  models: ModelInfo[];
  account: AccountInfo;
  hooks_applied?: boolean;
  hook_on_failure_supported?: boolean;
  plugins_applied?: boolean;
  mcp_servers_applied?: boolean;
  claude_code_version?: string;
  fast_mode_state?: 'off' | 'cooldown' | 'on';
  [key: string]: unknown;
};

/** The `interrupt` reply: queued user messages the interrupt did not remove. */
export type SDKControlInterruptResponse = { still_queued: string[]; cancelled?: string[] };

export type McpServerStatus = WireMcpServerStatus & {
  serverInfo?: { name: string; version: string };
  error?: string;
  scope?: string;
  source?: string;
  tools?: {
    name: string;
    description?: string;
    annotations?: { readOnly?: boolean; destructive?: boolean; openWorld?: boolean };
    _meta?: Record<string, unknown>;
  }[];
};

// ---------------------------------------------------------------------------------------- stream events

export type APITextDelta = { type: 'text_delta'; text: string };
export type APIInputJSONDelta = { type: 'input_json_delta'; partial_json: string };
export type APIThinkingDelta = { type: 'thinking_delta'; thinking: string };
export type APISignatureDelta = { type: 'signature_delta'; signature: string };
export type APICitationsDelta = { type: 'citations_delta'; citation: Record<string, unknown> };

export type APIContentBlockDelta =
  APITextDelta | APIInputJSONDelta | APIThinkingDelta | APISignatureDelta | APICitationsDelta;

/**
 * One streaming event of `includePartialMessages` (BetaRawMessageStreamEvent in the official SDK):
 * narrow on `type`, then on `delta.type`.
 */
export type APIRawStreamEvent =
  | { type: 'message_start'; message: APIAssistantMessage }
  | { type: 'content_block_start'; index: number; content_block: APIAssistantMessage['content'][number] }
  | { type: 'content_block_delta'; index: number; delta: APIContentBlockDelta }
  | { type: 'content_block_stop'; index: number }
  | {
      type: 'message_delta';
      delta: { stop_reason: string | null; stop_sequence: string | null; [key: string]: unknown };
      usage: Partial<APIUsage>;
    }
  | { type: 'message_stop' };
