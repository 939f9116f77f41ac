// What "the same" means across two runs: message types, subtypes, roles, tool names, texts and outcomes —
// not ids, timings, costs or session ids, which differ between any two runs of the same SDK.
import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';

/** Progress reports arrive on a timer; how many a run gets says nothing about the SDK. */
const TIMED = new Set(['system/task_progress', 'tool_progress', 'rate_limit_event']);

type Loose = Record<string, unknown>;

export function normaliseMessages(messages: readonly SDKMessage[]): unknown[] {
  return messages
    .map((message) => message as unknown as Loose)
    .filter((message) => !TIMED.has(kindOf(message)))
    .map(normaliseMessage);
}

export function kindOf(message: Loose): string {
  return typeof message.subtype === 'string'
    ? `${String(message.type)}/${message.subtype}`
    : String(message.type);
}

function normaliseMessage(message: Loose): unknown {
  const kind = kindOf(message);
  const inSubagent = typeof message.parent_tool_use_id === 'string';
  switch (message.type) {
    case 'assistant':
    case 'user': {
      const inner = (message.message ?? {}) as Loose;
      return { kind, role: inner.role, inSubagent, content: normaliseContent(inner.content) };
    }
    case 'result':
      return {
        kind,
        is_error: message.is_error,
        result: message.result,
        num_turns: message.num_turns,
        denied: (message.permission_denials as { tool_name: string }[] | undefined)?.map((d) => d.tool_name),
        errors: message.errors,
        origin: (message.origin as Loose | undefined)?.kind,
      };
    case 'system':
      return { kind, ...systemDetails(message) };
    default:
      return { kind };
  }
}

function systemDetails(message: Loose): Loose {
  switch (message.subtype) {
    case 'init':
      return {
        permissionMode: message.permissionMode,
        mcpTools: (message.tools as string[]).filter((tool) => tool.startsWith('mcp__')),
        mcpServers: message.mcp_servers,
      };
    case 'task_started':
      return { description: message.description, task_type: message.task_type };
    case 'task_notification':
      return { status: message.status, summary: message.summary };
    case 'session_state_changed':
      return { state: message.state };
    default:
      return {};
  }
}

/** The content of a transcript message (SessionMessage.message), normalised as a live one. */
export function normaliseContentOf(message: unknown): unknown {
  return normaliseContent((message as Loose | undefined)?.content);
}

/** Ids the CLI writes into texts (tool use ids, agent and task ids, uuids) differ per run. */
const RUN_IDS =
  /\b(toolu_[A-Za-z0-9_]+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|a[0-9a-f]{16})\b/g;

/** Each SDK's runs live in a scratch directory of their own (see harness.ts), which the CLI may quote. */
const WORLD_DIR = /warden-twin-(official|warden)-[A-Za-z0-9]{6}/g;

/** Timings the CLI writes into texts (a task notification's usage). */
const DURATION = /<duration_ms>\d+<\/duration_ms>/g;

function scrub(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  return value
    .replace(RUN_IDS, '<id>')
    .replace(WORLD_DIR, 'warden-twin-<world>')
    .replace(DURATION, '<duration_ms>…</duration_ms>');
}

function normaliseContent(content: unknown): unknown {
  if (!Array.isArray(content)) return scrub(content);
  return content.map((block: Loose) => {
    switch (block.type) {
      case 'text':
        return { text: scrub(block.text) };
      case 'tool_use':
        return { tool_use: block.name, input: block.input };
      case 'tool_result':
        return { tool_result: scrub(resultText(block.content)), is_error: block.is_error === true };
      default:
        return { type: block.type };
    }
  });
}

function resultText(content: unknown): unknown {
  if (!Array.isArray(content)) return content;
  return content.map((part: Loose) => (part.type === 'text' ? part.text : `<${String(part.type)}>`)).join('');
}

/** An error as an application sees it: the class and, separately, the text. */
export function describeError(
  error: unknown,
): { className: string; message: string; code?: unknown } | undefined {
  if (error === undefined) return undefined;
  if (!(error instanceof Error)) return { className: typeof error, message: JSON.stringify(error) };
  const code = (error as { code?: unknown }).code;
  return {
    className: error.constructor.name,
    message: error.message,
    ...(code === undefined ? {} : { code }),
  };
}

/** Ids that differ per run, replaced by what they stand for. */
export function redactIds(value: unknown, replacements: ReadonlyMap<string, string>): unknown {
  return JSON.parse(
    JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? (replacements.get(v) ?? v) : v)),
  ) as unknown;
}
