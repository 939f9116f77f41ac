// Claude Code's settings (settings.json), with the official SDK's type name. The keys Warden or its users
// read are typed; the CLI knows a great many more, which pass through as `unknown`.
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
  hooks?: Record<string, unknown>;
  disableAllHooks?: boolean;
  enableAllProjectMcpServers?: boolean;
  enabledMcpjsonServers?: string[];
  disabledMcpjsonServers?: string[];
  enabledPlugins?: Record<string, boolean | string[] | undefined>;
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
