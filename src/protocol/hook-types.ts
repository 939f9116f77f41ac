// Hook inputs and outputs with the official Agent SDK's names and shapes (0.3.332): one input per event,
// discriminated on `hook_event_name` so narrowing works, and one `hookSpecificOutput` per event that takes
// one. Checked against what Claude Code 2.1.332 sends; fields a newer CLI adds pass through. Types only.
import type { SDKAssistantMessageError } from './assistant-error.js';
import type { PermissionUpdate } from './permissions.js';

/** Every hook event of Claude Code 2.1.332. */
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
  | 'MessageDisplay'
  | 'PreSkillShellCommand';

/** Open-ended: each CLI release may add an event, and its hooks must still register. */
export type HookEvent = KnownHookEvent | (string & {});

/** The MCP server a tool belongs to, and where that server was configured. */
export type McpServerProvenance = { name: string; source: string };

export type BaseHookInput = {
  session_id: string;
  transcript_path: string;
  cwd: string;
  prompt_id?: string;
  permission_mode?: string;
  /** Set inside a subagent. */
  agent_id?: string;
  agent_type?: string;
  effort?: { level: string };
};

/** A background task still running when the turn stops (Stop, SubagentStop). */
export type BackgroundTaskSummary = {
  id: string;
  type: string;
  status: string;
  description: string;
  command?: string;
  agent_type?: string;
  server?: string;
  tool?: string;
  name?: string;
};

/**
 * A scheduled prompt of the session (Stop, SubagentStop), with the official `SessionCronSummary`'s fields;
 * any further field passes through as the CLI sends it.
 */
type SessionCron = { id: string; schedule: string; recurring: boolean; prompt: string };

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

/** One call of a batch of tool calls the model made in one message. */
export type PostToolBatchToolCall = {
  tool_name: string;
  tool_input: unknown;
  tool_use_id: string;
  tool_response?: unknown;
};

/** After every tool call of one assistant message has finished. */
export type PostToolBatchHookInput = BaseHookInput & {
  hook_event_name: 'PostToolBatch';
  tool_calls: PostToolBatchToolCall[];
};

