// Smaller public types of the official Agent SDK (0.3.332) that messages, control replies and transports
// refer to: why a turn or a start failed, rate-limit details, the permission-rule listing, and the raw
// control frames. Same names and shapes; fields a newer CLI adds pass through. Types only.

/** Why the query loop stopped (`result.terminal_reason`). */
export type TerminalReason =
  | 'blocking_limit'
  | 'rapid_refill_breaker'
  | 'prompt_too_long'
  | 'image_error'
  | 'model_error'
  | 'api_error'
  | 'malformed_tool_use_exhausted'
  | 'aborted_streaming'
  | 'aborted_tools'
  | 'stop_hook_prevented'
  | 'hook_stopped'
  | 'tool_deferred'
  | 'max_turns'
  | 'background_requested'
  | 'completed'
  | 'budget_exhausted'
  | 'structured_output_retry_exhausted'
  | 'tool_deferred_unavailable'
  | 'turn_setup_failed';

/** Why fast mode is off (`fast_mode_disabled_reason` on init and results). */
export type FastModeDisabledReason =
  | 'free'
  | 'preference'
  | 'extra_usage_disabled'
  | 'network_error'
  | 'unknown'
  | 'not_first_party'
  | 'disabled_by_env'
  | 'model_not_allowed'
  | 'sdk_opt_in_required'
  | 'pending';

/** Why the CLI refused to start a session (`startup_failure_reason` on an error result). */
export type SDKStartupFailureReason =
  | 'org_pin_api_key_conflict'
  | 'provider_not_allowed'
  | 'org_verify_failed'
  | 'org_pin_mismatch'
  | 'managed_settings_invalid'
  | 'remote_settings_required_unavailable'
  | 'gateway_signin_required'
  | 'gateway_access_denied'
  | 'proxy_invalid'
  | 'temp_dir_unusable'
  | 'cwd_unavailable'
  | 'shell_tool_missing'
  | 'session_held_by_background'
  | 'worktree_resume_refused'
  | 'worktree_unverified'
  | 'cli_version_too_old'
  | 'bypass_root'
  | 'org_config_required_unavailable'
  | 'org_config_refused'
  | 'sandbox_required_unavailable'
  | 'initialize_not_first'
  | 'config_file_invalid'
  | 'managed_settings_not_delivered'
  | 'initialize_fields_not_delivered'
  | 'sideload_flags_disabled';

/** A tool call a hook deferred: the turn ended with it unexecuted (`result.deferred_tool_use`). */
export type SDKDeferredToolUse = { id: string; name: string; input: Record<string, unknown> };

/** `rate_limit_event.rate_limit_info`: the state of the account's limits after a request. */
export type SDKRateLimitInfo = {
  status: 'allowed' | 'allowed_warning' | 'rejected';
  /** Seconds since the epoch. */
  resetsAt?: number;
  rateLimitType?:
    | 'five_hour'
    | 'seven_day'
    | 'seven_day_opus'
    | 'seven_day_sonnet'
    | 'seven_day_overage_included'
    | 'overage';
  /** 0–1. */
  utilization?: number;
  overageStatus?: 'allowed' | 'allowed_warning' | 'rejected';
  overageResetsAt?: number;
  overageDisabledReason?:
    | 'overage_not_provisioned'
    | 'org_level_disabled'
    | 'org_level_disabled_until'
    | 'out_of_credits'
    | 'seat_tier_level_disabled'
    | 'member_level_disabled'
    | 'seat_tier_zero_credit_limit'
    | 'group_zero_credit_limit'
    | 'member_zero_credit_limit'
    | 'org_service_level_disabled'
    | 'no_limits_configured'
    | 'fetch_error'
    | 'unknown';
  isUsingOverage?: boolean;
  overageInUse?: boolean;
  overageEnabled?: boolean;
  surpassedThreshold?: number;
  limitScope?: 'service' | 'channel' | 'group_pool';
  errorCode?: 'credits_required';
  canUserPurchaseCredits?: boolean;
  hasChargeableSavedPaymentMethod?: boolean;
};

/** An MCP resource link a tool returned. */
export type SDKMcpResourceLink = {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Record<string, unknown>;
};

/** A settings file the CLI could not parse (`path` is the JSON path of the bad value). */
export type SDKSettingsParseError = { file?: string; path: string; message: string };

/** What every `outputFormat` has: its kind (`json_schema` is the only one). */
export type BaseOutputFormat = { type: 'json_schema' };

/** Where a setting or an MCP server is configured. */
export type ConfigScope = 'local' | 'user' | 'project';

// ------------------------------------------------------------------------------- permission-rule listing

/** How a client may render a rule: `prefix`, then `emphasis` highlighted, then `suffix`. */
export type SDKPermissionRuleDescription = { prefix: string; emphasis?: string; suffix?: string };

export type SDKPermissionRuleEntry = {
  behavior: 'allow' | 'deny' | 'ask';
  source:
    | 'userSettings'
    | 'projectSettings'
    | 'localSettings'
    | 'flagSettings'
    | 'policySettings'
    | 'cliArg'
    | 'command'
    | 'session'
    | 'mcpMount'
    | 'toolsNarrowing'
    | 'mcpServerPolicy'
    | 'hostCredential';
  rule: string;
  description?: SDKPermissionRuleDescription;
  /** Whether a client may change the rule, and where the change would be kept. */
  editability: 'persistent' | 'session' | 'readonly';
  /** Shadowed by a rule of a stronger source. */
  notInEffect?: boolean;
};

export type SDKPermissionWorkspaceDirectory = { path: string; source: string };

export type SDKControlPermissionRulesState = {
  rules: SDKPermissionRuleEntry[];
  workspaceDirectories: SDKPermissionWorkspaceDirectory[];
  originalCwd: string;
  /** Only managed (policy) rules apply. */
  managedOnly: boolean;
  errors?: SDKSettingsParseError[];
  /** The listing was withheld (policy). */
  withheld?: boolean;
};

export type SDKControlListPermissionRulesResponse = { state: SDKControlPermissionRulesState };

// ---------------------------------------------------------------------------------------- control frames

/**
 * A control request on the wire, either way. `request.subtype` names it (`can_use_tool`, `initialize`,
 * `hook_callback`, `mcp_message`, `interrupt`, … — about forty); the rest of `request` is its fields.
 */
export type SDKControlRequest = {
  type: 'control_request';
  request_id: string;
  request: { subtype: string; [key: string]: unknown };
};

/**
 * The requests a reply re-delivers: a second `initialize` answers with the prompts still waiting for an
 * answer, so a host that attaches late can serve them.
 */
type PendingRequests = {
  pending_permission_requests?: SDKControlRequest[];
  pending_user_dialog_requests?: SDKControlRequest[];
  pending_elicitation_requests?: SDKControlRequest[];
};

/** A control reply on the wire, either way. */
export type SDKControlResponse = {
  type: 'control_response';
  response:
    | ({ subtype: 'success'; request_id: string; response?: Record<string, unknown> } & PendingRequests)
    | ({ subtype: 'error'; request_id: string; error: string } & PendingRequests);
};
