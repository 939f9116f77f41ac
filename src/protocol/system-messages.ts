// The `type: 'system'` messages the CLI writes on stdout, named and shaped as in the official Agent SDK
// (0.3.332) and checked against transcripts of Claude Code 2.1.328 and 2.1.332. Fields Warden does not act on are kept
// for the application's benefit; every field the CLI adds beyond these passes through untouched.
import type { UUID } from './api-types.js';
import type { SDKAssistantMessageError } from './assistant-error.js';
import type { PermissionMode } from './permissions.js';
import type { FastModeDisabledReason } from './sdk-extra-types.js';
import type { SlashCommand } from './slash-command.js';

type SystemBase = {
  type: 'system';
  uuid: UUID;
  session_id: string;
};

export type ApiKeySource =
  | 'ANTHROPIC_API_KEY'
  | 'apiKeyHelper'
  | '/login managed key'
  | 'none'
  | 'user'
  | 'project'
  | 'org'
  | 'temporary'
  | 'oauth';

export type FastModeState = 'off' | 'cooldown' | 'on';

/** `system/init`: sent at the start of every turn, including turns the CLI starts by itself. */
export type SDKSystemMessage = SystemBase & {
  subtype: 'init';
  agents?: string[];
  apiKeySource: ApiKeySource;
  betas?: string[];
  claude_code_version: string;
  cwd: string;
  tools: string[];
  mcp_servers: { name: string; status: string; source?: string }[];
  model: string;
  permissionMode: PermissionMode;
  slash_commands: string[];
  terminal_slash_commands?: string[];
  output_style: string;
  skills: string[];
  plugins: { name: string; path: string; version?: string }[];
  plugin_errors?: {
    plugin: string;
    type: string;
    message: string;
    path?: string;
    managed_lock?: { plugin_enabled: boolean; name: string; marketplace?: string };
  }[];
  fast_mode_state?: FastModeState;
  fast_mode_disabled_reason?: FastModeDisabledReason;
  effort?: 'low' | 'medium' | 'high' | 'xhigh' | 'max' | null;
  view_mode?: 'focus' | 'default';
  /** Feature flags such as `interrupt_receipt_v1`; there is no protocol version number. */
  capabilities?: string[];
};

export type SDKStatus = 'compacting' | 'requesting' | null;

export type SDKStatusMessage = SystemBase & {
  subtype: 'status';
  status: SDKStatus;
  permissionMode?: PermissionMode;
  compact_result?: 'success' | 'failed';
  compact_error?: string;
};

export type SDKAPIRetryMessage = SystemBase & {
  subtype: 'api_retry';
  attempt: number;
  max_retries: number;
  retry_delay_ms: number;
  /** null for connection errors that had no HTTP response. */
  error_status: number | null;
  /** This release's values, as the official type lists them; a newer CLI's value arrives untouched. */
  error: SDKAssistantMessageError;
  no_response?: { waited_ms: number; retry_wait_ms: number };
};

export type SDKCompactBoundaryMessage = SystemBase & {
  subtype: 'compact_boundary';
  compact_metadata: {
    trigger: 'manual' | 'auto';
    pre_tokens: number;
    post_tokens?: number;
    duration_ms?: number;
    /** Messages kept verbatim across the compaction. */
    preserved_segment?: { head_uuid: UUID; anchor_uuid: UUID; tail_uuid: UUID };
    preserved_messages?: { anchor_uuid: UUID; uuids: UUID[] };
  };
};

export type TaskUsage = {
  total_tokens: number;
  tool_uses: number;
  duration_ms: number;
};

/** A background task (subagent, shell, monitor, workflow) started. Edge signal; see background_tasks_changed. */
export type SDKTaskStartedMessage = SystemBase & {
  subtype: 'task_started';
  task_id: string;
  run_id?: string;
  /** The tool call that launched the task (e.g. the Agent tool_use). */
  tool_use_id?: string;
  description: string;
  subagent_type?: string;
  is_backgrounded?: boolean;
  spawn_depth?: number;
  parent_task_id?: string;
  task_type?: string;
  workflow_name?: string;
  prompt?: string;
  skip_transcript?: boolean;
  ambient?: boolean;
};