/** A tool call was denied (by a rule, a hook, the user or the auto-mode classifier). */
export type PermissionDeniedHookInput = BaseHookInput & {
  hook_event_name: 'PermissionDenied';
  tool_name: string;
  tool_input: unknown;
  tool_use_id: string;
  reason: string;
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

/** A slash command or MCP prompt is about to be expanded into a prompt. */
export type UserPromptExpansionHookInput = BaseHookInput & {
  hook_event_name: 'UserPromptExpansion';
  expansion_type: 'slash_command' | 'mcp_prompt';
  command_name: string;
  command_args: string;
  command_source?: string;
  prompt: string;
};

export type SessionStartHookInput = BaseHookInput & {
  hook_event_name: 'SessionStart';
  source: 'startup' | 'resume' | 'clear' | 'compact' | 'fork';
  agent_type?: string;
  model?: string;
  session_title?: string;
  seconds_since_last_response?: number;
  context_tokens?: number;
  prompt_cache_likely_expired?: boolean;
  estimated_cache_write_usd?: number;
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
  background_tasks?: BackgroundTaskSummary[];
  session_crons?: SessionCron[];
};

/** The turn ended on an API error instead of normally. */
export type StopFailureHookInput = BaseHookInput & {
  hook_event_name: 'StopFailure';
  error: SDKAssistantMessageError;
  error_details?: string;
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
  background_tasks?: BackgroundTaskSummary[];
  session_crons?: SessionCron[];
};

export type PreCompactHookInput = BaseHookInput & {
  hook_event_name: 'PreCompact';
  trigger: 'manual' | 'auto';
  custom_instructions: string | null;
};

export type PostCompactHookInput = BaseHookInput & {
  hook_event_name: 'PostCompact';
  trigger: 'manual' | 'auto';
  compact_summary: string;
};

/** What a model switch costs: the context that has to be written to a cold cache again. */
type ModelSwitchFields = {
  from_model: string;
  to_model: string;
  requested_model: string | null;
  context_tokens: number;
  prompt_cache_warm: boolean;
  cache_ttl: '5m' | '1h';
  estimated_cache_write_usd: number;
  pricing: 'configured' | 'catalog' | 'default';
};

export type PreModelSwitchHookInput = BaseHookInput & {
  hook_event_name: 'PreModelSwitch';
} & ModelSwitchFields & {
    source: 'command' | 'picker' | 'sdk';
  };

export type PostModelSwitchHookInput = BaseHookInput & {
  hook_event_name: 'PostModelSwitch';
} & ModelSwitchFields & { source: 'command' | 'picker' | 'sdk' | 'auto' | 'resume' };

export type PermissionRequestHookInput = BaseHookInput & {
  hook_event_name: 'PermissionRequest';
  tool_name: string;
  tool_input: unknown;
  permission_suggestions?: PermissionUpdate[];
  mcp_server?: McpServerProvenance;
};

export type SetupHookInput = BaseHookInput & {
  hook_event_name: 'Setup';
  trigger: 'init' | 'maintenance';
};

export type TeammateIdleHookInput = BaseHookInput & {
  hook_event_name: 'TeammateIdle';
  teammate_name: string;
  team_name: string;
};

type TaskHookFields = {
  task_id: string;
  task_subject: string;
  task_description?: string;
  teammate_name?: string;
  team_name?: string;
};

export type TaskCreatedHookInput = BaseHookInput & { hook_event_name: 'TaskCreated' } & TaskHookFields;

export type TaskCompletedHookInput = BaseHookInput & { hook_event_name: 'TaskCompleted' } & TaskHookFields;

export type ElicitationHookInput = BaseHookInput & {
  hook_event_name: 'Elicitation';
  mcp_server_name: string;
  message: string;
  mode?: 'form' | 'url';
  url?: string;
  elicitation_id?: string;
  requested_schema?: Record<string, unknown>;
};

export type ElicitationResultHookInput = BaseHookInput & {
  hook_event_name: 'ElicitationResult';
  mcp_server_name: string;
  elicitation_id?: string;
  mode?: 'form' | 'url';
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
};

export type ConfigChangeHookInput = BaseHookInput & {
  hook_event_name: 'ConfigChange';
  source: 'user_settings' | 'project_settings' | 'local_settings' | 'policy_settings' | 'skills';
  file_path?: string;
};

/** A CLAUDE.md or rules file was loaded into the context. */
export type InstructionsLoadedHookInput = BaseHookInput & {
  hook_event_name: 'InstructionsLoaded';
  file_path: string;
  memory_type: 'User' | 'Project' | 'Local' | 'Managed';
  load_reason: 'session_start' | 'nested_traversal' | 'path_glob_match' | 'include' | 'compact';
  globs?: string[];
  trigger_file_path?: string;
  parent_file_path?: string;
};

export type WorktreeCreateHookInput = BaseHookInput & {
  hook_event_name: 'WorktreeCreate';
  name: string;
};

export type WorktreeRemoveHookInput = BaseHookInput & {
  hook_event_name: 'WorktreeRemove';
  worktree_path: string;
};

export type CwdChangedHookInput = BaseHookInput & {
  hook_event_name: 'CwdChanged';
  old_cwd: string;
  new_cwd: string;
};

/** A path a hook asked to watch (`watchPaths`) changed. */
export type FileChangedHookInput = BaseHookInput & {
  hook_event_name: 'FileChanged';
  file_path: string;
  event: 'change' | 'add' | 'unlink';
};

export type DirectoryAddedHookInput = BaseHookInput & {
  hook_event_name: 'DirectoryAdded';
  directory: string;
  source: 'slash_command' | 'register_repo_root';
};

/** A piece of assistant text about to be shown (`final` on the last piece of the message). */
export type MessageDisplayHookInput = BaseHookInput & {
  hook_event_name: 'MessageDisplay';
  turn_id: string;
  message_id: string;
  index: number;
  final: boolean;
  delta: string;
};

/** A shell command embedded in a skill or slash command is about to run. */
export type PreSkillShellCommandHookInput = BaseHookInput & {
  hook_event_name: 'PreSkillShellCommand';
  tool_name: string;
  tool_input: { command: string };
  tool_use_id: string;
  command_name: string;
  command_source?: string;
  invoked_by: 'user' | 'claude' | 'other';
};

/** What a hook callback receives: narrow on `hook_event_name`. */
export type HookInput =
  | PreToolUseHookInput
  | PostToolUseHookInput
  | PostToolUseFailureHookInput
  | PostToolBatchHookInput
  | PermissionDeniedHookInput
  | NotificationHookInput
  | UserPromptSubmitHookInput
  | UserPromptExpansionHookInput
  | SessionStartHookInput
  | SessionEndHookInput
  | StopHookInput
  | StopFailureHookInput
  | SubagentStartHookInput
  | SubagentStopHookInput
  | PreCompactHookInput
  | PostCompactHookInput
  | PreModelSwitchHookInput
  | PostModelSwitchHookInput
  | PermissionRequestHookInput
  | SetupHookInput
  | TeammateIdleHookInput
  | TaskCreatedHookInput
  | TaskCompletedHookInput
  | ElicitationHookInput
  | ElicitationResultHookInput
  | ConfigChangeHookInput
  | InstructionsLoadedHookInput
  | WorktreeCreateHookInput
  | WorktreeRemoveHookInput
  | CwdChangedHookInput
  | FileChangedHookInput
  | DirectoryAddedHookInput
  | MessageDisplayHookInput
  | PreSkillShellCommandHookInput;

// ---------------------------------------------------------------------------------------------- outputs

export type HookPermissionDecision = 'allow' | 'deny' | 'ask' | 'defer';

/** The output of events whose only event-specific answer is context added for the model. */
type ContextOutput<E extends KnownHookEvent> = { hookEventName: E; additionalContext?: string };

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
  classifierContext?: string;
  updatedToolOutput?: unknown;
  updatedMCPToolOutput?: unknown;
};

