// The types of the query() options beyond the basics, with the official Agent SDK's names and shapes.
// What the CLI reads from settings (Settings, SandboxSettings) is passed through as JSON: Warden does not
// interpret it, so the types stay open where the CLI adds keys every release.
import type { Readable, Writable } from 'node:stream';

export type ThinkingAdaptive = { type: 'adaptive'; display?: 'summarized' | 'omitted' };
export type ThinkingEnabled = { type: 'enabled'; budgetTokens?: number; display?: 'summarized' | 'omitted' };
export type ThinkingDisabled = { type: 'disabled' };
/** Takes precedence over the deprecated maxThinkingTokens. */
export type ThinkingConfig = ThinkingAdaptive | ThinkingEnabled | ThinkingDisabled;

import type { EffortLevel } from './settings-types.js';
export type { EffortLevel };

export type SdkBeta = 'context-1m-2025-08-07';

export type JsonSchemaOutputFormat = { type: 'json_schema'; schema: Record<string, unknown> };
export type OutputFormatType = 'json_schema';
/** The final result carries the model's answer as `structured_output`, validated against the schema. */
export type OutputFormat = JsonSchemaOutputFormat;

export type SdkPluginConfig = {
  type: 'local';
  path: string;
  /** Load skills, hooks, agents and commands from the plugin but not its MCP servers. */
  skipMcpDiscovery?: boolean;
};

export type ToolConfig = {
  askUserQuestion?: {
    previewFormat?: 'markdown' | 'html';
  };
};

import type {
  SandboxCredentialsConfig,
  SandboxFilesystemConfig,
  SandboxNetworkConfig,
} from '../protocol/sandbox-types.js';

/** The settings file's JSON (the "flag settings" layer); passed to the CLI as written. */
export type { Settings } from './settings-types.js';

/** The `sandbox` block of the settings; passed to the CLI as written, merged as the official SDK does. */
export interface SandboxSettings {
  enabled?: boolean | undefined;
  failIfUnavailable?: boolean | undefined;
  autoAllowBashIfSandboxed?: boolean | undefined;
  allowUnsandboxedCommands?: boolean | undefined;
  network?: SandboxNetworkConfig | undefined;
  filesystem?: SandboxFilesystemConfig | undefined;
  credentials?: SandboxCredentialsConfig | undefined;
  [key: string]: unknown;
}

export type ElicitationRequest = {
  serverName: string;
  message: string;
  mode?: 'form' | 'url';
  url?: string;
  elicitationId?: string;
  requestedSchema?: Record<string, unknown>;
  title?: string;
  displayName?: string;
  description?: string;
};

/** The MCP ElicitResult: the user's answer to an elicitation. */
export type ElicitationResult = {
  action: 'accept' | 'decline' | 'cancel';
  /** The form's answers: MCP allows strings, numbers, booleans and lists of strings. */
  content?: { [field: string]: string | number | boolean | string[] } | undefined;
  _meta?: { [key: string]: unknown } | undefined;
  [key: string]: unknown;
};

/** Resolve `null` only when the answer was sent another way: no reply is written. */
export type OnElicitation = (
  request: ElicitationRequest,
  options: { signal: AbortSignal; requestId: string },
) => Promise<ElicitationResult | null>;

export type UserDialogRequest = {
  /** Open set: answer a kind you do not know with `{ behavior: 'cancelled' }`. */
  dialogKind: string;
  payload: Record<string, unknown>;
  toolUseID?: string;
};

export type UserDialogResult = { behavior: 'completed'; result: unknown } | { behavior: 'cancelled' };

/** Resolve `null` only when the answer was sent another way: no reply is written. */
export type OnUserDialog = (
  request: UserDialogRequest,
  options: { signal: AbortSignal; requestId: string },
) => Promise<UserDialogResult | null>;

/** What a user-supplied spawner is given: the command line, directory and environment Warden built. */
export interface SpawnOptions {
  command: string;
  args: string[];
  cwd?: string;
  env: { [envVar: string]: string | undefined };
  /** Aborts once the graceful stop (stdin closed, then a grace period) did not end the process. */
  signal: AbortSignal;
}

/** A process started by `spawnClaudeCodeProcess`. A Node ChildProcess satisfies it. */
export interface SpawnedProcess {
  stdin: Writable;
  stdout: Readable;
  readonly killed: boolean;
  readonly exitCode: number | null;
  readonly signalCode?: NodeJS.Signals | null;
  kill(signal: NodeJS.Signals): boolean;
  on(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  once(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): void;
  once(event: 'error', listener: (error: Error) => void): void;
  off(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): void;
  off(event: 'error', listener: (error: Error) => void): void;
}
