// warden: the SDK. The shape of the official Agent SDK's entry point, so code moves over by changing
// one import. Warden's own additions are marked in docs/compatibility.md.
export { query, Query, type Prompt } from './session/query.js';
export { tool, createSdkMcpServer } from './session/sdk-mcp-server.js';
export type {
  AnySdkMcpToolDefinition,
  CreateSdkMcpServerOptions,
  McpSdkServerConfig,
  McpSdkServerConfigWithInstance,
  SdkMcpToolDefinition,
} from './session/sdk-mcp-server.js';
export type {
  AgentDefinition,
  CanUseTool,
  HookCallback,
  HookCallbackMatcher,
  HookEvent,
  HookInput,
  HookJSONOutput,
  McpHttpServerConfig,
  McpServerConfig,
  McpSSEServerConfig,
  McpStdioServerConfig,
  Options,
  SettingSource,
} from './session/options.js';
export * from './protocol/errors.js';
export type * from './protocol/messages.js';
export type { PermissionMode, PermissionResult, PermissionUpdate } from './protocol/control.js';
