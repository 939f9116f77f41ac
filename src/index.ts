// warden: the SDK. The shape of the official Agent SDK's entry point, so code moves over by changing
// one import. Warden's own additions are marked in docs/compatibility.md.
export { query, Query, type Prompt } from './session/query.js';
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
} from './sessions/index.js';
export type * from './sessions/types.js';
export { InMemorySessionStore } from './session/session-store.js';
export type * from './session/session-store.js';
export { importSessionToStore } from './session/import-session.js';
export type * from './session/option-types.js';
export * from './protocol/errors.js';
export type * from './protocol/messages.js';
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
