// What the model used: per model in a `result`, the answers of the context and usage control requests, and
// their smaller twins on the assistant messages of /context and /usage. A file of its own because both the
// messages and the control responses carry these.
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

/** One row of the context breakdown in getContextUsage()'s answer. */
type ContextUsageRow = {
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
  kind: SDKContextUsageCategory['kind'];
};

type NamedTokens = { name: string; tokens: number };

/** getContextUsage(): the context window, category by category (what /context shows). */
export type SDKControlGetContextUsageResponse = {
  categories: ContextUsageRow[];
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

/**
 * The structured twin of a /context result, on the assistant message that carries its markdown
 * (`context_usage`): a second, smaller shape than getContextUsage()'s answer, with snake_case keys.
 */
export type SDKContextUsage = {
  model: string;
  total_tokens: number;
  raw_max_tokens: number;
  percentage: number;
  over_limit?: { tokens_over: number; kind: 'hard_limit' | 'compaction_window' };
  categories: SDKContextUsageCategory[];
  mcp_tools: { name: string; server_name: string; tokens: number }[];
  memory_files: { path: string; type: string; tokens: number }[];
  agents: { agent_type: string; source: string; tokens: number }[];
  skills?: { name: string; source: string; plugin_name?: string; tokens: number }[];
};

/** One row of `SDKContextUsage`; classify it on `kind`, not on its display name. */
export type SDKContextUsageCategory = {
  name: string;
  tokens: number;
  kind: 'used' | 'free' | 'buffer' | 'deferred';
};

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
    extra_usage?: ExtraUsage;
  } | null;
  /** Null when asked with skipBehaviors. */
  behaviors: { day: UsageBehaviors; week: UsageBehaviors } | null;
};

type NamedShare = { name: string; pct: number };

/** What drove the requests of a day or a week, and what the CLI recommends about it. */
type UsageBehaviors = {
  request_count: number;
  session_count: number;
  behaviors: {
    key:
      | 'cache_miss'
      | 'long_context'
      | 'subagent_heavy'
      | 'high_parallel'
      | 'cron'
      | 'max_effort'
      | 'workflow'
      | 'always_on_context'
      | 'large_tool_results';
    pct: number;
    count: number;
  }[];
  recommendations?: { key: string; pct: number; title: string; detail?: string }[];
  fix?: { keys: string[]; messages: string[] };
  agents: NamedShare[];
  skills: NamedShare[];
  plugins: NamedShare[];
  mcp_servers: NamedShare[];
};

type ExtraUsage = {
  is_enabled: boolean;
  monthly_limit: number | null;
  used_credits: number | null;
  utilization: number | null;
  currency?: string | null;
} | null;

/**
 * The structured twin of a /usage result, on the assistant message that carries its text (`usage_report`):
 * the session's totals and the plan's usage rows as the server sent them (null when the CLI could not
 * fetch them). Not the get_usage answer, which has more.
 */
export type SDKUsageReport = {
  session: SDKControlGetUsageResponse['session'];
  rate_limits: {
    /** The server's rows, rendered as sent; classify a row on `kind`, never on a label. */
    limits:
      | {
          kind: string;
          group: string;
          percent: number;
          resets_at: string | null;
          scope?: {
            model?: { display_name: string } | null;
            surface?: { display_name: string } | null;
          } | null;
          severity: string;
          is_active: boolean;
        }[]
      | null;
    extra_usage?: ExtraUsage;
  } | null;
};
