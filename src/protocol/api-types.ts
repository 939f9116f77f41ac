// The Anthropic Messages API shapes that appear inside CLI messages (assistant `message`, user `message`,
// stream events). The official SDK takes these from @anthropic-ai/sdk; Warden does not depend on that
// package, so it declares the parts hosts read, with the same field names. Like the official types, the
// block unions list the known block types only: the CLI may send others, which arrive untouched.

export type UUID = `${string}-${string}-${string}-${string}-${string}`;

export type APITextBlock = {
  type: 'text';
  text: string;
  citations?: unknown[] | null;
};

export type APIThinkingBlock = {
  type: 'thinking';
  thinking: string;
  signature: string;
};

export type APIRedactedThinkingBlock = {
  type: 'redacted_thinking';
  data: string;
};

export type APIToolUseBlock = {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
};

export type APIServerToolUseBlock = {
  type: 'server_tool_use';
  id: string;
  name: string;
  input: unknown;
};

export type APIImageBlock = {
  type: 'image';
  source: Record<string, unknown>;
};

export type APIToolResultBlock = {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | (APITextBlock | APIImageBlock)[];
  is_error?: boolean;
};

/** A block of an assistant message. */
export type APIContentBlock =
  APITextBlock | APIThinkingBlock | APIRedactedThinkingBlock | APIToolUseBlock | APIServerToolUseBlock;

/** A block of a user message (what the host sends, and the tool results the CLI echoes). */
export type APIUserContentBlock = APITextBlock | APIImageBlock | APIToolResultBlock;

/** Token counts of one model call. The CLI adds fields (cache_creation, service_tier, …); they pass through. */
export type APIUsage = {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  [key: string]: unknown;
};

/** `SDKAssistantMessage.message`: shaped like a Messages API response (BetaMessage in the official SDK). */
export type APIAssistantMessage = {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  /** While streaming, the CLI sends one block per assistant message, all sharing `id`. */
  content: APIContentBlock[];
  stop_reason: string | null;
  stop_sequence: string | null;
  usage: APIUsage;
  [key: string]: unknown;
};

/** `SDKUserMessage.message` (MessageParam in the official SDK). */
export type APIUserMessageParam = {
  role: 'user';
  content: string | APIUserContentBlock[];
};

/**
 * One streaming event (BetaRawMessageStreamEvent in the official SDK): message_start, content_block_start,
 * content_block_delta, content_block_stop, message_delta, message_stop. Loosely typed: Warden never reads it.
 */
export type APIStreamEvent = {
  type: string;
  [key: string]: unknown;
};
