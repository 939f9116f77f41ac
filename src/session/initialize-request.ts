// The body of the `initialize` control request: what travels to the CLI outside argv.
import type { Options } from './options.js';

export function buildInitializeRequest(
  options: Options,
  hooks: Record<string, unknown> | undefined,
  sdkMcpServers: string[],
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (hooks !== undefined) body.hooks = hooks;
  if (sdkMcpServers.length > 0) body.sdkMcpServers = sdkMcpServers;
  const prompt = options.systemPrompt;
  // As in the official SDK, no systemPrompt means an empty one; the Claude Code prompt is the preset.
  if (prompt === undefined) body.systemPrompt = [''];
  else if (typeof prompt === 'string') body.systemPrompt = [prompt];
  else if (Array.isArray(prompt)) body.systemPrompt = prompt;
  else {
    if (prompt.append !== undefined) body.appendSystemPrompt = prompt.append;
    if (prompt.excludeDynamicSections !== undefined)
      body.excludeDynamicSections = prompt.excludeDynamicSections;
  }
  if (options.agents !== undefined) body.agents = options.agents;
  if (options.perTaskStopAffordance !== undefined) body.perTaskStopAffordance = options.perTaskStopAffordance;
  return body;
}

/** A user message as the CLI reads it from stdin. */
export function userMessage(text: string): Record<string, unknown> {
  return {
    type: 'user',
    session_id: '',
    message: { role: 'user', content: [{ type: 'text', text }] },
    parent_tool_use_id: null,
  };
}
