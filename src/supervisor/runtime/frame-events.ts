// CLI frames → what the log keeps of them. Pure functions; the runtime decides which run they belong to.
// The log keeps the conversation (texts, tool calls, tool results), not every frame: progress, state and
// lifecycle frames are either folded into run and subagent states or dropped.
import { z } from 'zod';

import { ProtocolError } from '../../protocol/errors.js';
import { validate } from '../../protocol/validate.js';
import type { AssistantBlock, EventDraft } from '../../store/event-types.js';
import type { RunResult, SubagentStatus, TokenUsage } from '../../store/records.js';

type Frame = Record<string, unknown>;

/** Tool results can be whole files; the log keeps this much of each. */
export const MAX_TOOL_RESULT_CHARS = 16 * 1024;

export function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function record(value: unknown): Frame | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Frame) : null;
}

function contentBlocks(frame: Frame): Frame[] {
  const content = record(frame.message)?.content;
  return Array.isArray(content) ? content.map(record).filter((b): b is Frame => b !== null) : [];
}

/** The `uuid`s a frame says it answers: `user_message_uuids`, else `user_message_uuid`. */
export function userMessageUuids(frame: Frame): string[] {
  if (Array.isArray(frame.user_message_uuids))
    return frame.user_message_uuids.filter((u): u is string => typeof u === 'string');
  const one = str(frame.user_message_uuid);
  return one === null ? [] : [one];
}

export function originOf(frame: Frame): Record<string, unknown> | null {
  return record(frame.origin);
}

export function assistantDraft(frame: Frame, runId: string): EventDraft | undefined {
  const blocks: AssistantBlock[] = [];
  for (const block of contentBlocks(frame)) {
    if (block.type === 'text' && typeof block.text === 'string')
      blocks.push({ type: 'text', text: block.text });
    else if (block.type === 'tool_use' && typeof block.id === 'string')
      blocks.push({
        type: 'tool_use',
        id: block.id,
        name: str(block.name) ?? '',
        input: record(block.input) ?? {},
      });
    else if (block.type === 'thinking' && typeof block.thinking === 'string')
      blocks.push({ type: 'thinking', text: block.thinking });
  }
  if (blocks.length === 0) return undefined;
  return {
    type: 'message.assistant',
    data: {
      runId,
      agentId: str(frame.agent_id),
      parentToolUseId: str(frame.parent_tool_use_id),
      messageId: str(record(frame.message)?.id),
      blocks,
    },
  };
}

/** The ids of tool_use blocks in an assistant frame. */
export function toolUseIds(frame: Frame): string[] {
  return contentBlocks(frame)
    .filter((block) => block.type === 'tool_use' && typeof block.id === 'string')
    .map((block) => block.id as string);
}

export function toolResultDrafts(frame: Frame, runId: string): EventDraft[] {
  const drafts: EventDraft[] = [];
  for (const block of contentBlocks(frame)) {
    if (block.type !== 'tool_result' || typeof block.tool_use_id !== 'string') continue;
    const full = flattenText(block.content);
    drafts.push({
      type: 'tool.result',
      data: {
        runId,
        agentId: str(frame.agent_id),
        toolUseId: block.tool_use_id,
        isError: block.is_error === true,
        text: full.slice(0, MAX_TOOL_RESULT_CHARS),
        truncated: full.length > MAX_TOOL_RESULT_CHARS,
      },
    });
  }
  return drafts;
}

function flattenText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => {
      const block = record(part);
      return block?.type === 'text' && typeof block.text === 'string' ? block.text : '';
    })
    .join('');
}

/**
 * What the supervisor needs of a `result` to end a run by it: every result CLI 2.1.328 writes has these.
 * Other fields are read leniently (runResultOf); unknown ones pass.
 */
const ResultFrameSchema = z.looseObject({
  type: z.literal('result'),
  subtype: z.string().min(1),
  is_error: z.boolean(),
  user_message_uuid: z.string().optional(),
  user_message_uuids: z.array(z.string()).optional(),
  origin: z.looseObject({ kind: z.string() }).nullish(),
});

/** A ProtocolError saying what is wrong with a result frame, or undefined when it can be acted on. */
export function malformedResult(frame: Frame): ProtocolError | undefined {
  const checked = validate(ResultFrameSchema, frame, 'result message');
  return checked instanceof ProtocolError ? checked : undefined;
}

export function runResultOf(frame: Frame): RunResult {
  return {
    subtype: str(frame.subtype) ?? 'unknown',
    isError: frame.is_error === true,
    // Error subtypes carry `errors` instead of `result` (e.g. a resume whose session is gone).
    text:
      str(frame.result) ??
      (Array.isArray(frame.errors) ? frame.errors.filter((e) => typeof e === 'string').join('; ') : null),
    numTurns: num(frame.num_turns),
    terminalReason: str(frame.terminal_reason),
    apiErrorStatus: num(frame.api_error_status),
    totalCostUsd: num(frame.total_cost_usd),
    durationMs: num(frame.duration_ms),
    usage: tokenUsage(
      record(frame.usage),
      'input_tokens',
      'output_tokens',
      'cache_read_input_tokens',
      'cache_creation_input_tokens',
    ),
    modelUsage: modelUsageOf(record(frame.modelUsage)),
  };
}

/** Token counts under the given keys; null when the object or its main counts are missing. */
function tokenUsage(
  usage: Frame | null,
  input: string,
  output: string,
  cacheRead: string,
  cacheCreation: string,
): TokenUsage | null {
  const inputTokens = num(usage?.[input]);
  const outputTokens = num(usage?.[output]);
  if (inputTokens === null || outputTokens === null) return null;
  return {
    inputTokens,
    outputTokens,
    cacheReadInputTokens: num(usage?.[cacheRead]) ?? 0,
    cacheCreationInputTokens: num(usage?.[cacheCreation]) ?? 0,
  };
}

/** `modelUsage`: model name → its tokens and cost so far; models without readable counts are left out. */
function modelUsageOf(models: Frame | null): Record<string, TokenUsage & { costUsd: number | null }> | null {
  if (models === null) return null;
  const out: Record<string, TokenUsage & { costUsd: number | null }> = {};
  for (const [model, value] of Object.entries(models)) {
    const entry = record(value);
    const tokens = tokenUsage(
      entry,
      'inputTokens',
      'outputTokens',
      'cacheReadInputTokens',
      'cacheCreationInputTokens',
    );
    if (tokens !== null) out[model] = { ...tokens, costUsd: num(entry?.costUSD) };
  }
  return out;
}

export function apiRetryDraft(frame: Frame, runId: string | null): EventDraft {
  return {
    type: 'run.api_retry',
    data: {
      runId,
      attempt: num(frame.attempt),
      maxRetries: num(frame.max_retries),
      errorStatus: num(frame.error_status),
      error: str(frame.error),
    },
  };
}

/** `task_notification.status` → the subagent's final state. */
export function subagentStatusOf(status: unknown): Exclude<SubagentStatus, 'running' | 'lost'> {
  if (status === 'completed') return 'completed';
  if (status === 'failed') return 'failed';
  return 'stopped';
}
