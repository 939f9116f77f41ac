// Renders a script's Reply the way the Messages API does: a complete message for non-streaming requests,
// or the server-sent event sequence (message_start, ping, per block content_block_start / delta / stop,
// message_delta, message_stop) for streaming ones. Pure: no I/O, ids come from the caller.
import type { Reply, ReplyBlock, StopReason } from './mock-model-types.js';

/** Largest piece of text or tool-input JSON sent in one delta event. */
const CHUNK_CHARS = 48;

export interface IdSource {
  nextMessageId(): string;
  nextToolUseId(): string;
}

export type MessageBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Readonly<Record<string, unknown>> };

export interface RenderedMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: MessageBlock[];
  stop_reason: StopReason;
  stop_sequence: null;
  usage: {
    input_tokens: number;
    output_tokens: number;
    cache_creation_input_tokens: 0;
    cache_read_input_tokens: 0;
  };
}

export interface SseEvent {
  readonly event: string;
  readonly data: Readonly<Record<string, unknown>>;
}

function toMessageBlock(block: ReplyBlock, ids: IdSource): MessageBlock {
  if (block.type === 'text') return { type: 'text', text: block.text };
  return { type: 'tool_use', id: block.id ?? ids.nextToolUseId(), name: block.name, input: block.input };
}

/** Why a script's reply cannot be sent, or undefined when it can. Scripts are user code: check, don't trust. */
export function replyProblem(reply: unknown): string | undefined {
  if (typeof reply !== 'object' || reply === null) return 'a reply must be an object';
  const { content, status } = reply as Reply;
  if (status !== undefined && !(Number.isInteger(status) && status >= 200 && status <= 599)) {
    return `status must be an HTTP status, got ${String(status)}`;
  }
  if (content === undefined) return undefined;
  if (!Array.isArray(content)) return 'content must be an array';
  for (const block of content as unknown[]) {
    const { type, text, name, input } = (block ?? {}) as Record<string, unknown>;
    if (type === 'text' && typeof text === 'string') continue;
    if (type === 'tool_use' && typeof name === 'string' && typeof input === 'object' && input !== null)
      continue;
    return `unsupported content block ${JSON.stringify(block)}`;
  }
  return undefined;
}

export function renderMessage(reply: Reply, model: string, ids: IdSource): RenderedMessage {
  const content = (reply.content ?? []).map((block) => toMessageBlock(block, ids));
  const chars = content.reduce(
    (sum, block) => sum + (block.type === 'text' ? block.text.length : JSON.stringify(block.input).length),
    0,
  );
  return {
    id: ids.nextMessageId(),
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason:
      reply.stopReason ?? (content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    usage: {
      input_tokens: reply.usage?.inputTokens ?? 100,
      output_tokens: reply.usage?.outputTokens ?? Math.max(1, Math.ceil(chars / 4)),
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    },
  };
}

/** Splits into pieces of at most `max` chars; never returns an empty list for a non-empty string. */
export function chunk(text: string, max: number): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += max) pieces.push(text.slice(at, at + max));
  return pieces;
}

function blockEvents(block: MessageBlock, index: number): SseEvent[] {
  if (block.type === 'text') {
    return [
      {
        event: 'content_block_start',
        data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
      },
      ...chunk(block.text, CHUNK_CHARS).map((text) => ({
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text } },
      })),
      { event: 'content_block_stop', data: { type: 'content_block_stop', index } },
    ];
  }
  // Tool input always arrives as at least two input_json_delta pieces, so clients must reassemble it.
  const json = JSON.stringify(block.input);
  const pieceSize = Math.max(1, Math.min(CHUNK_CHARS, Math.ceil(json.length / 2)));
  return [
    {
      event: 'content_block_start',
      data: {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
      },
    },
    ...chunk(json, pieceSize).map((partial_json) => ({
      event: 'content_block_delta',
      data: { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } },
    })),
    { event: 'content_block_stop', data: { type: 'content_block_stop', index } },
  ];
}

/** The full event sequence; with `hang`, only the part before message_delta (the caller keeps it open). */
export function sseEvents(message: RenderedMessage, hang: boolean): SseEvent[] {
  const start = { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } };
  const events: SseEvent[] = [
    { event: 'message_start', data: { type: 'message_start', message: start } },
    { event: 'ping', data: { type: 'ping' } },
    ...message.content.flatMap((block, index) => blockEvents(block, index)),
  ];
  if (hang) return events;
  return [
    ...events,
    {
      event: 'message_delta',
      data: {
        type: 'message_delta',
        delta: { stop_reason: message.stop_reason, stop_sequence: null },
        usage: { output_tokens: message.usage.output_tokens },
      },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  ];
}

export function formatSse(event: SseEvent): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

/** The API's error body: `{type:'error', error:{type, message}, request_id}`. */
export function errorBody(status: number, error: Reply['error'], requestId: string): Record<string, unknown> {
  const message = typeof error === 'string' ? error : (error?.message ?? `mock: HTTP ${status}`);
  const fallbackType = ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
  const type = typeof error === 'object' && error.type !== undefined ? error.type : fallbackType;
  return { type: 'error', error: { type, message }, request_id: requestId };
}
