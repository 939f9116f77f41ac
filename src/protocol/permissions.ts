// Permission types, with the official Agent SDK's names and fields, so a canUseTool callback written for
// it compiles against Warden unchanged.

/**
 * How tool calls are approved. 'default' prompts for dangerous operations, 'acceptEdits' auto-accepts file
 * edits, 'bypassPermissions' skips checks (needs allowDangerouslySkipPermissions), 'plan' runs no tools,
 * 'dontAsk' denies whatever is not pre-approved, 'auto' lets a classifier decide.
 */
export type PermissionMode = 'default' | 'acceptEdits' | 'bypassPermissions' | 'plan' | 'dontAsk' | 'auto';

export type PermissionBehavior = 'allow' | 'deny' | 'ask';

/** Where a permission update is stored. Only 'session' lives and dies with the CLI process. */
export type PermissionUpdateDestination =
  'userSettings' | 'projectSettings' | 'localSettings' | 'session' | 'cliArg';

export interface PermissionRuleValue {
  toolName: string;
  ruleContent?: string;
}

/** A change to the permission rules: offered by the CLI as `permission_suggestions`, echoed back to apply. */
export type PermissionUpdate =
  | {
      type: 'addRules' | 'replaceRules' | 'removeRules';
      rules: PermissionRuleValue[];
      behavior: PermissionBehavior;
      destination: PermissionUpdateDestination;
    }
  | { type: 'setMode'; mode: PermissionMode; destination: PermissionUpdateDestination }
  | {
      type: 'addDirectories' | 'removeDirectories';
      directories: string[];
      destination: PermissionUpdateDestination;
    };

/** For the CLI's telemetry: what the person actually did. Unset, the CLI infers it from the behavior. */
export type PermissionDecisionClassification = 'user_temporary' | 'user_permanent' | 'user_reject';

/**
 * The answer to a `can_use_tool` request, sent as the success payload. The host always sets `toolUseID` to
 * the request's `tool_use_id`. Send `updatedInput` on allow (older CLIs required it); `message` is
 * required on deny.
 */
export type PermissionResult =
  | {
      behavior: 'allow';
      updatedInput?: Record<string, unknown>;
      updatedPermissions?: PermissionUpdate[];
      toolUseID?: string;
      decisionClassification?: PermissionDecisionClassification;
    }
  | {
      behavior: 'deny';
      message: string;
      /** Also stop the current turn, as if the user pressed Escape. */
      interrupt?: boolean;
      toolUseID?: string;
      decisionClassification?: PermissionDecisionClassification;
    };

export const PERMISSION_MODES: readonly PermissionMode[] = [
  'default',
  'acceptEdits',
  'bypassPermissions',
  'plan',
  'dontAsk',
  'auto',
];
