// Content blocks the way ACP agents use them: converting an ACP prompt into Messages API block params,
// rendering streamed deltas (text, thinking, tool input, citations), and adding up token usage from
// results. Typechecked against the official package and, unchanged, against Warden (typecheck.test.ts).
/* eslint-disable @typescript-eslint/switch-exhaustiveness-check */
import type { ContentBlockParam } from '@anthropic-ai/sdk/resources';
import type {
  BetaContentBlock,
  BetaRawContentBlockDelta,
  BetaTextCitation,
} from '@anthropic-ai/sdk/resources/beta/messages/messages.mjs';
import type { SDKMessage, SDKResultMessage, SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';

type AcpPromptChunk =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: 'image/png' | 'image/jpeg' }
  | { type: 'resource_link'; uri: string; name: string };

export function toUserMessage(chunks: AcpPromptChunk[], sessionId: string): SDKUserMessage {
  const content: ContentBlockParam[] = chunks.map((chunk): ContentBlockParam => {
    switch (chunk.type) {
      case 'text':
        return { type: 'text', text: chunk.text };
      case 'image':
        return { type: 'image', source: { type: 'base64', data: chunk.data, media_type: chunk.mimeType } };
      case 'resource_link':
        return { type: 'text', text: `[@${chunk.name}](${chunk.uri})` };
    }
  });
  return {
    type: 'user',
    message: { role: 'user', content },
    parent_tool_use_id: null,
    session_id: sessionId,
  };
}

function citationLabel(citation: BetaTextCitation): string {
  switch (citation.type) {
    case 'web_search_result_location':
      return citation.url;
    case 'char_location':
    case 'page_location':
    case 'content_block_location':
      return citation.document_title ?? citation.cited_text;
    default:
      return citation.cited_text;
  }
}

/** What an ACP agent sends as `agent_message_chunk` / `agent_thought_chunk` for one delta. */
export function renderDelta(
  delta: BetaRawContentBlockDelta,
): { kind: 'text' | 'thought'; text: string } | null {
  switch (delta.type) {
    case 'text_delta':
      return { kind: 'text', text: delta.text };
    case 'thinking_delta':
      return { kind: 'thought', text: delta.thinking };
    case 'citations_delta':
      return { kind: 'text', text: ` [${citationLabel(delta.citation)}]` };
    case 'input_json_delta':
    case 'signature_delta':
    default:
      return null;
  }
}

export function renderBlock(block: BetaContentBlock): string {
  switch (block.type) {
    case 'text': {
      const cites = (block.citations ?? []).map(citationLabel);
      return cites.length === 0 ? block.text : `${block.text} (${cites.join(', ')})`;
    }
    case 'thinking':
      return block.thinking;
    case 'tool_use':
      return `${block.name}(${JSON.stringify(block.input)})`;
    default:
      return '';
  }
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cachedReadTokens: number;
  cachedWriteTokens: number;
}

/** Numbers without null checks: results carry NonNullableUsage. */
export function usageOf(result: SDKResultMessage, total: Usage): Usage {
  const cached: number = result.usage.cache_read_input_tokens;
  return {
    inputTokens: total.inputTokens + result.usage.input_tokens,
    outputTokens: total.outputTokens + result.usage.output_tokens,
    cachedReadTokens: total.cachedReadTokens + cached,
    cachedWriteTokens: total.cachedWriteTokens + result.usage.cache_creation_input_tokens,
  };
}

export function handle(message: SDKMessage, sink: (text: string) => void): void {
  switch (message.type) {
    case 'stream_event':
      if (message.event.type === 'content_block_delta') {
        const rendered = renderDelta(message.event.delta);
        if (rendered !== null) sink(rendered.text);
      } else if (message.event.type === 'content_block_start') {
        sink(renderBlock(message.event.content_block));
      }
      break;
    case 'assistant':
      for (const block of message.message.content) sink(renderBlock(block));
      break;
    case 'user': {
      const { content } = message.message;
      if (typeof content !== 'string')
        for (const block of content)
          if (block.type === 'tool_result' && block.is_error === true)
            sink(`tool ${block.tool_use_id} failed`);
      break;
    }
    case 'system':
      if (message.subtype === 'model_refusal_fallback')
        sink(`${message.original_model} → ${message.fallback_model}`);
      if (message.subtype === 'memory_recall') sink(message.memories.map((memory) => memory.path).join(', '));
      break;
    default:
      break;
  }
}
