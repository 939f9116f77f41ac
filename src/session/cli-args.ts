// Options → the CLI's argv. The flag spellings and their order follow what the official SDK passes, so
// the same CLI sees the same command line whichever host starts it.
import type { McpServerConfig, Options } from './options.js';

const BASE_FLAGS = ['--output-format', 'stream-json', '--verbose', '--input-format', 'stream-json'];

/** `--flag value` in two tokens, or `--flag=value` when the value starts with '-' (else it reads as a flag). */
function twoTokens(flag: string, value: string): string[] {
  return value.startsWith('-') ? [`${flag}=${value}`] : [flag, value];
}

function processMcpServers(servers: Record<string, McpServerConfig> | undefined): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [name, config] of Object.entries(servers ?? {})) {
    if (config.type !== 'sdk') result[name] = config;
  }
  return result;
}

export function buildCliArgs(options: Options): string[] {
  const args = [...BASE_FLAGS];
  const add = (condition: unknown, ...tokens: string[]): void => {
    if (condition !== undefined && condition !== false && condition !== null) args.push(...tokens);
  };

  add(options.maxTurns || undefined, `--max-turns=${options.maxTurns}`);
  add(options.maxBudgetUsd, `--max-budget-usd=${options.maxBudgetUsd}`);
  add(options.model, `--model=${options.model}`);
  if (options.canUseTool !== undefined) args.push('--permission-prompt-tool=stdio');
  else add(options.permissionPromptToolName, `--permission-prompt-tool=${options.permissionPromptToolName}`);
  add(options.continue, '--continue');
  add(options.resume, `--resume=${options.resume}`);
  add(options.allowedTools?.length, `--allowedTools=${options.allowedTools?.join(',')}`);
  add(options.disallowedTools?.length, `--disallowedTools=${options.disallowedTools?.join(',')}`);
  if (Array.isArray(options.tools)) args.push(`--tools=${options.tools.join(',')}`);
  else if (options.tools !== undefined) args.push('--tools=default');
  const processServers = processMcpServers(options.mcpServers);
  if (Object.keys(processServers).length > 0)
    args.push(...twoTokens('--mcp-config', JSON.stringify({ mcpServers: processServers })));
  if (options.settingSources !== undefined)
    args.push(`--setting-sources=${options.settingSources.join(',')}`);
  add(options.permissionMode, `--permission-mode=${options.permissionMode}`);
  add(options.allowDangerouslySkipPermissions, '--allow-dangerously-skip-permissions');
  add(options.fallbackModel, `--fallback-model=${options.fallbackModel}`);
  add(options.includePartialMessages, '--include-partial-messages');
  for (const dir of options.additionalDirectories ?? []) args.push(`--add-dir=${dir}`);
  add(options.forkSession, '--fork-session');
  add(options.sessionId, `--session-id=${options.sessionId}`);
  for (const [flag, value] of Object.entries(options.extraArgs ?? {})) {
    if (value === null) args.push(`--${flag}`);
    else args.push(...twoTokens(`--${flag}`, value));
  }
  return [...(options.executableArgs ?? []), ...args];
}
