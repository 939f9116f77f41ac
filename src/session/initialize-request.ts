// The body of the `initialize` control request: what travels to the CLI outside argv. The fields are the
// official SDK's; an option left unset sends no field.
import { deliveryOf, type LaunchFacts } from './option-delivery.js';
import type { AgentDefinition, Options } from './options.js';

function systemPromptFields(prompt: Options['systemPrompt']): Record<string, unknown> {
  // As in the official SDK, no systemPrompt means an empty one; the Claude Code prompt is the preset.
  if (prompt === undefined) return { systemPrompt: [''] };
  if (typeof prompt === 'string') return { systemPrompt: [prompt] };
  if (Array.isArray(prompt)) return { systemPrompt: prompt };
  if (prompt.type === 'custom')
    return {
      systemPrompt: typeof prompt.prompt === 'string' ? [prompt.prompt] : prompt.prompt,
      systemPromptSnapshot: prompt.snapshot,
    };
  return {
    appendSystemPrompt: prompt.append,
    excludeDynamicSections: prompt.excludeDynamicSections,
    systemPromptSnapshot: prompt.snapshot,
  };
}

/**
 * An in-process server (createSdkMcpServer) inside an agent definition cannot be bridged: it travels as
 * its name only, as the official SDK sends it (and the CLI then ignores it).
 */
function agentsField(agents: Record<string, AgentDefinition> | undefined): unknown {
  if (agents === undefined) return undefined;
  const result: Record<string, AgentDefinition> = { ...agents };
  for (const [name, agent] of Object.entries(agents)) {
    if (!Array.isArray(agent?.mcpServers)) continue;
    let replaced = false;
    const servers = (agent.mcpServers as unknown[]).map((entry) => {
      if (typeof entry !== 'object' || entry === null) return entry;
      const pairs = Object.entries(entry as Record<string, { type?: unknown; name?: unknown }>).map(
        ([serverName, config]) => {
          if (config?.type !== 'sdk' || !('instance' in config)) return [serverName, config];
          replaced = true;
          return [serverName, { type: 'sdk', name: config.name ?? serverName }];
        },
      );
      return Object.fromEntries(pairs) as unknown;
    });
    if (replaced) result[name] = { ...agent, mcpServers: servers };
  }
  return result;
}

export function buildInitializeRequest(
  options: Options,
  hooks: Record<string, unknown> | undefined,
  sdkMcpServers: string[],
  facts: LaunchFacts = {},
): Record<string, unknown> {
  const delivery = deliveryOf(options, facts);
  const fields: Record<string, unknown> = {
    hooks,
    sdkMcpServers: sdkMcpServers.length > 0 ? sdkMcpServers : undefined,
    jsonSchema: options.outputFormat?.type === 'json_schema' ? options.outputFormat.schema : undefined,
    ...systemPromptFields(options.systemPrompt),
    planModeInstructions: options.planModeInstructions,
    toolAliases: options.toolAliases,
    agents: agentsField(options.agents),
    title: options.title,
    skills: Array.isArray(options.skills) ? options.skills : undefined,
    promptSuggestions: options.promptSuggestions,
    agentProgressSummaries: options.agentProgressSummaries,
    forwardSubagentText: options.forwardSubagentText,
    supportedDialogKinds: options.supportedDialogKinds,
    perTaskStopAffordance: options.perTaskStopAffordance,
    plugins: delivery.pluginsViaInitialize ? options.plugins : undefined,
    mcpServers: delivery.mcpServersViaInitialize ? delivery.processServers : undefined,
  };
  // Absent, not undefined: the request is JSON, and a reader of the body sees only what is set.
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) body[key] = value;
  return body;
}

/** A user message as the CLI reads it from stdin; `verbatimPrompts` marks it as not typed by a person. */
export function userMessage(text: string, verbatim = false): Record<string, unknown> {
  return {
    type: 'user',
    session_id: '',
    message: { role: 'user', content: [{ type: 'text', text }] },
    parent_tool_use_id: null,
    ...(verbatim ? { client_composed: true } : {}),
  };
}
