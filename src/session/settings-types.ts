// Claude Code's settings (settings.json), with the official SDK's type name. The keys Warden or its users
// read are typed as the official type has them (so a value moves between the two unchanged); the CLI knows a
// great many more, which pass through as `unknown`.
import type { PermissionMode } from '../protocol/permissions.js';

/** How hard the model thinks; settings carry it as well as the options. */
export type EffortLevel = 'low' | 'medium' | 'high' | 'xhigh' | 'max';

export interface Settings {
  $schema?: string;
  apiKeyHelper?: string;
  cleanupPeriodDays?: number;
  env?: Record<string, string>;
  permissions?: {
    allow?: string[];
    deny?: string[];
    ask?: string[];
    defaultMode?: PermissionMode;
    disableBypassPermissionsMode?: 'disable';
    disableAutoMode?: 'disable';
    additionalDirectories?: string[];
    [key: string]: unknown;
  };
  model?: string;
  fallbackModel?: string[];
  availableModels?: string[];
  enforceAvailableModels?: boolean;
  availableModelsMatch?: 'prefix' | 'exact';
  deniedModels?: string[];
  /** Hook event name → its matchers, each with the hooks the CLI runs itself. */
  hooks?: { [event: string]: SettingsHookMatcher[] };
  disableAllHooks?: boolean;
  enableAllProjectMcpServers?: boolean;
  enabledMcpjsonServers?: string[];
  disabledMcpjsonServers?: string[];
  /** `plugin@marketplace` → on/off, the versions allowed, or a plugin's own options. */
  enabledPlugins?: { [plugin: string]: string[] | boolean | { [key: string]: unknown } };
  outputStyle?: string;
  language?: string;
  sandbox?: Record<string, unknown>;
  alwaysThinkingEnabled?: boolean;
  effortLevel?: Exclude<EffortLevel, 'max'>;
  maxEffortLevel?: EffortLevel;
  ultracode?: boolean;
  agent?: string;
  includeCoAuthoredBy?: boolean;
  fileCheckpointingEnabled?: boolean;
  skipDangerousModePermissionPrompt?: boolean;
  /** The CLI validates the rest; they pass through untouched. */
  [key: string]: unknown;
}

/** What a settings hook does: run a command, ask a model or an agent, call a URL, or call an MCP tool. */
export type SettingsHook = {
  /** Run it only for tool calls that match this permission rule, e.g. `Bash(git *)`. */
  if?: string;
  timeout?: number;
  statusMessage?: string;
  once?: boolean;
} & (
  | {
      type: 'command';
      command: string;
      args?: string[];
      shell?: 'bash' | 'powershell';
      onFailure?: 'continue' | 'block';
      async?: boolean;
      asyncRewake?: boolean;
    }
  | { type: 'prompt'; prompt: string; model?: string; continueOnBlock?: boolean }
  | { type: 'agent'; prompt: string; model?: string }
  | {
      type: 'http';
      url: string;
      onFailure?: 'continue' | 'block';
      headers?: { [name: string]: string };
      allowedEnvVars?: string[];
    }
  | {
      type: 'mcp_tool';
      server: string;
      tool: string;
      input?: { [key: string]: unknown };
      onFailure?: 'continue' | 'block';
    }
);

export type SettingsHookMatcher = { matcher?: string; hooks: SettingsHook[] };