export type PostToolUseFailureHookSpecificOutput = ContextOutput<'PostToolUseFailure'>;
export type PostToolBatchHookSpecificOutput = ContextOutput<'PostToolBatch'>;
export type NotificationHookSpecificOutput = ContextOutput<'Notification'>;
export type SetupHookSpecificOutput = ContextOutput<'Setup'>;
export type StopHookSpecificOutput = ContextOutput<'Stop'>;
export type SubagentStartHookSpecificOutput = ContextOutput<'SubagentStart'>;
export type SubagentStopHookSpecificOutput = ContextOutput<'SubagentStop'>;
export type PostModelSwitchHookSpecificOutput = ContextOutput<'PostModelSwitch'>;

export type UserPromptSubmitHookSpecificOutput = {
  hookEventName: 'UserPromptSubmit';
  additionalContext?: string;
  sessionTitle?: string;
  suppressOriginalPrompt?: boolean;
};

export type UserPromptExpansionHookSpecificOutput = {
  hookEventName: 'UserPromptExpansion';
  additionalContext?: string;
  suppressOriginalPrompt?: boolean;
};

export type SessionStartHookSpecificOutput = {
  hookEventName: 'SessionStart';
  additionalContext?: string;
  initialUserMessage?: string;
  sessionTitle?: string;
  watchPaths?: string[];
  reloadSkills?: boolean;
};

export type PreModelSwitchHookSpecificOutput = {
  hookEventName: 'PreModelSwitch';
  permissionDecision?: 'allow' | 'deny' | 'ask';
  permissionDecisionReason?: string;
};

/** `retry: true` tells the model it may try the call again. */
export type PermissionDeniedHookSpecificOutput = { hookEventName: 'PermissionDenied'; retry?: boolean };

export type PermissionRequestHookSpecificOutput = {
  hookEventName: 'PermissionRequest';
  decision:
    | { behavior: 'allow'; updatedInput?: Record<string, unknown>; updatedPermissions?: PermissionUpdate[] }
    | { behavior: 'deny'; message?: string; interrupt?: boolean };
};

/** Answer an elicitation without asking anyone (Elicitation), or change the answer (ElicitationResult). */
export type ElicitationHookSpecificOutput = {
  hookEventName: 'Elicitation';
  action?: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
};

export type ElicitationResultHookSpecificOutput = {
  hookEventName: 'ElicitationResult';
  action?: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
};

/** Paths to watch; a change fires FileChanged. */
export type CwdChangedHookSpecificOutput = { hookEventName: 'CwdChanged'; watchPaths?: string[] };
export type FileChangedHookSpecificOutput = { hookEventName: 'FileChanged'; watchPaths?: string[] };

export type WorktreeCreateHookSpecificOutput = { hookEventName: 'WorktreeCreate'; worktreePath: string };

/** Replaces the text shown for this piece of the message. */
export type MessageDisplayHookSpecificOutput = { hookEventName: 'MessageDisplay'; displayContent?: string };

export type PreSkillShellCommandHookSpecificOutput = {
  hookEventName: 'PreSkillShellCommand';
  permissionDecision?: HookPermissionDecision;
  permissionDecisionReason?: string;
  updatedInput?: Record<string, unknown>;
};

export type SyncHookJSONOutput = {
  continue?: boolean;
  suppressOutput?: boolean;
  stopReason?: string;
  decision?: 'approve' | 'block';
  systemMessage?: string;
  terminalSequence?: string;
  reason?: string;
  hookSpecificOutput?:
    | PreToolUseHookSpecificOutput
    | UserPromptSubmitHookSpecificOutput
    | UserPromptExpansionHookSpecificOutput
    | SessionStartHookSpecificOutput
    | SetupHookSpecificOutput
    | PreModelSwitchHookSpecificOutput
    | PostModelSwitchHookSpecificOutput
    | SubagentStartHookSpecificOutput
    | PostToolUseHookSpecificOutput
    | PostToolUseFailureHookSpecificOutput
    | PostToolBatchHookSpecificOutput
    | StopHookSpecificOutput
    | SubagentStopHookSpecificOutput
    | PermissionDeniedHookSpecificOutput
    | NotificationHookSpecificOutput
    | PermissionRequestHookSpecificOutput
    | ElicitationHookSpecificOutput
    | ElicitationResultHookSpecificOutput
    | CwdChangedHookSpecificOutput
    | FileChangedHookSpecificOutput
    | WorktreeCreateHookSpecificOutput
    | MessageDisplayHookSpecificOutput
    | PreSkillShellCommandHookSpecificOutput;
};

/** The hook runs on in the background; the CLI does not wait for its result. */
export type AsyncHookJSONOutput = { async: true; asyncTimeout?: number };

export type HookJSONOutput = AsyncHookJSONOutput | SyncHookJSONOutput;
