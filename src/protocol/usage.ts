// What the model used: per model in a `result`, and the context and usage reports of the control
// requests. A file of its own because both the messages and the control responses carry these.
export type ModelUsage = {
  inputTokens: number;
  outputTokens: number;
  thinkingTokens?: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  cacheCreationEphemeral5mInputTokens?: number;
  cacheCreationEphemeral1hInputTokens?: number;
  webSearchRequests: number;
  costUSD: number;
  contextWindow: number;
  maxOutputTokens: number;
  canonicalModel?: string;
  provider?: string;
  costBasis?: 'list' | 'managed' | 'unknown';
};

export type SDKContextUsageCategory = {
  id?:
    | 'system_prompt'
    | 'system_tools'
    | 'mcp_tools'
    | 'mcp_instructions'
    | 'mcp_tools_deferred'
    | 'system_tools_deferred'
    | 'custom_agents'
    | 'memory_files'
    | 'skills'
    | 'messages'
    | 'autocompact_buffer'
    | 'compact_buffer'
    | 'free_space';
  name: string;
  tokens: number;
  color: string;
  isDeferred?: boolean;
  kind: 'used' | 'free' | 'buffer' | 'deferred';
};

type NamedTokens = { name: string; tokens: number };

/** getContextUsage(): the context window, category by category (what /context shows). */
export type SDKControlGetContextUsageResponse = {
  categories: SDKContextUsageCategory[];
  totalTokens: number;
  maxTokens: number;
  rawMaxTokens: number;
  percentage: number;
  gridRows: {
    color: string;
    isFilled: boolean;
    categoryName: string;
    tokens: number;
    percentage: number;
    squareFullness: number;
  }[][];
  model: string;
  memoryFiles: { path: string; type: string; tokens: number }[];
  mcpTools: { name: string; serverName: string; tokens: number; isLoaded?: boolean }[];
  mcpInstructions?: { serverName: string; tokens: number }[];
  deferredBuiltinTools?: { name: string; tokens: number; isLoaded: boolean }[];
  systemTools?: NamedTokens[];
  systemPromptSections?: NamedTokens[];
  agents: { agentType: string; source: string; pluginId?: string; path?: string; tokens: number }[];
  slashCommands?: { totalCommands: number; includedCommands: number; tokens: number };
  skills?: {
    totalSkills: number;
    includedSkills: number;
    tokens: number;
    skillFrontmatter: {
      name: string;
      source: string;
      pluginName?: string;
      pluginId?: string;
      path?: string;
      tokens: number;
    }[];
  };
  autoCompactThreshold?: number;
  isAutoCompactEnabled: boolean;
  messageBreakdown?: {
    toolCallTokens: number;
    toolResultTokens: number;
    attachmentTokens: number;
    assistantMessageTokens: number;
    userMessageTokens: number;
    redirectedContextTokens: number;
    unattributedTokens: number;
    toolCallsByType: { name: string; callTokens: number; resultTokens: number }[];
    attachmentsByType: NamedTokens[];
  };
  apiUsage: {
    input_tokens: number;
    output_tokens: number;
    cache_creation_input_tokens: number;
    cache_read_input_tokens: number;
  } | null;
};

/** The official name for the same answer. */
export type SDKContextUsage = SDKControlGetContextUsageResponse;

type LimitWindow = { utilization: number | null; resets_at: string | null } | null;

/** usage_EXPERIMENTAL_…(): session cost and plan rate limits (what /usage shows). */
export type SDKControlGetUsageResponse = {
  session: {
    total_cost_usd: number;
    total_api_duration_ms: number;
    total_duration_ms: number;
    total_lines_added: number;
    total_lines_removed: number;
    model_usage: Record<string, ModelUsage>;
  };
  subscription_type: string | null;
  rate_limits_available: boolean;
  rate_limits: {
    five_hour?: LimitWindow;
    seven_day?: LimitWindow;
    seven_day_oauth_apps?: LimitWindow;
    seven_day_opus?: LimitWindow;
    seven_day_sonnet?: LimitWindow;
    model_scoped?: { display_name: string; utilization: number | null; resets_at: string | null }[];
    extra_usage?: {
      is_enabled: boolean;
      monthly_limit: number | null;
      used_credits: number | null;
      utilization: number | null;
      currency?: string | null;
    } | null;
  } | null;
  /** Null when asked with skipBehaviors. */
  behaviors: Record<string, unknown> | null;
};

/** The official name of the usage report. */
export type SDKUsageReport = SDKControlGetUsageResponse;
