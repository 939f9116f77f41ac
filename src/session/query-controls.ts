// The control methods of Query that are one request and its answer, with the official SDK's names,
// arguments and wire payloads. Query supplies the channel (control()) and the initialize answer; each
// method here only shapes the request and reads the reply.
import type { OutboundControlSubtype } from '../protocol/control-requests.js';
import type {
  McpSetServersResult,
  RewindFilesResult,
  SDKControlGetContextUsageResponse,
  SDKControlGetUsageResponse,
  SDKControlMcpReadResourceResponse,
  SDKControlReadFileResponse,
  SDKControlReloadOutputStylesResponse,
  SDKControlReloadPluginsResponse,
  SDKControlReloadSkillsResponse,
} from '../protocol/control-responses.js';
import type { AgentInfo, SDKControlInitializeResponse } from '../protocol/sdk-types.js';
import type { Settings } from './settings-types.js';
import type { EffortLevel, SdkPluginConfig } from './option-types.js';
import type { McpServerConfig } from './options.js';

/** What applyFlagSettings() takes: any settings key, `null` to clear it from the flag layer. */
export type FlagSettings = {
  [K in keyof Settings]?: K extends 'effortLevel' ? EffortLevel | null : Settings[K] | null;
};

export abstract class QueryControls {
  /** Sends one control request; resolves with the answer's payload (`response.response`). */
  protected abstract control(
    subtype: OutboundControlSubtype,
    body?: Record<string, unknown>,
  ): Promise<Record<string, unknown>>;

  /** The in-process servers of setMcpServers(): connects them and returns their entries for the CLI. */
  protected abstract replaceSdkServers(
    servers: Record<string, McpServerConfig>,
  ): Promise<Record<string, Record<string, unknown>>>;

  abstract initializationResult(): Promise<SDKControlInitializeResponse>;

  /** @deprecated in the official SDK too: use the `thinking` option. `null` clears the limit. */
  async setMaxThinkingTokens(
    maxThinkingTokens: number | null,
    thinkingDisplay?: 'summarized' | 'omitted' | 'highlights' | null,
  ): Promise<void> {
    await this.control('set_max_thinking_tokens', {
      max_thinking_tokens: maxThinkingTokens,
      thinking_display: thinkingDisplay,
    });
  }

  /** Merges settings into the session's flag layer (the `settings` option, mid-session). */
  async applyFlagSettings(settings: FlagSettings): Promise<void> {
    await this.control('apply_flag_settings', { settings });
  }

  /** Writes allowed keys into a settings file through the CLI's own writer. */
  async updateSettings(
    source: 'localSettings' | 'userSettings',
    settings: Record<string, unknown>,
  ): Promise<void> {
    await this.control('update_settings', { source, settings });
  }

  async supportedAgents(): Promise<AgentInfo[]> {
    const init = await this.initializationResult();
    return Array.isArray(init.agents) ? init.agents : [];
  }

  async getContextUsage(opts?: { detail?: 'summary' | 'full' }): Promise<SDKControlGetContextUsageResponse> {
    const body = opts?.detail === undefined ? {} : { detail: opts.detail };
    return (await this.control('get_context_usage', body)) as SDKControlGetContextUsageResponse;
  }

  /** Experimental in the official SDK (and named so): session cost and plan rate limits. */
  async usage_EXPERIMENTAL_MAY_CHANGE_DO_NOT_RELY_ON_THIS_API_YET(opts?: {
    skipBehaviors?: boolean;
  }): Promise<SDKControlGetUsageResponse> {
    const body = opts?.skipBehaviors === true ? { skip_behaviors: true } : {};
    return (await this.control('get_usage', body)) as SDKControlGetUsageResponse;
  }

  /** A file under the Read tool's permission rules; null when refused, missing or unreachable. */
  async readFile(
    path: string,
    options?: { maxBytes?: number; encoding?: 'utf-8' | 'base64' },
  ): Promise<SDKControlReadFileResponse | null> {
    try {
      const body = { path, max_bytes: options?.maxBytes, encoding: options?.encoding };
      return (await this.control('read_file', body)) as SDKControlReadFileResponse;
    } catch {
      return null;
    }
  }

