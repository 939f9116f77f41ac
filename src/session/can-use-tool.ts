// The permission callback's type, as the official SDK declares it. The context carries what the CLI said
// about the request; fields the CLI left out are absent, never undefined.
import type { PermissionResult, PermissionUpdate } from '../protocol/control.js';

/** The rule in the user's settings that made the CLI ask (`Bash(git push:*)` in `ask`). */
export type MatchedAskRule = { source: string; toolName: string; ruleContent?: string };

export type CanUseToolContext = {
  signal: AbortSignal;
  suggestions?: PermissionUpdate[];
  blockedPath?: string;
  mcpServer?: { name: string; source: string };
  decisionReason?: string;
  title?: string;
  displayName?: string;
  description?: string;
  /** The CLI would preselect "no" in its own dialog (a risky call): a host should do the same. */
  defaultToNo?: boolean;
  /** The CLI offers no "always allow" for this call: a host should not offer one either. */
  suppressAlwaysAllowRule?: boolean;
  toolUseID: string;
  agentID?: string;
  requestId: string;
  matchedAskRule?: MatchedAskRule;
};

/**
 * Decides one tool call. Resolve `null` when the request was answered another way (the CLI already has
 * its answer): no reply is sent.
 */
export type CanUseTool = (
  toolName: string,
  input: Record<string, unknown>,
  options: CanUseToolContext,
) => Promise<PermissionResult | null>;
