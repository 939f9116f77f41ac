// The Anthropic Messages API shapes that appear inside CLI messages (assistant `message`, user `message`,
// stream events, result `usage`). As in the official Agent SDK, they are the types of `@anthropic-ai/sdk`,
// so content blocks, deltas and citations narrow exactly as an application written against the official
// types expects. The unions list the known block types only: a CLI may send others, which arrive untouched.
import type { MessageParam } from '@anthropic-ai/sdk/resources';
import type {
  BetaContentBlock,
  BetaMessage,
  BetaRawContentBlockDelta,
  BetaRawMessageStreamEvent,
  BetaUsage,
} from '@anthropic-ai/sdk/resources/beta/messages/messages.mjs';

export type UUID = `${string}-${string}-${string}-${string}-${string}`;

/** `SDKAssistantMessage.message`: a Messages API response. */
export type APIAssistantMessage = BetaMessage;

/** A block of an assistant message. */
export type APIContentBlock = BetaContentBlock;

/** `SDKUserMessage.message`: what the host sends, and the tool results the CLI echoes. */
export type APIUserMessageParam = MessageParam;

/** Token counts of one model call. */
export type APIUsage = BetaUsage;

/**
 * Token counts on a result: every count is a number (never null), so `usage.cache_read_input_tokens` can be
 * added up without a check. `fallback_credit` stays nullable: it is absent unless a fallback model billed.
 */
export type NonNullableUsage = {
  [K in keyof BetaUsage]: K extends 'fallback_credit' ? BetaUsage[K] : NonNullable<BetaUsage[K]>;
};

/** One streaming event of `includePartialMessages`: narrow on `type`, then on `delta.type`. */
export type APIRawStreamEvent = BetaRawMessageStreamEvent;

/** The `delta` of a `content_block_delta` event. */
export type APIContentBlockDelta = BetaRawContentBlockDelta;
