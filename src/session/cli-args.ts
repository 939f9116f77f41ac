// Options → the CLI's argv. The flag spellings and their order follow what the official SDK passes, so
// the same CLI sees the same command line whichever host starts it.
import { deliveryOf, type LaunchFacts } from './option-delivery.js';
import type { Options } from './options.js';
import { settingsWithSandbox } from './sandbox-settings.js';

const BASE_FLAGS = ['--output-format', 'stream-json', '--verbose', '--input-format', 'stream-json'];

/** `--flag value` in two tokens, or `--flag=value` when the value starts with '-' (else it reads as a flag). */
function twoTokens(flag: string, value: string): string[] {
  return value.length > 1 && value.startsWith('-') ? [`${flag}=${value}`] : [flag, value];
}

/** `skills` become `Skill` rules in allowedTools, as in the official SDK. */
function allowedToolsOf(options: Options): string[] {
  const allowed = [...(options.allowedTools ?? [])];
  const { skills } = options;
  if (skills === undefined) return allowed;
  const rules = skills === 'all' ? ['Skill'] : skills.map((name) => `Skill(${name})`);
  const present = new Set(allowed);
  return [...allowed, ...rules.filter((rule) => !present.has(rule))];
}

function thinkingFlags(options: Options): string[] {
  const thinking =
    options.thinking ??
    (options.maxThinkingTokens === undefined
      ? undefined
      : options.maxThinkingTokens === 0
        ? { type: 'disabled' as const }
        : { type: 'enabled' as const, budgetTokens: options.maxThinkingTokens });
  if (thinking === undefined) return [];
  const flags: string[] = [];
  if (thinking.type === 'disabled') flags.push('--thinking=disabled');
  else if (thinking.type === 'enabled' && thinking.budgetTokens !== undefined)
    flags.push(`--max-thinking-tokens=${thinking.budgetTokens}`);
  else flags.push('--thinking=adaptive');
  if (thinking.type !== 'disabled' && thinking.display) flags.push(`--thinking-display=${thinking.display}`);
  return flags;
}

/** extraArgs, then `--settings` (with the sandbox merged in), each as `--key value`. */
function extraFlags(options: Options): string[] {
  const extra: Record<string, string | null> = { ...(options.extraArgs ?? {}) };
  const settings = typeof options.settings === 'object' ? JSON.stringify(options.settings) : options.settings;
  if (settings) extra.settings = settings;
  if (options.sandbox !== undefined)
    extra.settings = settingsWithSandbox(extra.settings ?? undefined, options.sandbox);
  const flags: string[] = [];
  for (const [flag, value] of Object.entries(extra)) {
    if (value === null) flags.push(`--${flag}`);
    else flags.push(...twoTokens(`--${flag}`, value));
  }
  return flags;
}

export function buildCliArgs(options: Options, facts: LaunchFacts = {}): string[] {
  const delivery = deliveryOf(options, facts);
  const args = [...BASE_FLAGS, ...thinkingFlags(options)];
  const add = (condition: unknown, ...tokens: string[]): void => {
    // Falsy means absent, as in the official SDK (an empty list, a zero count, an empty string).
    if (condition) args.push(...tokens);
  };

  add(options.effort, `--effort=${options.effort}`);
  add(options.maxTurns || undefined, `--max-turns=${options.maxTurns}`);
  if (options.maxBudgetUsd !== undefined) args.push(`--max-budget-usd=${options.maxBudgetUsd}`);
  add(options.taskBudget, `--task-budget=${options.taskBudget?.total}`);
  add(options.model, `--model=${options.model}`);
  add(options.agent, `--agent=${options.agent}`);
  add(options.betas?.length, `--betas=${options.betas?.join(',')}`);
  add(options.outputFormat?.schema, `--json-schema=${JSON.stringify(options.outputFormat?.schema)}`);
  if (options.debugFile) args.push(`--debug-file=${options.debugFile}`);
  else add(options.debug, '--debug');
  if (options.canUseTool !== undefined) args.push('--permission-prompt-tool=stdio');
  else add(options.permissionPromptToolName, `--permission-prompt-tool=${options.permissionPromptToolName}`);
  add(options.permissionPrompts, `--permission-prompts=${options.permissionPrompts}`);
  // With a session store, `continue` is resolved to a session id from the store before the CLI starts.
  add(options.sessionStore === undefined && options.continue, '--continue');
  add(options.resume, `--resume=${options.resume}`);
  const allowedTools = allowedToolsOf(options);
  add(allowedTools.length, `--allowedTools=${allowedTools.join(',')}`);
  add(options.disallowedTools?.length, `--disallowedTools=${options.disallowedTools?.join(',')}`);
  if (Array.isArray(options.tools)) args.push(`--tools=${options.tools.join(',')}`);
  else if (options.tools !== undefined) args.push('--tools=default');
  if (Object.keys(delivery.processServers).length > 0 && !delivery.mcpServersViaInitialize)
    args.push(...twoTokens('--mcp-config', JSON.stringify({ mcpServers: delivery.processServers })));
  if (options.settingSources !== undefined)
    args.push(`--setting-sources=${options.settingSources.join(',')}`);
  add(options.strictMcpConfig, '--strict-mcp-config');
  add(options.permissionMode, `--permission-mode=${options.permissionMode}`);
  add(options.allowDangerouslySkipPermissions, '--allow-dangerously-skip-permissions');
  add(options.fallbackModel, `--fallback-model=${options.fallbackModel}`);
  add(options.includeHookEvents, '--include-hook-events');
  add(options.includePartialMessages, '--include-partial-messages');
  add(options.sessionStore, '--session-mirror');
  if (options.projectConfigRoot !== undefined)
    args.push(`--project-config-root=${options.projectConfigRoot}`);
  for (const dir of options.additionalDirectories ?? []) args.push(`--add-dir=${dir}`);
  add(delivery.awaitInitialize, '--await-initialize');
  if (!delivery.pluginsViaInitialize) {
    for (const plugin of options.plugins ?? [])
      args.push(`${plugin.skipMcpDiscovery ? '--plugin-dir-no-mcp' : '--plugin-dir'}=${plugin.path}`);
  }
  add(options.forkSession, '--fork-session');
  add(options.resumeSessionAt, `--resume-session-at=${options.resumeSessionAt}`);
  if (options.resumeDropsTurn !== undefined) args.push(`--resume-drops-turn=${options.resumeDropsTurn}`);
  add(options.sessionId, `--session-id=${options.sessionId}`);
  add(options.persistSession === false, '--no-session-persistence');
  if (options.managedSettings)
    args.push(...twoTokens('--managed-settings', JSON.stringify(options.managedSettings)));
  args.push(...extraFlags(options));
  return [...(options.executableArgs ?? []), ...args];
}
