// The messages the CLI writes on stdout, named and shaped as in the official Agent SDK (0.3.332), checked
// against transcripts of Claude Code 2.1.328 and 2.1.332.
//
// `SDKMessage` lists the known types only, as the official SDK does, so that narrowing on `type` and
// `subtype` keeps working (a union member with `type: string` would turn every narrowed field into
// `unknown`). At run time Warden passes every message through untouched, known or not, with every field
// the CLI sent: `AnySDKMessage` is the honest type of what a consumer receives.
//
// Type aliases, not interfaces (as in the official SDK): an alias has an implicit index signature, so a
// raw frame (`Record<string, unknown>`) and these types convert into each other with a plain cast.
import type {
  APIAssistantMessage,
  APIRawStreamEvent,
  APIUserMessageParam,
  NonNullableUsage,
  UUID,
} from './api-types.js';
import type { SDKAssistantMessageError } from './assistant-error.js';
import type { SDKContextUsage, SDKUsageReport } from './usage.js';
import type {
  FastModeDisabledReason,
  SDKDeferredToolUse,
  SDKRateLimitInfo,
  SDKStartupFailureReason,
  TerminalReason,
} from './sdk-extra-types.js';
import type { FastModeState, SDKKnownSystemMessage } from './system-messages.js';

export type * from './system-messages.js';
export type * from './api-types.js';
export type * from './sdk-extra-types.js';
export type * from './sandbox-types.js';
export type * from './mcp-config-types.js';

/** Who wrote a user-role message, or why the CLI started a turn by itself. */
export type SDKMessageOrigin =
  | { kind: 'human' }
  | { kind: 'channel'; server: string }
  | {
      kind: 'peer';
      from: string;
      fromMode?: 'bypass' | 'prompting';
      name?: string;
      fromSession?: string;
      senderTaskId?: string;
      body?: string;
      verifiedPeerPid?: number;
    }
  /** A turn the CLI started after a background task reported; `runId` is the task's `run_id`. */
  | {
      kind: 'task-notification';
      subkind?:
        'scheduled-trigger' | 'peer-send-message' | 'projects-relay' | 'session-inbox' | 'external-event';
      fireReason?: string;
      runId?: string;
    }
  | { kind: 'coordinator' }
  | { kind: 'unclassified' }
  | { kind: 'observer'; from: string; senderTaskId: string }
  | { kind: 'auto-continuation' }
  | { kind: 'observer-activity' };

export type { SDKAssistantMessageError } from './assistant-error.js';

export type SDKAssistantMessage = {
  type: 'assistant';
  message: APIAssistantMessage;
  /** Non-null inside a subagent: the tool_use that started it. */
  parent_tool_use_id: string | null;
  error?: SDKAssistantMessageError;
  uuid: UUID;
  session_id: string;
  request_id?: string;
  user_message_uuid?: string;
  user_message_uuids?: string[];
  resume_reason?: string;
  resumed_from_incomplete_thinking?: true;
  supersedes?: UUID[];
  aborted?: true;
  /** The subagent's task_id. */
  agent_id?: string;
  subagent_type?: string;
  task_description?: string;
  timestamp?: string;
  context_usage?: SDKContextUsage;
  usage_report?: SDKUsageReport;
};

export type SDKUserMessage = {
  type: 'user';
  message: APIUserMessageParam;
  parent_tool_use_id: string | null;
  isSynthetic?: boolean;
  tool_use_result?: unknown;
  priority?: 'now' | 'next' | 'later';
  origin?: SDKMessageOrigin;
  shouldQuery?: boolean;
  timestamp?: string;
  client_composed?: true;
  uuid?: UUID;
  /** Pasted content the user attached, kept apart from the typed text. */
  pasted_content?: APIUserMessageParam['content'][];
  inline_pastes?: string[];
  session_id?: string;
  agent_id?: string;
  subagent_type?: string;
  task_description?: string;
};

/** A user message echoed back by the CLI (`--replay-user-messages`, or on resume). */
export type SDKUserMessageReplay = Omit<SDKUserMessage, 'uuid' | 'session_id'> & {
  uuid: UUID;
  session_id: string;
  isReplay: true;
};

import type { ModelUsage } from './usage.js';
export type { ModelUsage };

export type SDKPermissionDenial = {
  tool_name: string;
  tool_use_id: string;
  tool_input: Record<string, unknown>;
};

type SDKResultBase = {
  type: 'result';
  duration_ms: number;
  duration_api_ms: number;
  is_error: boolean;
  num_turns: number;
  stop_reason: string | null;
  /** Cumulative over the session: read the latest, never sum. */
  total_cost_usd: number;
  /** Every count a number: no null checks before adding them up. */
  usage: NonNullableUsage;
  modelUsage: Record<string, ModelUsage>;
  permission_denials: SDKPermissionDenial[];
  queued_turn_count?: number;
  user_message_uuid?: string;
  user_message_uuids?: string[];
  resume_reason?: string;
  terminal_reason?: TerminalReason;
  /** How many results the process wrote before this one; a gap means a result was lost. */
  result_index?: number;
  credential_expires_at?: string;
  fast_mode_state?: FastModeState;
  fast_mode_disabled_reason?: FastModeDisabledReason;
  /** Set on turns the CLI started by itself (`kind: 'task-notification'`). */
  origin?: SDKMessageOrigin;
  uuid: UUID;
  session_id: string;
};