export type SDKTaskProgressMessage = SystemBase & {
  subtype: 'task_progress';
  task_id: string;
  run_id?: string;
  tool_use_id?: string;
  description: string;
  subagent_type?: string;
  usage: TaskUsage;
  last_tool_name?: string;
  summary?: string;
};

export type SDKTaskUpdatedMessage = SystemBase & {
  subtype: 'task_updated';
  task_id: string;
  run_id?: string;
  patch: {
    status?: 'pending' | 'running' | 'completed' | 'failed' | 'killed' | 'paused';
    description?: string;
    end_time?: number;
    total_paused_ms?: number;
    error?: string;
    is_backgrounded?: boolean;
  };
};

/** A task ended. The CLI usually starts a root turn of its own right after, to tell the model. */
export type SDKTaskNotificationMessage = SystemBase & {
  subtype: 'task_notification';
  task_id: string;
  run_id?: string;
  tool_use_id?: string;
  status: 'completed' | 'failed' | 'stopped';
  reason?: 'worker_restart';
  output_file: string;
  summary: string;
  /** Seen on 2.1.328 for subagents whose summary is their final report. */
  summary_is_report?: boolean;
  usage?: TaskUsage;
  skip_transcript?: boolean;
  ambient?: boolean;
};

/** Level signal: the full set of live background tasks after a change. Replace, never merge. */
export type SDKBackgroundTasksChangedMessage = SystemBase & {
  subtype: 'background_tasks_changed';
  tasks: {
    task_id: string;
    run_id?: string;
    task_type: string;
    subagent_type?: string;
    description: string;
    parent_task_id?: string;
    /** Not activity (watchers, skip_transcript tasks): exclude from "is work running". */
    ambient?: boolean;
  }[];
};

export type SessionState = 'idle' | 'running' | 'requires_action';

/**
 * Sent when CLAUDE_CODE_SDK_READS_SESSION_STATE=1 (then with `sdk_host_only: true`, and the official SDK
 * does not yield it) or CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS=1. `idle` means the turn is over including
 * background agents.
 */
export type SDKSessionStateChangedMessage = SystemBase & {
  subtype: 'session_state_changed';
  state: SessionState;
  sdk_host_only?: boolean;
};

type HookMessageBase = SystemBase & {
  hook_id: string;
  hook_name: string;
  hook_event: string;
};

export type SDKHookStartedMessage = HookMessageBase & {
  subtype: 'hook_started';
};

export type SDKHookProgressMessage = HookMessageBase & {
  subtype: 'hook_progress';
  stdout: string;
  stderr: string;
  output: string;
};

export type SDKHookResponseMessage = HookMessageBase & {
  subtype: 'hook_response';
  output: string;
  stdout: string;
  stderr: string;
  exit_code?: number;
  outcome: 'success' | 'error' | 'cancelled';
};

export type SDKLocalCommandOutputMessage = SystemBase & {
  subtype: 'local_command_output';
  content: string;
};

export type SDKThinkingTokensMessage = SystemBase & {
  subtype: 'thinking_tokens';
  estimated_tokens: number;
  estimated_tokens_delta: number;
  user_message_uuid?: string;
};

export type SDKCommandsChangedMessage = SystemBase & {
  subtype: 'commands_changed';
  commands: SlashCommand[];
};

export type SDKNotificationMessage = SystemBase & {
  subtype: 'notification';
  key: string;
  text: string;
  priority: 'low' | 'medium' | 'high' | 'immediate';
  color?: string;
  timeout_ms?: number;
};

export type SDKFilesPersistedEvent = SystemBase & {
  subtype: 'files_persisted';
  files: { filename: string; file_id: string }[];
  failed: { filename: string; error: string }[];
  processed_at: string;
};

export type SDKPermissionDeniedMessage = SystemBase & {
  subtype: 'permission_denied';
  tool_name: string;
  tool_use_id: string;
  agent_id?: string;
  decision_reason_type?: string;
  decision_reason?: string;
  message: string;
};

export type SDKInformationalMessage = SystemBase & {
  subtype: 'informational';
  content: string;
  level: 'info' | 'notice' | 'suggestion' | 'warning';
  tool_use_id?: string;
  prevent_continuation?: boolean;
  tag?: string;
};

