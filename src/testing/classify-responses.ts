// What a `POST /v1/responses` request from the Codex CLI says, for a script to route on: the turn's
// prompt (the last user message that is not one of Codex's own context blocks), the tool outputs sent back
// since, and the declared tools. The body is the conversation so far, so routing on it is safe whatever the
// order or number of requests (Codex retries a failed request five times).
import type { ResponsesContext, ToolOutputSummary } from './mock-responses-types.js';

export class MalformedResponsesRequest extends Error {}

type Item = Record<string, unknown>;

/** Codex wraps its own context in one tag (`<environment_context>…</environment_context>`). */
const CONTEXT_BLOCK = /^\s*<([a-z_]+)>[\s\S]*<\/\1>\s*$/;
const MARKER = /\[\[([^\]]+)\]\]/;

function texts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part: unknown) => {
    const text = (part as { text?: unknown } | null)?.text;
    return typeof text === 'string' ? [text] : [];
  });
}

function isPrompt(item: Item): boolean {
  if (item['type'] !== 'message' || item['role'] !== 'user') return false;
  const parts = texts(item['content']);
  return parts.length > 0 && !parts.every((text) => CONTEXT_BLOCK.test(text));
}

function toolOutput(item: Item): ToolOutputSummary | undefined {
  const type = item['type'];
  if (type !== 'function_call_output' && type !== 'custom_tool_call_output') return undefined;
  const output = item['output'];
  const text = typeof output === 'string' ? output : texts(output).join('\n');
  return { callId: String(item['call_id']), type, output: text };
}

function toolNames(body: Item, input: readonly Item[]): string[] {
  const names: string[] = [];
  const walk = (tools: unknown, prefix: string): void => {
    if (!Array.isArray(tools)) return;
    for (const tool of tools as Item[]) {
      const name = typeof tool['name'] === 'string' ? tool['name'] : String(tool['type']);
      if (tool['type'] === 'namespace') walk(tool['tools'], `${prefix}${name}.`);
      else names.push(`${prefix}${name}`);
    }
  };
  walk(body['tools'], '');
  for (const item of input) if (item['type'] === 'additional_tools') walk(item['tools'], '');
  return names;
}

export function classifyResponsesRequest(
  n: number,
  headers: ResponsesContext['headers'],
  body: unknown,
): ResponsesContext {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new MalformedResponsesRequest('request body must be a JSON object');
  const record = body as Item;
  const input = record['input'];
  if (!Array.isArray(input)) throw new MalformedResponsesRequest('input must be an array of items');
  const items = input.filter((item): item is Item => typeof item === 'object' && item !== null);
  let start = -1;
  items.forEach((item, index) => {
    if (isPrompt(item)) start = index;
  });
  const turnText = start === -1 ? '' : texts(items[start]?.['content']).join('\n');
  const toolOutputs = items.slice(start + 1).flatMap((item) => toolOutput(item) ?? []);
  const threadId = headers['thread-id'];
  const turnMarker = MARKER.exec(turnText)?.[1];
  return {
    n,
    model: typeof record['model'] === 'string' ? record['model'] : '',
    ...(typeof threadId === 'string' ? { threadId } : {}),
    turnText,
    ...(turnMarker === undefined ? {} : { turnMarker }),
    toolOutputs,
    turnRounds: toolOutputs.length,
    toolNames: toolNames(record, items),
    body: record,
    headers,
  };
}
