// Constants the official SDK exports, with the same values: names the CLI uses (hook events, exit
// reasons, built-in tools and their former names), the text prefixes of its usage-limit messages (a host
// matches on them to show the right notice) and the marker that splits a custom system prompt for caching.
// Values as of CLI 2.1.332; a test compares them with the official package's.

/** Every hook event the CLI fires. */
export const HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Notification',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'SessionStart',
  'SessionEnd',
  'Stop',
  'StopFailure',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'PreModelSwitch',
  'PostModelSwitch',
  'PermissionRequest',
  'PermissionDenied',
  'Setup',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
  'Elicitation',
  'ElicitationResult',
  'ConfigChange',
  'WorktreeCreate',
  'WorktreeRemove',
  'InstructionsLoaded',
  'CwdChanged',
  'FileChanged',
  'DirectoryAdded',
  'MessageDisplay',
  'PreSkillShellCommand',
] as const;

/** Why a session ended (SessionEnd's `reason`). */
export const EXIT_REASONS = ['clear', 'resume', 'logout', 'prompt_input_exit', 'other'] as const;

/** The CLI's built-in tools, as they appear in system/init's `tools` (which lists what this session has). */
export const BUILTIN_TOOL_NAMES = [
  'Agent',
  'Artifact',
  'AskUserQuestion',
  'Bash',
  'ClaudeDesign',
  'CronCreate',
  'CronDelete',
  'CronList',
  'Edit',
  'EndConversation',
  'EnterPlanMode',
  'EnterWorktree',
  'ExitPlanMode',
  'ExitWorktree',
  'Glob',
  'Grep',
  'ListAgents',
  'ListMcpResourcesTool',
  'LSP',
  'Monitor',
  'NotebookEdit',
  'OfferChromeSetup',
  'PowerShell',
  'Projects',
  'propose_skills',
  'PushNotification',
  'Read',
  'ReadMcpResourceDirTool',
  'ReadMcpResourceTool',
  'ReadNotifications',
  'RemoteTrigger',
  'ReportFindings',
  'ScheduleWakeup',
  'SendFeedback',
  'SendMessage',
  'SendUserFile',
  'SendUserMessage',
  'SetGoal',
  'ShareOnboardingGuide',
  'ShowOnboardingRolePicker',
  'Skill',
  'SubagentHandback',
  'TaskCreate',
  'TaskGet',
  'TaskList',
  'TaskStop',
  'TaskUpdate',
  'TodoWrite',
  'ToolSearch',
  'WaitForMcpServers',
  'WebFetch',
  'WebSearch',
  'Workflow',
  'Write',
] as const;

/** Former tool names the CLI still accepts (in rules, allowedTools…), each with its current name. */
export const LEGACY_TOOL_NAME_ALIASES: Readonly<Record<string, string>> = {
  Task: 'Agent',
  KillShell: 'TaskStop',
  KillBash: 'TaskStop',
  ListPeers: 'ListAgents',
  Brief: 'SendUserMessage',
  ListMcpResources: 'ListMcpResourcesTool',
  ReadMcpResource: 'ReadMcpResourceTool',
  ReadMcpResourceDir: 'ReadMcpResourceDirTool',
  ProposeGoal: 'SetGoal',
};

/** An API error that starts with one of these is the organisation's policy, not a usage limit. */
export const ORG_POLICY_LIMIT_PREFIXES = ['This service is disabled for your org'] as const;

/** An API error that starts with one of these is a usage limit reached. */
export const USAGE_LIMIT_ERROR_PREFIXES = [
  "You've hit your",
  "You've reached your",
  "You're out of usage credits",
  'Your org is out of usage · add funds to continue',
  'Your org is out of usage · contact your admin',
  "Your seat type doesn't include usage credits",
  "Your seat type doesn't include usage",
  'Your usage allocation has been disabled by your admin',
  "Your group's usage limit is set to $0",
  'Fable 5 requires usage credits',
  "You're out of extra usage",
  "Your seat type doesn't include extra usage",
] as const;

/** Notices that the session now draws from credits or an allocation (never API errors). */
export const USAGE_TRANSITION_PREFIXES = [
  "You're now using usage credits",
  "You're now using your usage allocation",
  'Now using your usage allocation',
  'Now using usage credits',
  'Now using credits',
  "You're now using extra usage",
  'Now using extra usage',
] as const;

/** Warnings that a limit is near. */
export const USAGE_WARNING_PREFIXES = ["You've used", "You're close to"] as const;

/**
 * Put this marker in a custom system prompt to let the part before it be cached across sessions; the
 * part after it is cached per session.
 */
export const SYSTEM_PROMPT_DYNAMIC_BOUNDARY = '__SYSTEM_PROMPT_DYNAMIC_BOUNDARY__';