export type SDKControlRequestProgressMessage = SystemBase & {
  subtype: 'control_request_progress';
  request_id: string;
  status: 'started' | 'api_retry';
  attempt?: number;
  max_retries?: number;
  retry_delay_ms?: number;
  error_status?: number | null;
};

export type SDKWorkerShuttingDownMessage = SystemBase & {
  subtype: 'worker_shutting_down';
  reason: string;
};

export type SDKElicitationCompleteMessage = SystemBase & {
  subtype: 'elicitation_complete';
  mcp_server_name: string;
  elicitation_id: string;
};

export type SDKPluginInstallMessage = SystemBase & {
  subtype: 'plugin_install';
  status: 'started' | 'installed' | 'failed' | 'completed';
  name?: string;
  error?: string;
};

/** The model refused; the turn is retried (or continues) on a fallback model. */
export type SDKModelRefusalFallbackMessage = SystemBase & {
  subtype: 'model_refusal_fallback';
  trigger: 'refusal';
  direction: 'retry' | 'revert' | 'sticky';
  scope?: 'session' | 'local';
  original_model: string;
  fallback_model: string;
  request_id: string | null;
  api_refusal_category?: string | null;
  api_refusal_explanation?: string | null;
  /** Assistant messages already sent that the retry replaces. */
  retracted_message_uuids?: string[];
  refused_user_message_uuid?: string | null;
  content: string;
};

/** The model refused and no fallback model is configured. */
export type SDKModelRefusalNoFallbackMessage = SystemBase & {
  subtype: 'model_refusal_no_fallback';
  original_model: string;
  request_id: string | null;
  api_refusal_category?: string | null;
  api_refusal_explanation?: string | null;
  refused_user_message_uuid?: string | null;
  content: string;
};

/** Memories recalled into the context for this turn. */
export type SDKMemoryRecallMessage = SystemBase & {
  subtype: 'memory_recall';
  mode: 'select' | 'synthesize';
  memories: { path: string; scope: 'personal' | 'team' | 'organization'; content?: string }[];
};

/** A batch of the transcript mirror (`sessionStore`) could not be stored; the local transcript is intact. */
export type SDKMirrorErrorMessage = SystemBase & {
  subtype: 'mirror_error';
  error: string;
  key: { projectKey: string; sessionId: string; subpath?: string };
};

/** The disk filled up (or a quota was hit): what the CLI could not write is lost. */
export type SDKSessionWritesLostMessage = SystemBase & {
  subtype: 'session_writes_lost';
  error_code: 'ENOSPC' | 'EDQUOT';
  lost: ('transcript' | 'global_config')[];
  transcript_session_ids?: string[];
};

/**
 * The session's active goal (`/goal`), or `null` once cleared. Not a member of `SDKMessage` (nor of the
 * official one); it arrives as an `SDKUnknownMessage` and can be narrowed with this type.
 */
export type SDKActiveGoalMessage = {
  type: 'active_goal';
  value: {
    condition: string;
    iterations: number;
    set_at: number;
    tokens_at_start: number;
    last_reason?: string;
  } | null;
  uuid: UUID;
  session_id: string;
};

/** Every known `type: 'system'` message. */
export type SDKKnownSystemMessage =
  | SDKSystemMessage
  | SDKStatusMessage
  | SDKAPIRetryMessage
  | SDKCompactBoundaryMessage
  | SDKTaskStartedMessage
  | SDKTaskProgressMessage
  | SDKTaskUpdatedMessage
  | SDKTaskNotificationMessage
  | SDKBackgroundTasksChangedMessage
  | SDKSessionStateChangedMessage
  | SDKHookStartedMessage
  | SDKHookProgressMessage
  | SDKHookResponseMessage
  | SDKLocalCommandOutputMessage
  | SDKThinkingTokensMessage
  | SDKCommandsChangedMessage
  | SDKNotificationMessage
  | SDKFilesPersistedEvent
  | SDKPermissionDeniedMessage
  | SDKInformationalMessage
  | SDKControlRequestProgressMessage
  | SDKWorkerShuttingDownMessage
  | SDKElicitationCompleteMessage
  | SDKPluginInstallMessage
  | SDKModelRefusalFallbackMessage
  | SDKModelRefusalNoFallbackMessage
  | SDKMemoryRecallMessage
  | SDKMirrorErrorMessage
  | SDKSessionWritesLostMessage;
