// A Codex thread's notifications as the thread's events: an agent message completed is an assistant
// message of the turn's run, a command completed its tool call and result, a turn completed the run's
// end. A re-attached host reads the spool from its start, so each is recorded once: items by their id,
// a run's end only while the run is running.
import type { CodexNotification } from '../../agents/codex/index.js';
import type { AssistantBlock, EventDraft } from '../../store/event-types.js';
import type { RunRecord } from '../../store/records.js';
import { unwrapCommand } from './codex-requests.js';

/** What the thread knows of its Codex turns. */
export interface CodexTurns {
  /** Codex's turn id → the run it is (the id is the run's user message's uuid). */
  readonly runByTurn: Map<string, string>;
  /** The turn in progress. */
  current: string | undefined;
  /** Item ids already recorded as assistant messages. */
  readonly seenItems: Set<string>;
}

/** The largest command output kept in a tool result. */
const MAX_OUTPUT_CHARS = 16_384;

interface CodexItem {
  readonly type?: string;
  readonly id?: string;
  readonly text?: string;
  readonly command?: string;
  readonly aggregatedOutput?: string | null;
  readonly exitCode?: number | null;
  readonly status?: string;
}

export function codexTurnEvents(
  turns: CodexTurns,
  notification: CodexNotification,
  runOf: (runId: string) => RunRecord | undefined,
): EventDraft[] {
  const { method, params } = notification;
  const turnId = typeof params['turnId'] === 'string' ? params['turnId'] : undefined;
  if (method === 'item/completed') {
    const item = params['item'] as CodexItem | undefined;
    const runId = turnId === undefined ? undefined : turns.runByTurn.get(turnId);
    if (item?.id === undefined || runId === undefined || turns.seenItems.has(item.id)) return [];
    turns.seenItems.add(item.id);
    return itemEvents(runId, item.id, item);
  }
  if (method === 'turn/completed') {
    const turn = params['turn'] as
      { id?: string; status?: string; error?: { message?: string } | null } | undefined;
    const id = turn?.id;
    if (id === undefined) return [];
    if (turns.current === id) turns.current = undefined;
    const runId = turns.runByTurn.get(id);
    if (runId === undefined || runOf(runId)?.status !== 'running') return [];
    const status =
      turn?.status === 'interrupted' ? 'interrupted' : turn?.status === 'failed' ? 'failed' : 'completed';
    return [
      {
        type: 'run.ended',
        data: { runId, status, reason: turn?.error?.message ?? null, result: null, origin: null },
      },
      { type: 'run.released', data: { runId } },
    ];
  }
  return [];
}

function itemEvents(runId: string, id: string, item: CodexItem): EventDraft[] {
  const assistant = (block: AssistantBlock): EventDraft => ({
    type: 'message.assistant',
    data: { runId, agentId: null, parentToolUseId: null, messageId: id, blocks: [block] },
  });
  if (item.type === 'agentMessage' && typeof item.text === 'string')
    return [assistant({ type: 'text', text: item.text })];
  if (item.type === 'commandExecution' && typeof item.command === 'string') {
    const output = item.aggregatedOutput ?? '';
    return [
      assistant({ type: 'tool_use', id, name: 'Bash', input: { command: unwrapCommand(item.command) } }),
      {
        type: 'tool.result',
        data: {
          runId,
          agentId: null,
          toolUseId: id,
          isError: item.status !== 'completed' || (item.exitCode ?? 0) !== 0,
          text: output.slice(0, MAX_OUTPUT_CHARS),
          truncated: output.length > MAX_OUTPUT_CHARS,
        },
      },
    ];
  }
  return [];
}
