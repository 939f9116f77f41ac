// The conversation of a thread as a UI shows it, folded from its events alone: user and assistant
// messages, tool calls with their results and how their permission was settled, runs and subagents.
// Pure, so a client holding the events (from events()) can build the same view.
import type { StoredEvent } from '../store/event-types.js';

export interface TimelinePermission {
  /** `approval`: asked a person; `policy`: the mode or a rule decided; `rejected`: refused unasked. */
  via: 'approval' | 'policy' | 'rejected';
  /** allowed, denied, pending, cancelled, expired. */
  outcome: string;
  approvalId: string | null;
  /** The rule, the cancel reason, or the failed condition. */
  detail: string | null;
  /** A decided approval's input as sent when a person edited it or answered it (the item's input: as asked). */
  updatedInput?: Record<string, unknown>;
  /** A deny that also stopped the turn. */
  interrupt?: true;
}

interface Base {
  seq: number;
  at: string;
  runId: string | null;
}

export type TimelineItem =
  | (Base & { kind: 'run'; trigger: string; status: string; reason: string | null; released: boolean })
  | (Base & { kind: 'user'; text: string })
  | (Base & { kind: 'assistant'; agentId: string | null; text: string })
  | (Base & {
      kind: 'tool_call';
      agentId: string | null;
      toolUseId: string;
      toolName: string;
      input: Record<string, unknown>;
      result: { isError: boolean; text: string; truncated: boolean } | null;
      permission: TimelinePermission | null;
    })
  | (Base & {
      kind: 'subagent';
      subagentId: string;
      description: string | null;
      status: string;
      summary: string | null;
    });

type ToolCall = Extract<TimelineItem, { kind: 'tool_call' }>;

export function buildTimeline(events: readonly StoredEvent[]): TimelineItem[] {
  const items: TimelineItem[] = [];
  const runs = new Map<string, Extract<TimelineItem, { kind: 'run' }>>();
  const calls = new Map<string, ToolCall>();
  const subagents = new Map<string, Extract<TimelineItem, { kind: 'subagent' }>>();
  const approvals = new Map<string, ToolCall>();
  const base = (event: StoredEvent, runId: string | null): Base => ({ seq: event.seq, at: event.at, runId });
  const call = (
    event: StoredEvent,
    runId: string | null,
    toolUseId: string,
    toolName: string,
    input: Record<string, unknown>,
    agentId: string | null,
  ): ToolCall => {
    let item = calls.get(toolUseId);
    if (item === undefined) {
      item = {
        ...base(event, runId),
        kind: 'tool_call',
        agentId,
        toolUseId,
        toolName,
        input,
        result: null,
        permission: null,
      };
      calls.set(toolUseId, item);
      items.push(item);
    }
    return item;
  };

  for (const event of events) {
    switch (event.type) {
      case 'run.created': {
        const item = {
          ...base(event, event.data.runId),
          kind: 'run' as const,
          trigger: event.data.trigger,
          status: event.data.status,
          reason: null,
          released: false,
        };
        runs.set(event.data.runId, item);
        items.push(item);
        break;
      }
      case 'run.started':
        setRun(runs, event.data.runId, { status: 'running' });
        break;
      case 'run.ended': {
        const kind = event.data.origin?.kind;
        setRun(runs, event.data.runId, {
          status: event.data.status,
          reason: event.data.reason,
          ...(typeof kind === 'string' ? { trigger: kind } : {}),
        });
        break;
      }
      case 'run.released':
        setRun(runs, event.data.runId, { released: true });
        break;
      case 'message.user':
        items.push({ ...base(event, event.data.runId), kind: 'user', text: event.data.text });
        break;
      case 'message.assistant':
        for (const block of event.data.blocks) {
          if (block.type === 'text')
            items.push({
              ...base(event, event.data.runId),
              kind: 'assistant',
              agentId: event.data.agentId,
              text: block.text,
            });
          else if (block.type === 'tool_use')
            call(event, event.data.runId, block.id, block.name, block.input, event.data.agentId);
        }
        break;
      case 'tool.result': {
        const { runId, toolUseId, isError, text, truncated, agentId } = event.data;
        call(event, runId, toolUseId, '', {}, agentId).result = { isError, text, truncated };
        break;
      }
      case 'permission.decided': {
        const d = event.data;
        call(event, d.runId, d.toolUseId, d.toolName, d.input, d.subagentId).permission = {
          via: 'policy',
          outcome: d.behavior === 'allow' ? 'allowed' : 'denied',
          approvalId: null,
          detail: d.rule ?? d.reason,
        };
        break;
      }
      case 'permission.rejected': {
        const d = event.data;
        call(event, d.runId, d.toolUseId, d.toolName, {}, d.subagentId).permission = {
          via: 'rejected',
          outcome: 'denied',
          approvalId: null,
          detail: d.condition,
        };
        break;
      }
      case 'approval.requested': {
        const d = event.data;
        const item = call(event, d.runId, d.toolUseId, d.toolName, d.input, d.subagentId);
        item.permission = { via: 'approval', outcome: 'pending', approvalId: d.approvalId, detail: null };
        approvals.set(d.approvalId, item);
        break;
      }
      case 'approval.decided':
      case 'approval.cancelled':
      case 'approval.expired': {
        const permission = approvals.get(event.data.approvalId)?.permission;
        if (permission === null || permission === undefined) break;
        if (event.type === 'approval.decided') {
          permission.outcome = event.data.behavior === 'deny' ? 'denied' : 'allowed';
          permission.detail = event.data.behavior;
          const { updatedInput, interrupt } = event.data;
          if (updatedInput !== undefined && updatedInput !== null) permission.updatedInput = updatedInput;
          if (interrupt) permission.interrupt = true;
        } else {
          permission.outcome = event.type === 'approval.cancelled' ? 'cancelled' : 'expired';
          permission.detail = event.data.reason;
        }
        break;
      }
      case 'subagent.started': {
        const d = event.data;
        const item = {
          ...base(event, d.runId),
          kind: 'subagent' as const,
          subagentId: d.subagentId,
          description: d.description,
          status: 'running',
          summary: null,
        };
        subagents.set(d.subagentId, item);
        items.push(item);
        break;
      }
      case 'subagent.ended': {
        const item = subagents.get(event.data.subagentId);
        if (item !== undefined)
          Object.assign(item, { status: event.data.status, summary: event.data.summary });
        break;
      }
      case 'thread.created':
      case 'thread.mode_changed':
      case 'thread.rules_granted':
      case 'thread.rule_revoked':
      case 'thread.deadlines_set':
      case 'thread.command_requested':
      case 'thread.command_done':
      case 'thread.titled':
      case 'thread.parked':
      case 'thread.adopted':
      case 'session.started':
      case 'session.initialized':
      case 'session.stopping':
      case 'session.ended':
      case 'session.resume_failed':
      case 'session.process_started':
      case 'session.process_exited':
      case 'session.reattached':
      case 'session.detached':
      case 'session.leftover_process':
      case 'run.api_retry':
        break;
    }
  }
  return items;
}

function setRun(
  runs: Map<string, Extract<TimelineItem, { kind: 'run' }>>,
  runId: string,
  patch: Partial<Extract<TimelineItem, { kind: 'run' }>>,
): void {
  const item = runs.get(runId);
  if (item !== undefined) Object.assign(item, patch);
}
