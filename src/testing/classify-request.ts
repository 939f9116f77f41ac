// Turns one Messages API request from the Claude Code CLI into a RequestContext. The routing rule is the one
// that holds for CLI 2.1.328: side requests are recognised by their content, subagents by the
// `x-claude-code-agent-id` header (or `cc_is_subagent=true` in the billing line), everything else is the
// main agent. Never the tool list (general-purpose subagents have the Agent tool too) and never arrival
// order (main and subagent requests race each other on separate connections).
import type { IncomingHttpHeaders } from 'node:http';

import type { RequestContext, RequestKind, SideKind, ToolResultSummary } from './mock-model-types.js';

const MARKER = /\[\[([^[\]\r\n]{1,200})\]\]/;
const SUGGESTION_MODE = '[SUGGESTION MODE:';
const PROGRESS_SUMMARY = 'Describe your most recent action in 3-5 words';
const TITLE_PROMPT = 'naming a coding session';
const TASK_NOTIFICATION = '<task-notification>';

/** The request body failed the minimal shape check; the mock answers 400 with this message. */
export class MalformedRequestError extends TypeError {}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function blocksOf(content: unknown): Json[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter(isObject) : [];
}

function textOf(content: unknown): string {
  return blocksOf(content)
    .filter((block) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text as string)
    .join('\n');
}

function toolResultsOf(content: unknown): ToolResultSummary[] {
  return blocksOf(content)
    .filter((block) => block.type === 'tool_result')
    .map((block) => ({
      toolUseId: typeof block.tool_use_id === 'string' ? block.tool_use_id : '',
      text: textOf(block.content),
      isError: block.is_error === true,
    }));
}

function firstMarker(text: string): string | undefined {
  return MARKER.exec(text)?.[1];
}

function sideKindOf(
  body: Json,
  lastUserText: string,
  systemText: string,
  tools: unknown[],
): SideKind | undefined {
  if (lastUserText.includes(SUGGESTION_MODE)) return 'suggestion';
  if (lastUserText.includes(PROGRESS_SUMMARY)) return 'progress_summary';
  const format = isObject(body.output_config) ? body.output_config.format : undefined;
  const schema = isObject(format) ? format.schema : undefined;
  const wantsTitle = isObject(schema) && isObject(schema.properties) && 'title' in schema.properties;
  if (systemText.includes(TITLE_PROMPT) || (tools.length === 0 && wantsTitle)) return 'title';
  if (tools.length === 0) return 'other';
  return undefined;
}

/** Checks the minimal shape and derives the context. Throws MalformedRequestError for a bad body. */
export function classifyRequest(n: number, headers: IncomingHttpHeaders, body: unknown): RequestContext {
  if (!isObject(body)) throw new MalformedRequestError('request body must be a JSON object');
  if (!Array.isArray(body.messages)) throw new MalformedRequestError('messages: field required (an array)');
  const messages = body.messages.filter(isObject);
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const systemText = typeof body.system === 'string' ? body.system : textOf(body.system);

  let rounds = 0;
  let turnRounds = 0;
  let turns = 0;
  let step = 0;
  let marker: string | undefined;
  let firstUserText: string | undefined;
  let lastUser: Json | undefined;
  let turnStartText = '';
  for (const message of messages) {
    // Other roles (the CLI inserts a `system` message after the first prompt) belong to no turn.
    if (message.role === 'assistant') step += 1;
    if (message.role !== 'user') continue;
    lastUser = message;
    const text = textOf(message.content);
    firstUserText ??= text;
    marker ??= firstMarker(text);
    if (toolResultsOf(message.content).length > 0) {
      rounds += 1;
      turnRounds += 1;
    } else {
      turns += 1;
      turnRounds = 0;
      turnStartText = text;
    }
  }

  const lastUserText = textOf(lastUser?.content);
  const agentId = header(headers, 'x-claude-code-agent-id');
  const parentAgentId = header(headers, 'x-claude-code-parent-agent-id');
  const sideKind = sideKindOf(body, lastUserText, systemText, tools);
  const isSubagent = agentId !== undefined || systemText.includes('cc_is_subagent=true');
  const kind: RequestKind = sideKind !== undefined ? 'side' : isSubagent ? 'subagent' : 'main';
  const turnMarker = firstMarker(turnStartText);

  return {
    n,
    kind,
    ...(sideKind === undefined ? {} : { sideKind }),
    ...(agentId === undefined ? {} : { agentId }),
    ...(parentAgentId === undefined ? {} : { parentAgentId }),
    ...(marker === undefined ? {} : { marker }),
    ...(turnMarker === undefined ? {} : { turnMarker }),
    rounds,
    turnRounds,
    turns,
    step,
    isTaskNotification: turnStartText.includes(TASK_NOTIFICATION),
    toolResults: lastUser === undefined ? [] : toolResultsOf(lastUser.content),
    lastUserText,
    firstUserText: firstUserText ?? '',
    turnText: turnStartText,
    systemText,
    toolNames: tools.filter(isObject).map((tool) => (typeof tool.name === 'string' ? tool.name : '')),
    model: typeof body.model === 'string' ? body.model : 'claude-mock',
    stream: body.stream === true,
    body,
    headers,
  };
}
