// The options of query(), with the official Agent SDK's names and meanings, plus the few that Warden adds
// (marked "Warden:"). docs/compatibility.md lists what differs and why.
import type { WardenError } from '../protocol/errors.js';
import type { PermissionMode } from '../protocol/control.js';
import type { HookEvent, HookInput, HookJSONOutput } from '../protocol/sdk-types.js';
import type { CliLaunch, CliTransport } from '../transport/cli-transport.js';
import type { McpSdkServerConfigWithInstance } from './sdk-mcp-server.js';
import type {
  EffortLevel,
  OnElicitation,
  OnUserDialog,
  OutputFormat,
  SandboxSettings,
  SdkBeta,
  SdkPluginConfig,
  Settings,
  SpawnedProcess,
  SpawnOptions,
  ThinkingConfig,
  ToolConfig,
} from './option-types.js';
import type { SessionStore, SessionStoreFlush } from './session-store.js';
export type * from './option-types.js';

import type { CanUseTool } from './can-use-tool.js';
export type { CanUseTool } from './can-use-tool.js';

// Hook inputs and outputs are the official, discriminated types (narrow on `hook_event_name`).
export type { HookEvent, HookInput, HookJSONOutput } from '../protocol/sdk-types.js';
export type HookCallback = (
  input: HookInput,
  toolUseID: string | undefined,
  options: { signal: AbortSignal },
) => Promise<HookJSONOutput>;
export interface HookCallbackMatcher {
  matcher?: string;
  hooks: HookCallback[];
  /** Timeout in seconds for all hooks in this matcher. */
  timeout?: number;
}

export interface McpStdioServerConfig {
  type?: 'stdio';
  command: string;
  args?: string[];
  env?: Record<string, string>;
}
export interface McpSSEServerConfig {
  type: 'sse';
  url: string;
  headers?: Record<string, string>;
}
export interface McpHttpServerConfig {
  type: 'http';
  url: string;
  headers?: Record<string, string>;
}
export type McpServerConfig =
  McpStdioServerConfig | McpSSEServerConfig | McpHttpServerConfig | McpSdkServerConfigWithInstance;

export interface AgentDefinition {
  description: string;
  prompt: string;
  tools?: string[];
  disallowedTools?: string[];
  model?: string;
  [key: string]: unknown;
}

export type SettingSource = 'user' | 'project' | 'local';

export type SystemPromptOption =
  | string
  | string[]
  | { type: 'custom'; prompt: string | string[]; snapshot?: boolean }
  | {
      type: 'preset';
      preset: 'claude_code';
      append?: string;
      excludeDynamicSections?: boolean;
      snapshot?: boolean;
    };

