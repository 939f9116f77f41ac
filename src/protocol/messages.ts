// The messages the CLI writes on stdout, named and shaped as in the official Agent SDK (0.3.328), checked
// against transcripts of Claude Code 2.1.328.
//
// `SDKMessage` lists the known types only, as the official SDK does, so that narrowing on `type` and
// `subtype` keeps working (a union member with `type: string` would turn every narrowed field into
// `unknown`). At run time Warden passes every message through untouched, known or not, with every field
// the CLI sent: `AnySDKMessage` is the honest type of what a consumer receives.
//
// Type aliases, not interfaces (as in the official SDK): an alias has an implicit index signature, so a
// raw frame (`Record<string, unknown>`) and these types convert into each other with a plain cast.
import type { APIAssistantMessage, APIUsage, APIUserMessageParam, UUID } from './api-types.js';
import type { APIRawStreamEvent } from './sdk-types.js';
import type { FastModeState, SDKKnownSystemMessage } from './system-messages.js';

export type * from './system-messages.js';
export type * from './api-types.js';

/** Who wrote a user-role message, or why the CLI started a turn by itself. */
export type SDKMessageOrigin =
  | { kind: 'human' }
  | { kind: 'channel'; server: string }
  | { kind: 'peer'; from: string; fromMode?: 'bypass' | 'prompting'; name?: string; fromSession?: string }
  /** A turn the CLI started after a background task reported; `runId` is the task's `run_id`. */
  | { kind: 'task-notification'; producer?: string; subkind?: string; fireReason?: string; runId?: string }
  | { kind: 'coordinator' }
  | { kind: 'unclassified' }
  | { kind: 'observer'; from: string; senderTaskId: string }
  | { kind: 'auto-continuation' }
  | { kind: 'observer-activity' };

export type SDKAssistantMessageError =
  | 'authentication_failed'
  | 'oauth_org_not_allowed'
  | 'account_on_hold'
  | 'verification_required'
  | 'billing_error'
  | 'rate_limit'
  | 'overloaded'
  | 'invalid_request'
  | 'model_not_found'
  | 'server_error'
  | 'unknown'
  | 'max_output_tokens'
  | 'cloud_credential_error';

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
  supersedes?: UUID[];
  aborted?: true;
  /** The subagent's task_id. */
  agent_id?: string;
  subagent_type?: string;
  task_description?: string;
  timestamp?: string;
  /** Seen on 2.1.328 for synthetic "API Error" messages. */
  is_api_error_message?: boolean;
  api_error_status?: number | null;
  api_error_type?: string;
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

export type ModelUsage = {
  inputTokens: number;
  outputTokens: number;
  thinkingTokens?: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  webSearchRequests: number;
  costUSD: number;
  contextWindow: number;
  maxOutputTokens: number;
  canonicalModel?: string;
  provider?: string;
  costBasis?: 'list' | 'managed' | 'unknown';
};

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
  usage: APIUsage;
  modelUsage: Record<string, ModelUsage>;
  permission_denials: SDKPermissionDenial[];
  queued_turn_count?: number;
  user_message_uuid?: string;
  user_message_uuids?: string[];
  resume_reason?: string;
  terminal_reason?: string;
  /** How many results the process wrote before this one; a gap means a result was lost. */
  result_index?: number;
  credential_expires_at?: string;
  fast_mode_state?: FastModeState;
  fast_mode_disabled_reason?: string;
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
  ttft_ms?: number;
};

export type SDKResultError = SDKResultBase & {
  subtype:
    | 'error_during_execution'
    | 'error_max_turns'
    | 'error_max_budget_usd'
    | 'error_max_structured_output_retries';
  errors: string[];
  startup_failure_reason?: string;
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
  rate_limit_info: {
    status: 'allowed' | 'allowed_warning' | 'rejected';
    resetsAt?: number;
    rateLimitType?: string;
    utilization?: number;
    [key: string]: unknown;
  };
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
  trigger?: string;
  user_message_uuid?: string;
  timestamp?: string;
  uuid: UUID;
  session_id: string;
};

/**
 * Progress of a user message that carried a `uuid` (queued → started → completed, or cancelled). Not in
 * the official SDK's types; seen from Claude Code 2.1.328.
 */
export type SDKCommandLifecycleMessage = {
  type: 'command_lifecycle';
  command_uuid: string;
  state: 'queued' | 'started' | 'completed' | 'cancelled';
  uuid: UUID;
  session_id: string;
};

/** Every message type Warden knows. Consumers should ignore types and subtypes they do not recognise. */
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
  | SDKCommandLifecycleMessage
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