/** One per turn. `is_error: true` with subtype success means the turn ended on an API error. */
export type SDKResultSuccess = SDKResultBase & {
  subtype: 'success';
  result: string;
  api_error_status?: number | null;
  structured_output?: unknown;
  /** A tool call a hook deferred: the turn ended with it unexecuted. */
  deferred_tool_use?: SDKDeferredToolUse;
  ttft_ms?: number;
  ttft_stream_ms?: number;
  time_to_request_ms?: number;
  local_command?: string;
};

export type SDKResultError = SDKResultBase & {
  subtype:
    | 'error_during_execution'
    | 'error_max_turns'
    | 'error_max_budget_usd'
    | 'error_max_structured_output_retries';
  errors: string[];
  startup_failure_reason?: SDKStartupFailureReason;
  invalid_config_file?: { path: string; is_global: boolean; backup_searched: boolean; backup_path?: string };
};

export type SDKResultMessage = SDKResultSuccess | SDKResultError;

/** Only with --include-partial-messages. The complete assistant message still follows. */
export type SDKPartialAssistantMessage = {
  type: 'stream_event';
  /** Narrow on `event.type`, then `event.delta.type`; event types a newer CLI adds arrive untouched. */
  event: APIRawStreamEvent;
  parent_tool_use_id: string | null;
  uuid: UUID;
  session_id: string;
  ttft_ms?: number;
  user_message_uuid?: string;
  user_message_uuids?: string[];
  resume_reason?: string;
};

export type SDKToolProgressMessage = {
  type: 'tool_progress';
  tool_use_id: string;
  tool_name: string;
  parent_tool_use_id: string | null;
  elapsed_time_seconds: number;
  task_id?: string;
  heartbeat?: boolean;
  subagent_type?: string;
  /** A subagent's API call failed and is retried (0.3.333). */
  subagent_retry?: {
    agent_id: string;
    attempt: number;
    max_retries: number;
    retry_delay_ms: number;
    error_status: number | null;
    error_category: string;
  };
  /** What the tool is doing, on a heartbeat that has words for it (Claude Code 2.1.333). */
  description?: string;
  uuid: UUID;
  session_id: string;
};

export type SDKAuthStatusMessage = {
  type: 'auth_status';
  isAuthenticating: boolean;
  output: string[];
  error?: string;
  uuid: UUID;
  session_id: string;
};

export type SDKRateLimitEvent = {
  type: 'rate_limit_event';
  rate_limit_info: SDKRateLimitInfo;
  uuid: UUID;
  session_id: string;
};

export type SDKToolUseSummaryMessage = {
  type: 'tool_use_summary';
  summary: string;
  preceding_tool_use_ids: string[];
  uuid: UUID;
  session_id: string;
};

/** Arrives after `result` when prompt suggestions are enabled. */
export type SDKPromptSuggestionMessage = {
  type: 'prompt_suggestion';
  suggestion: string;
  uuid: UUID;
  session_id: string;
};

export type SDKConversationResetMessage = {
  type: 'conversation_reset';
  new_conversation_id: UUID;
  /** What discarded the conversation; reset on every conversation_reset, whatever it says (absent from older CLIs). */
  trigger?: 'clear' | 'plan_mode_exit' | 'fresh_session' | 'onboarding';
  user_message_uuid?: string;
  timestamp?: string;
  uuid: UUID;
  session_id: string;
};

/**
 * Progress of a user message that carried a `uuid` (queued → started → completed, or cancelled). Seen from
 * Claude Code 2.1.328; not in the official SDK's types, so not in `SDKMessage` either: it arrives as an
 * `SDKUnknownMessage` (see `AnySDKMessage`) and can be narrowed with this type.
 */
export type SDKCommandLifecycleMessage = {
  type: 'command_lifecycle';
  command_uuid: string;
  state: 'queued' | 'started' | 'completed' | 'cancelled';
  uuid: UUID;
  session_id: string;
};

/**
 * The messages of the official SDK's `SDKMessage` union, no more: code that switches over it exhaustively
 * compiles against both. Consumers should ignore types and subtypes they do not recognise.
 */
export type SDKMessage =
  | SDKAssistantMessage
  | SDKUserMessage
  | SDKUserMessageReplay
  | SDKResultMessage
  | SDKPartialAssistantMessage
  | SDKToolProgressMessage
  | SDKAuthStatusMessage
  | SDKRateLimitEvent
  | SDKToolUseSummaryMessage
  | SDKPromptSuggestionMessage
  | SDKConversationResetMessage
  | SDKKnownSystemMessage;

/** A message of a type or subtype this version of Warden does not know, exactly as the CLI wrote it. */
export type SDKUnknownMessage = {
  type: string;
  subtype?: string;
  uuid?: string;
  session_id?: string;
  [key: string]: unknown;
};

/** What a consumer actually receives: a known message, or one the CLI added after this release. */
export type AnySDKMessage = SDKMessage | SDKUnknownMessage;