  async reloadPlugins(options?: {
    holdOnCacheImpact?: boolean;
    addPlugins?: SdkPluginConfig[];
    refuseIfBusy?: boolean;
  }): Promise<SDKControlReloadPluginsResponse> {
    const body: Record<string, unknown> = {};
    if (options?.holdOnCacheImpact === true) body.hold_on_cache_impact = true;
    if (options?.addPlugins !== undefined && options.addPlugins.length > 0)
      body.add_plugins = options.addPlugins;
    if (options?.refuseIfBusy === true) body.refuse_if_busy = true;
    return (await this.control('reload_plugins', body)) as SDKControlReloadPluginsResponse;
  }

  async reloadSkills(): Promise<SDKControlReloadSkillsResponse> {
    return (await this.control('reload_skills')) as SDKControlReloadSkillsResponse;
  }

  async reloadOutputStyles(): Promise<SDKControlReloadOutputStylesResponse> {
    return (await this.control('reload_output_styles')) as SDKControlReloadOutputStylesResponse;
  }

  /** Puts tracked files back as they were at a user message (needs enableFileCheckpointing). */
  async rewindFiles(userMessageId: string, options?: { dryRun?: boolean }): Promise<RewindFilesResult> {
    const body = { user_message_id: userMessageId, dry_run: options?.dryRun };
    return (await this.control('rewind_files', body)) as RewindFilesResult;
  }

  /** Tells the CLI a file was read at `mtime` (floored ms), so an Edit need not read it again. */
  async seedReadState(path: string, mtime: number): Promise<void> {
    await this.control('seed_read_state', { path, mtime });
  }

  async reconnectMcpServer(serverName: string): Promise<void> {
    await this.control('mcp_reconnect', { serverName });
  }

  async toggleMcpServer(serverName: string, enabled: boolean): Promise<void> {
    await this.control('mcp_toggle', { serverName, enabled });
  }

  /** A `ui://` resource of a server the CLI dialed; untrusted HTML, to render sandboxed. */
  async readMcpResource(serverName: string, uri: string): Promise<SDKControlMcpReadResourceResponse> {
    return (await this.control('mcp_read_resource', {
      serverName,
      uri,
    })) as SDKControlMcpReadResourceResponse;
  }

  /**
   * Replaces the servers set by earlier calls and every in-process server with `servers`. In-process
   * ones (type 'sdk' with an instance) are served here; the others are the CLI's to dial.
   */
  async setMcpServers(servers: Record<string, McpServerConfig>): Promise<McpSetServersResult> {
    const sdk: Record<string, McpServerConfig> = {};
    const dialed: Record<string, McpServerConfig> = {};
    for (const [name, config] of Object.entries(servers)) {
      if (config.type === 'sdk' && 'instance' in config) sdk[name] = config;
      else dialed[name] = config;
    }
    const sdkEntries = await this.replaceSdkServers(sdk);
    const answer = await this.control('mcp_set_servers', { servers: { ...dialed, ...sdkEntries } });
    return answer as McpSetServersResult;
  }

  /** Pins (or clears, with null) a tighten-only permission mode for one MCP server's tools. */
  async setMcpPermissionModeOverride(
    serverName: string,
    mode: 'default' | 'auto' | null,
  ): Promise<{ warning?: string }> {
    const answer: { warning?: string } = await this.control('set_mcp_permission_mode_override', {
      serverName,
      mode,
    });
    return answer;
  }

  /**
   * Sends foreground tasks to the background (all, or the one a tool_use started). False only when
   * `toolUseId` matched no foreground task.
   */
  async backgroundTasks(toolUseId?: string): Promise<boolean> {
    const answer = await this.control('background_tasks', { tool_use_id: toolUseId });
    return typeof answer.backgrounded === 'boolean' ? answer.backgrounded : true;
  }
}
