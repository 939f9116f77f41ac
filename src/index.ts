// warden: the SDK. The shape of the official Agent SDK's entry point, so code moves over by changing
// one import. Warden's own additions are marked in docs/compatibility.md.
export { query, Query, type InputClosed, type Prompt } from './session/query.js';
export { startup, type WarmQuery } from './session/startup.js';
export { tool, createSdkMcpServer } from './session/sdk-mcp-server.js';
export type {
  AnySdkMcpToolDefinition,
  AnyZodRawShape,
  CreateSdkMcpServerOptions,
  InferShape,
  McpSdkServerConfig,
  McpSdkServerConfigWithInstance,
  McpServerToolPolicy,
  SdkMcpToolDefinition,
} from './session/sdk-mcp-server.js';
export type {
  AgentDefinition,
  CanUseTool,
  HookCallback,
  HookCallbackMatcher,
  McpHttpServerConfig,
  McpServerConfig,
  McpSSEServerConfig,
  McpStdioServerConfig,
  Options,
  SettingSource,
  SystemPromptOption,
} from './session/options.js';
export {
  listSessions,
  getSessionInfo,
  getSessionMessages,
  forkSession,
  renameSession,
  tagSession,
  deleteSession,
  archiveSession,
  unarchiveSession,
  listSubagents,
  getSubagentMessages,
} from './sessions/index.js';
export type { ListSubagentsOptions, GetSubagentMessagesOptions } from './sessions/index.js';
export {
  HOOK_EVENTS,
  EXIT_REASONS,
  BUILTIN_TOOL_NAMES,
  LEGACY_TOOL_NAME_ALIASES,
  ORG_POLICY_LIMIT_PREFIXES,
  USAGE_LIMIT_ERROR_PREFIXES,
  USAGE_TRANSITION_PREFIXES,
  USAGE_WARNING_PREFIXES,
  SYSTEM_PROMPT_DYNAMIC_BOUNDARY,
} from './constants.js';
export { filterEscalatingDefaultMode } from './session/settings-resolved.js';
export type * from './session/settings-resolved.js';
export type * from './protocol/control-responses.js';
export type { CanUseToolContext, MatchedAskRule } from './session/can-use-tool.js';
export type * from './sessions/types.js';
export { InMemorySessionStore } from './session/session-store.js';
export type * from './session/session-store.js';
export { importSessionToStore } from './session/import-session.js';
export type * from './session/option-types.js';
export * from './protocol/errors.js';
export type * from './protocol/messages.js';
export type * from './protocol/sdk-transport.js';
export type * from './protocol/sdk-types.js';
export type {
  PermissionBehavior,
  PermissionDecisionClassification,
  PermissionMode,
  PermissionResult,
  PermissionRuleValue,
  PermissionUpdate,
  PermissionUpdateDestination,
} from './protocol/control.js';
