// @ts-check
// The conversation of one thread, folded from its events: run boundaries, user and assistant messages,
// tool calls (with their result and how their permission was settled) and subagents. Pure: the same
// events always give the same items, so the view can rebuild it after every live event.

/** @import { StoredEvent } from './types.js' */

/**
 * @typedef {object} Permission
 * @property {'approval' | 'policy' | 'rejected'} via asked a person / the mode or a rule / refused unasked
 * @property {'pending' | 'allowed' | 'denied' | 'cancelled' | 'expired'} outcome
 * @property {string | null} approvalId
 * @property {string | null} behavior allow, allow_always or deny, once decided
 * @property {string | null} by `user`, `policy` or `webhook`
 * @property {string | null} detail the deny message, the rule, the cancel reason or the failed check
 * @property {Record<string, unknown> | null} [updatedInput] the input as sent, when a person edited or answered it
 * @property {boolean} [interrupt] a deny that also stopped the turn
 */

/**
 * @typedef {{ key: string, seq: number, at: string, runId: string | null }} Base
 * @typedef {Base & { kind: 'run', trigger: string, status: string, reason: string | null, released: boolean, number: number }} RunItem
 * @typedef {Base & { kind: 'user', text: string }} UserItem
 * @typedef {Base & { kind: 'assistant', agentId: string | null, text: string }} AssistantItem
 * @typedef {Base & { kind: 'tool_call', agentId: string | null, toolUseId: string, toolName: string,
 *   input: Record<string, unknown>, result: { isError: boolean, text: string, truncated: boolean } | null,
 *   permission: Permission | null }} ToolItem
 * @typedef {Base & { kind: 'subagent', subagentId: string, description: string | null, status: string,
 *   summary: string | null }} SubagentItem
 * @typedef {RunItem | UserItem | AssistantItem | ToolItem | SubagentItem} TimelineItem
 */

/**
 * @param {readonly StoredEvent[]} events sorted by seq
 * @returns {TimelineItem[]}
 */
export function buildTimeline(events) {
  /** @type {TimelineItem[]} */
  const items = [];
  /** @type {Map<string, RunItem>} */
  const runs = new Map();
  /** @type {Map<string, ToolItem>} */
  const calls = new Map();
  /** @type {Map<string, ToolItem>} */
  const byApproval = new Map();
  /** @type {Map<string, SubagentItem>} */
  const subagents = new Map();

  /**
   * The tool call with this id, created where it is first mentioned (normally its assistant message).
   * @param {StoredEvent} event
   * @param {string} toolUseId
   * @param {Partial<ToolItem>} fields used only when the call is new
   */
  const call = (event, toolUseId, fields) => {
    let item = calls.get(toolUseId);
    if (item === undefined) {
      item = {
        key: `tool:${toolUseId}`,
        seq: event.seq,
        at: event.at,
        runId: event.data.runId ?? null,
        kind: 'tool_call',
        agentId: null,
        toolUseId,
        toolName: '',
        input: {},
        result: null,
        permission: null,
        ...fields,
      };
      calls.set(toolUseId, item);
      items.push(item);
    }
    return item;
  };

  for (const event of events) {
    const { data, seq, at } = event;
    switch (event.type) {
      case 'run.created': {
        /** @type {RunItem} */
        const item = {
          key: `run:${data.runId}`,
          seq,
          at,
          runId: data.runId,
          kind: 'run',
          trigger: data.trigger,
          status: data.status,
          reason: null,
          released: false,
          number: runs.size + 1,
        };
        runs.set(data.runId, item);
        items.push(item);
        break;
      }
      case 'run.started':
        patch(runs.get(data.runId), { status: 'running' });
        break;
      case 'run.ended': {
        const kind = data.origin?.kind;
        patch(runs.get(data.runId), {
          status: data.status,
          reason: data.reason ?? null,
          ...(typeof kind === 'string' ? { trigger: kind } : {}),
        });
        break;
      }
      case 'run.released':
        patch(runs.get(data.runId), { released: true });
        break;
      case 'message.user':
        items.push({ key: `user:${seq}`, seq, at, runId: data.runId, kind: 'user', text: data.text });
        break;
      case 'message.assistant':
        (Array.isArray(data.blocks) ? data.blocks : []).forEach((/** @type {any} */ block, index) => {
          if (block?.type === 'text' && typeof block.text === 'string' && block.text.trim() !== '')
            items.push({
              key: `assistant:${seq}:${index}`,
              seq,
              at,
              runId: data.runId,
              kind: 'assistant',
              agentId: data.agentId ?? null,
              text: block.text,
            });
          else if (block?.type === 'tool_use')
            call(event, block.id, {
              toolName: block.name,
              input: block.input ?? {},
              agentId: data.agentId ?? null,
            });
        });
        break;
      case 'tool.result':
        call(event, data.toolUseId, { agentId: data.agentId ?? null }).result = {
          isError: data.isError === true,
          text: String(data.text ?? ''),
          truncated: data.truncated === true,
        };
        break;
      case 'permission.decided':
        call(event, data.toolUseId, {
          toolName: data.toolName,
          input: data.input ?? {},
          agentId: data.subagentId,
        }).permission = {
          via: 'policy',
          outcome: data.behavior === 'allow' ? 'allowed' : 'denied',
          approvalId: null,
          behavior: data.behavior,
          by: 'policy',
          detail: data.rule ?? data.reason ?? null,
        };
        break;
      case 'permission.rejected':
        call(event, data.toolUseId, { toolName: data.toolName, agentId: data.subagentId }).permission = {
          via: 'rejected',
          outcome: 'denied',
          approvalId: null,
          behavior: 'deny',
          by: 'policy',
          detail: data.message ?? data.condition ?? null,
        };
        break;
      case 'approval.requested': {
        const item = call(event, data.toolUseId, {
          toolName: data.toolName,
          input: data.input ?? {},
          agentId: data.subagentId,
        });
        item.permission = {
          via: 'approval',
          outcome: 'pending',
          approvalId: data.approvalId,
          behavior: null,
          by: null,
          detail: null,
        };
        byApproval.set(data.approvalId, item);
        break;
      }
      case 'approval.decided':
      case 'approval.cancelled':
      case 'approval.expired': {
        const permission = byApproval.get(data.approvalId)?.permission;
        if (permission === null || permission === undefined) break;
        if (event.type === 'approval.decided') {
          permission.outcome = data.behavior === 'deny' ? 'denied' : 'allowed';
          permission.behavior = data.behavior;
          permission.by = data.by ?? 'user';
          permission.detail = data.message ?? null;
          permission.updatedInput = data.updatedInput ?? null;
          permission.interrupt = data.interrupt === true;
        } else {
          permission.outcome = event.type === 'approval.cancelled' ? 'cancelled' : 'expired';
          permission.detail = data.reason ?? null;
        }
        break;
      }
      case 'subagent.started': {
        /** @type {SubagentItem} */
        const item = {
          key: `subagent:${data.subagentId}`,
          seq,
          at,
          runId: data.runId,
          kind: 'subagent',
          subagentId: data.subagentId,
          description: data.description ?? null,
          status: 'running',
          summary: null,
        };
        subagents.set(data.subagentId, item);
        items.push(item);
        break;
      }
      case 'subagent.ended':
        patch(subagents.get(data.subagentId), { status: data.status, summary: data.summary ?? null });
        break;
      default:
        break;
    }
  }
  return items;
}

/**
 * @template {object} T
 * @param {T | undefined} item
 * @param {Partial<T>} fields
 */
function patch(item, fields) {
  if (item !== undefined) Object.assign(item, fields);
}