export interface Options {
  abortController?: AbortController;
  additionalDirectories?: string[];
  agents?: Record<string, AgentDefinition>;
  allowedTools?: string[];
  allowDangerouslySkipPermissions?: boolean;
  canUseTool?: CanUseTool;
  continue?: boolean;
  cwd?: string;
  disallowedTools?: string[];
  /** Replaces the CLI's environment entirely (as in the official SDK). Defaults to process.env. */
  env?: Record<string, string | undefined>;
  executableArgs?: string[];
  extraArgs?: Record<string, string | null>;
  fallbackModel?: string;
  forkSession?: boolean;
  hooks?: Partial<Record<HookEvent, HookCallbackMatcher[]>>;
  includePartialMessages?: boolean;
  maxBudgetUsd?: number;
  maxTurns?: number;
  mcpServers?: Record<string, McpServerConfig>;
  model?: string;
  pathToClaudeCodeExecutable?: string;
  permissionMode?: PermissionMode;
  /**
   * The host can stop background tasks one by one (stopTask), so interrupt() stops only the root turn
   * and leaves background subagents running (their pending requests stay answerable).
   */
  perTaskStopAffordance?: boolean;
  permissionPromptToolName?: string;
  resume?: string;
  sessionId?: string;
  settingSources?: SettingSource[];
  stderr?: (data: string) => void;
  systemPrompt?: SystemPromptOption;
  tools?: string[] | { type: 'preset'; preset: 'claude_code' };
  // The official SDK's further options, passed to the CLI as it passes them (docs/compatibility.md).
  agent?: string;
  agentProgressSummaries?: boolean;
  betas?: SdkBeta[];
  debug?: boolean;
  debugFile?: string;
  effort?: EffortLevel;
  enableFileCheckpointing?: boolean;
  /** The JavaScript runtime for a CLI shipped as a script (`.js`, `.mjs`, …); default `node`. */
  executable?: 'bun' | 'deno' | 'node';
  forwardSubagentText?: boolean;
  includeHookEvents?: boolean;
  /** Bounds each `sessionStore.load()` / `listSubkeys()` / `listSessions()` call of a resume (default 60 s). */
  loadTimeoutMs?: number;
  managedSettings?: Settings;
  /** @deprecated Use `thinking`. 0 disables thinking; any other value is a budget. */
  maxThinkingTokens?: number;
  /**
   * How the MCP servers the CLI runs or connects to itself reach it. `'initialize'` (the default, as in the
   * official SDK 0.3.333): over stdin in the `initialize` request, so their `env` and `headers` stay off the
   * command line, which other users of the machine can read (`/proc/<pid>/cmdline`); needs Claude Code
   * 2.1.326 or newer. `'argv'`: one `--mcp-config` flag, for any CLI. Unset, Warden uses `'argv'` for a
   * CLI whose version it reads on disk as older than 2.1.326 (see docs/compatibility.md).
   */
  mcpServersDelivery?: 'argv' | 'initialize';
  onElicitation?: OnElicitation;
  onUserDialog?: OnUserDialog;
  outputFormat?: OutputFormat;
  permissionPrompts?: 'host' | 'none';
  persistSession?: boolean;
  planModeInstructions?: string;
  pluginDelivery?: 'argv' | 'initialize';
  plugins?: SdkPluginConfig[];
  projectConfigRoot?: string;
  promptSuggestions?: boolean;
  resumeDropsTurn?: string;
  resumeSessionAt?: string;
  sandbox?: SandboxSettings;
  sessionStore?: SessionStore;
  sessionStoreFlush?: SessionStoreFlush;
  settings?: string | Settings;
  skills?: string[] | 'all';
  /**
   * Start the CLI yourself (a container, a VM, another machine): called with the command line Warden
   * built; Warden speaks to what it returns over its stdin and stdout.
   */
  spawnClaudeCodeProcess?: (options: SpawnOptions) => SpawnedProcess;
  strictMcpConfig?: boolean;
  supportedDialogKinds?: string[];
  taskBudget?: { total: number };
  thinking?: ThinkingConfig;
  title?: string;
  toolAliases?: Record<string, string>;
  toolConfig?: ToolConfig;
  verbatimPrompts?: boolean;
  /** Warden: the largest line accepted from the CLI, in bytes (default 64 MiB). */
  maxFrameBytes?: number;
  /**
   * Warden: an opt-in ceiling on how long stdin is kept open after the last `result` while something may
   * still ask (a background subagent, an in-flight request). Off by default: Warden waits as long as the
   * CLI can still ask. When it fires, `Query.inputClosed` and `onWarning` say so and why.
   */
  maxInputWaitMs?: number;
  /**
   * Warden: problems that are not fatal to the query but must not pass silently — a callback that threw,
   * a reply that could not be delivered, a line that was not JSON. Defaults to process.emitWarning.
   */
  onWarning?: (warning: WardenError) => void;
  /** Warden: how many messages may wait for a slow consumer before the CLI's stdout is paused (default 256). */
  maxBufferedMessages?: number;
  /**
   * Warden: start the CLI yourself, or join one already running. Given what Warden would spawn, return a
   * transport to it; without this option Warden spawns a piped child that ends with the query. The
   * supervisor uses it to run CLIs that outlive their host (detached processes).
   */
  cliTransport?: (launch: CliLaunch) => Promise<CliTransport>;
}
