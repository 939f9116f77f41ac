// What the CLI answers to the host's control requests, with the official SDK's type names, so code that
// reads these answers compiles against Warden unchanged. Types only: the answers pass through untouched,
// and fields a newer CLI adds arrive too.
import type { AgentInfo, McpServerStatus, SlashCommand } from './sdk-types.js';
import type { PermissionMode } from './permissions.js';

export type {
  SDKContextUsageCategory,
  SDKControlGetContextUsageResponse,
  SDKContextUsage,
  SDKControlGetUsageResponse,
  SDKUsageReport,
} from './usage.js';

/** setPermissionMode(): the mode now in effect, which is not always the mode asked for. */
export type SDKControlSetPermissionModeResponse = { mode?: PermissionMode };

/** readFile(): a file of the session's filesystem, read under the Read tool's permission rules. */
export type SDKControlReadFileResponse = {
  contents: string;
  absPath: string;
  truncated?: boolean;
  encoding?: 'base64';
  lossy?: boolean;
};

export type SDKControlReloadPluginsResponse = {
  commands: SlashCommand[];
  agents: AgentInfo[];
  plugins: { name: string; path: string; source?: string; version?: string }[];
  mcpServers: McpServerStatus[];
  error_count: number;
  /** The reload was held (holdOnCacheImpact) because it would change the tool list. */
  held?: boolean;
  cache_impact?: {
    mcp_servers_added: string[];
    mcp_servers_removed: string[];
    lsp_tool_change: ('adds' | 'may-add' | 'removes' | 'may-remove') | null;
  };
};

export type SDKControlReloadSkillsResponse = { skills: SlashCommand[] };

export type SDKControlReloadOutputStylesResponse = { available_output_styles: string[] };

/** readMcpResource(): a `ui://` resource; the contents are third-party HTML, to render sandboxed. */
export type SDKControlMcpReadResourceResponse = {
  contents: {
    uri: string;
    mimeType?: string;
    text?: string;
    blob?: string;
    _meta?: Record<string, unknown>;
  }[];
};

/** rewindFiles(): whether the files could be put back, and what changed (or would, for a dry run). */
export type RewindFilesResult = {
  canRewind: boolean;
  error?: string;
  filesChanged?: string[];
  insertions?: number;
  deletions?: number;
  /** Files left alone because a link or a non-regular file was found where the tracked one was. */
  skippedLinks?: number;
};

/** setMcpServers(): which servers were added and removed, and those that failed to connect. */
export type McpSetServersResult = {
  added: string[];
  removed: string[];
  errors: Record<string, string>;
};
