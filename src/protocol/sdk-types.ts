// Public types with the official Agent SDK's names and shapes (0.3.332) that the wire types alone do not
// give: hook inputs and outputs (hook-types.ts) and what the Query methods return. An application typed
// against the official SDK compiles against these unchanged (test/types). Types only.

import type { McpServerStatus as WireMcpServerStatus } from './control-requests.js';
import type { McpServerStatusConfig } from './mcp-config-types.js';

export type * from './hook-types.js';

// ------------------------------------------------------------------------------- what Query methods return

import type { SlashCommand } from './slash-command.js';

export type { SlashCommand };

export type ModelInfo = {
  value: string;
  resolvedModel?: string;
  displayName: string;
  description: string;
  supportsEffort?: boolean;
  supportedEffortLevels?: ('low' | 'medium' | 'high' | 'xhigh' | 'max')[];
  supportsAdaptiveThinking?: boolean;
  supportsFastMode?: boolean;
  supportsAutoMode?: boolean;
};

export type AccountInfo = {
  email?: string;
  organization?: string;
  subscriptionType?: string;
  tokenSource?: string;
  apiKeySource?: string;
  apiProvider?:
    | 'firstParty'
    | 'bedrock'
    | 'vertex'
    | 'foundry'
    | 'anthropicAws'
    | 'anthropicGoogleCloud'
    | 'mantle'
    | 'gateway';
};

export type AgentInfo = { name: string; description: string; model?: string };

/** The `initialize` reply, as `initializationResult()` returns it. Further fields pass through. */
export type SDKControlInitializeResponse = {
  commands: SlashCommand[];
  agents: AgentInfo[];
  output_style: string;
  available_output_styles: string[];
  models: ModelInfo[];
  account: AccountInfo;
  hooks_applied?: boolean;
  hook_on_failure_supported?: boolean;
  plugins_applied?: boolean;
  mcp_servers_applied?: boolean;
  claude_code_version?: string;
  fast_mode_state?: 'off' | 'cooldown' | 'on';
  [key: string]: unknown;
};

/** The `interrupt` reply: queued user messages the interrupt did not remove. */
export type SDKControlInterruptResponse = { still_queued: string[]; cancelled?: string[] };

export type McpServerStatus = WireMcpServerStatus & {
  serverInfo?: { name: string; version: string };
  error?: string;
  /** The server's configuration, as the CLI holds it. */
  config?: McpServerStatusConfig;
  scope?: string;
  source?: string;
  tools?: {
    name: string;
    description?: string;
    annotations?: { readOnly?: boolean; destructive?: boolean; openWorld?: boolean };
    _meta?: Record<string, unknown>;
  }[];
};
