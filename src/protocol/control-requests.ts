// The control requests the host sends to the CLI, and the success payloads it answers with. Field names are
// the wire's (snake_case here, camelCase there: the CLI is not consistent, and neither may we be). Types
// only: the CLI validates what it receives.
import type { PermissionMode } from './permissions.js';

export type HookCallbackMatcherWire = {
  matcher?: string;
  /** Ids the CLI sends back in `hook_callback.callback_id`; the official SDK uses `hook_<n>`. */
  hookCallbackIds: string[];
  /** Seconds. */
  timeout?: number;
};

/** Always the first line on stdin. Fields left undefined are omitted. */
export type InitializeRequest = {
  subtype: 'initialize';
  hooks?: Record<string, HookCallbackMatcherWire[]>;
  /** Names of in-process MCP servers, reached through `mcp_message`. */
  sdkMcpServers?: string[];
  jsonSchema?: Record<string, unknown>;
  /** Omitted for the Claude Code preset; `['']` (an empty custom prompt) when the caller set none. */
  systemPrompt?: string[];
  appendSystemPrompt?: string;
  excludeDynamicSections?: boolean;
  planModeInstructions?: string;
  agents?: Record<string, unknown>;
  title?: string;
  skills?: string[];
  toolAliases?: Record<string, string>;
  promptSuggestions?: boolean;
  agentProgressSummaries?: boolean;
  forwardSubagentText?: boolean;
  supportedDialogKinds?: string[];
  /** When true, interrupt() stops only the root turn and leaves background subagents running. */
  perTaskStopAffordance?: boolean;
};

export type InterruptRequest = {
  subtype: 'interrupt';
  cancel_queued?: boolean;
};
export type SetPermissionModeRequest = {
  subtype: 'set_permission_mode';
  mode: PermissionMode;
};
export type SetModelRequest = {
  subtype: 'set_model';
  /** Omitted to return to the default model. */
  model?: string | null;
};
export type SetMaxThinkingTokensRequest = {
  subtype: 'set_max_thinking_tokens';
  max_thinking_tokens?: number | null;
  thinking_display?: 'summarized' | 'omitted' | 'highlights' | null;
};
export type ApplyFlagSettingsRequest = {
  subtype: 'apply_flag_settings';
  settings: Record<string, unknown>;
};
export type UpdateSettingsRequest = {
  subtype: 'update_settings';
  source: 'localSettings' | 'userSettings';
  settings: Record<string, unknown>;
};
export type RewindFilesRequest = {
  subtype: 'rewind_files';
  user_message_id: string;
  dry_run?: boolean;
};
export type SeedReadStateRequest = {
  subtype: 'seed_read_state';
  path: string;
  mtime: number;
};
export type McpStatusRequest = {
  subtype: 'mcp_status';
};
export type McpReconnectRequest = {
  subtype: 'mcp_reconnect';
  serverName: string;
};
export type McpToggleRequest = {
  subtype: 'mcp_toggle';
  serverName: string;
  enabled: boolean;
};
export type McpReadResourceRequest = {
  subtype: 'mcp_read_resource';
  serverName: string;
  uri: string;
};
export type McpSetServersRequest = {
  subtype: 'mcp_set_servers';
  servers: Record<string, Record<string, unknown>>;
};
export type SetMcpPermissionModeOverrideRequest = {
  subtype: 'set_mcp_permission_mode_override';
  serverName: string;
  mode: 'default' | 'auto' | null;
};
export type GetContextUsageRequest = {
  subtype: 'get_context_usage';
  detail?: 'full' | 'summary';
};
export type GetUsageRequest = {
  subtype: 'get_usage';
  skip_behaviors?: boolean;
};
export type ReadFileRequest = {
  subtype: 'read_file';
  path: string;
  max_bytes?: number;
  encoding?: string;
};
export type ReloadPluginsRequest = {
  subtype: 'reload_plugins';
  hold_on_cache_impact?: boolean;
  add_plugins?: unknown[];
  refuse_if_busy?: boolean;
};
export type ReloadSkillsRequest = {
  subtype: 'reload_skills';
};
export type ReloadOutputStylesRequest = {
  subtype: 'reload_output_styles';
};
export type StopTaskRequest = {
  subtype: 'stop_task';
  task_id: string;
};
export type BackgroundTasksRequest = {
  subtype: 'background_tasks';
  tool_use_id?: string;
};
export type CancelAsyncMessageRequest = {
  subtype: 'cancel_async_message';
  message_uuid: string;
};
/** A message from an in-process MCP server to the CLI (the CLI acknowledges with an empty success). */
export type OutboundMcpMessageRequest = {
  subtype: 'mcp_message';
  server_name: string;
  message: Record<string, unknown>;
};

export type OutboundControlRequest =
  | InitializeRequest
  | InterruptRequest
  | SetPermissionModeRequest
  | SetModelRequest
  | SetMaxThinkingTokensRequest
  | ApplyFlagSettingsRequest
  | UpdateSettingsRequest
  | RewindFilesRequest
  | SeedReadStateRequest
  | McpStatusRequest
  | McpReconnectRequest
  | McpToggleRequest
  | McpReadResourceRequest
  | McpSetServersRequest
  | SetMcpPermissionModeOverrideRequest
  | GetContextUsageRequest
  | GetUsageRequest
  | ReadFileRequest
  | ReloadPluginsRequest
  | ReloadSkillsRequest
  | ReloadOutputStylesRequest
  | StopTaskRequest
  | BackgroundTasksRequest
  | CancelAsyncMessageRequest
  | OutboundMcpMessageRequest;

export type OutboundControlSubtype = OutboundControlRequest['subtype'];

/** The body to pass to `ControlChannel.request(subtype, body)`: the request without its subtype. */
export type ControlRequestBody<S extends OutboundControlSubtype> = Omit<
  Extract<OutboundControlRequest, { subtype: S }>,
  'subtype'
>;

/** The `initialize` reply. Many more fields arrive (pid, capabilities, …); they pass through. */
export type InitializeResponse = {
  commands: { name: string; description: string; argumentHint?: string }[];
  agents: { name: string; description: string; model?: string }[];
  output_style: string;
  available_output_styles: string[];
  models: { value: string; displayName: string; description: string; [key: string]: unknown }[];
  account: Record<string, unknown>;
  claude_code_version?: string;
  hooks_applied?: boolean;
  hook_on_failure_supported?: boolean;
  mcp_servers_applied?: boolean;
  plugins_applied?: boolean;
  /** Seen on 2.1.328: the CLI's own view of the session state when it answered. */
  session_state?: 'idle' | 'running' | 'requires_action';
  [key: string]: unknown;
};

/** The `interrupt` reply: the uuids of queued user messages the interrupt did not remove. */
export type InterruptResponse = {
  still_queued: string[];
  cancelled?: string[];
  [key: string]: unknown;
};

export type McpServerStatus = {
  name: string;
  status: 'connected' | 'failed' | 'needs-auth' | 'pending' | 'disabled';
  [key: string]: unknown;
};

export type McpStatusResponse = {
  mcpServers: McpServerStatus[];
  [key: string]: unknown;
};
