// @ts-check
// The conversation of one thread, folded from its events: run boundaries, user and assistant messages,
// tool calls (with their result and how their permission was settled) and subagents. Items are in the order
// things happened: a subagent's start where it started, its steps as they came, its report where it ended;
// each stretch of a subagent's steps is led by one header naming it. Pure: the same events always give
// the same items, so the browser rebuilds it after every live event, and the server's `timeline` (and the
// supervisor's timeline()) is the same fold of the same events. Events are read loosely (`?? null`,
// `Array.isArray`): a log holds events recorded by older versions, which lack fields added since.

import { totalsOf, usageSince } from './run-usage.js';

/** @import { StoredEvent } from '../store/event-types.js' */
/** @import { Totals } from './run-usage.js' */
/** @typedef {import('./run-usage.js').RunUsage} RunUsage */

/**
 * @typedef {object} Permission
 * @property {'approval' | 'policy' | 'rejected'} via asked a person / the mode or a rule / refused unasked
 * @property {'pending' | 'allowed' | 'denied' | 'cancelled' | 'expired'} outcome
 * @property {string | null} approvalId
 * @property {string | null} behavior allow, allow_always or deny, once decided
 * @property {string | null} by `user`, `policy`, `webhook` or `timeout`
 * @property {string | null} [decider] who decided (a named decider, `owner` for the server token's holder)
 * @property {string | null} [channel] through what: web, terminal, api, webhook, policy, timeout
 * @property {string | null} detail the deny message, the rule, the cancel reason or the failed check
 * @property {Record<string, unknown> | null} [updatedInput] the input as sent, when a person edited or answered it
 * @property {boolean} [interrupt] a deny that also stopped the turn
 */

/**
 * @typedef {{ key: string, seq: number, at: string, runId: string | null }} Base
 * @typedef {Base & { kind: 'run', trigger: string, status: string, reason: string | null, released: boolean, number: number, usage: RunUsage | null }} RunItem
 * @typedef {Base & { kind: 'user', text: string }} UserItem
 * @typedef {Base & { kind: 'assistant', agentId: string | null, text: string }} AssistantItem
 * @typedef {Base & { kind: 'tool_call', agentId: string | null, toolUseId: string, toolName: string,
 *   input: Record<string, unknown>, result: { isError: boolean, text: string, truncated: boolean } | null,
 *   permission: Permission | null }} ToolItem
 * @typedef {Base & { kind: 'subagent', subagentId: string, description: string | null, status: string,
 *   summary: string | null }} SubagentItem
 * @typedef {Base & { kind: 'subagent_report', subagentId: string, description: string | null, status: string,
 *   summary: string | null }} SubagentReportItem
 * @typedef {Base & { kind: 'subagent_group', agentId: string }} SubagentGroupItem
 * @typedef {Base & { kind: 'notice', notificationType: string | null, text: string }} NoticeItem what an
 *   external session's CLI told its user (its Notification hook)
 * @typedef {RunItem | UserItem | AssistantItem | ToolItem | SubagentItem | SubagentReportItem
 *   | SubagentGroupItem | NoticeItem} TimelineItem
 */

/** How a decider's channel reads after their name; the web UI needs no words. */
const CHANNEL_WORDS = /** @type {Record<string, string>} */ ({
  terminal: ' in a terminal',
  api: ' over the API',
});

/**
 * Who decided, as words after "approved": "by you" for the server's owner (and decisions recorded before
 * deciders had names), else the decider's name — and the channel when it was not the web UI.
 * @param {Pick<Permission, 'decider' | 'channel'>} permission
 */
export function decidedByWords(permission) {
  const name = permission.decider;
  const who = name === null || name === undefined || name === 'owner' ? ' by you' : ` by ${name}`;
  return who + (CHANNEL_WORDS[permission.channel ?? ''] ?? '');
}

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
  /** @type {Map<string, number>} the CLI process (generation) each run was sent to */
  const generations = new Map();
  /** @type {Map<number, Totals>} per CLI process, the running totals of its last result */
  const totals = new Map();

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
        runId: /** @type {{ runId?: string | null }} */ (event.data).runId ?? null,
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
    const { seq, at } = event;
    switch (event.type) {
      case 'run.created': {
        /** @type {RunItem} */
        const item = {
          key: `run:${event.data.runId}`,
          seq,
          at,
          runId: event.data.runId,
          kind: 'run',
          trigger: event.data.trigger,
          status: event.data.status,
          reason: null,
          released: false,
          number: runs.size + 1,
          usage: null,
        };
        runs.set(event.data.runId, item);
        generations.set(event.data.runId, event.data.generation ?? 0);
        items.push(item);
        break;
      }
      case 'run.started':
        patch(runs.get(event.data.runId), { status: 'running' });
        break;
      case 'run.ended': {
        const kind = event.data.origin?.kind;
        const generation = generations.get(event.data.runId) ?? 0;
        const now = totalsOf(event.data.result);
        patch(runs.get(event.data.runId), {
          status: event.data.status,
          reason: event.data.reason ?? null,
          usage: now === null ? null : usageSince(totals.get(generation), now),
          ...(typeof kind === 'string' ? { trigger: kind } : {}),
        });
        if (now !== null) totals.set(generation, now);
        break;
      }
      case 'run.released':
        patch(runs.get(event.data.runId), { released: true });
        break;
      case 'message.user':
        items.push({
          key: `user:${seq}`,
          seq,
          at,
          runId: event.data.runId,
          kind: 'user',
          text: event.data.text,
        });
        break;
      case 'external.notified':
        items.push({
          key: `notice:${seq}`,
          seq,
          at,
          runId: null,
          kind: 'notice',
          notificationType: event.data.notificationType ?? null,
          text: String(event.data.message ?? ''),
        });
        break;
      case 'message.assistant':
        (Array.isArray(event.data.blocks) ? event.data.blocks : []).forEach(
          (/** @type {any} */ block, index) => {
            if (block?.type === 'text' && typeof block.text === 'string' && block.text.trim() !== '')
              items.push({
                key: `assistant:${seq}:${index}`,
                seq,
                at,
                runId: event.data.runId,
                kind: 'assistant',
                agentId: event.data.agentId ?? null,
                text: block.text,
              });
            else if (block?.type === 'tool_use')
              call(event, block.id, {
                toolName: block.name,
                input: block.input ?? {},
                agentId: event.data.agentId ?? null,
              });
          },
        );
        break;
      case 'tool.result':
        call(event, event.data.toolUseId, { agentId: event.data.agentId ?? null }).result = {
          isError: event.data.isError === true,
          text: String(event.data.text ?? ''),
          truncated: event.data.truncated === true,
        };
        break;
      case 'permission.decided':
        call(event, event.data.toolUseId, {
          toolName: event.data.toolName,
          input: event.data.input ?? {},
          agentId: event.data.subagentId,
        }).permission = {
          via: 'policy',
          outcome: event.data.behavior === 'allow' ? 'allowed' : 'denied',
          approvalId: null,
          behavior: event.data.behavior,
          by: 'policy',
          detail: event.data.rule ?? event.data.reason ?? null,
        };
        break;
      case 'permission.rejected':
        call(event, event.data.toolUseId, {
          toolName: event.data.toolName,
          agentId: event.data.subagentId,
        }).permission = {
          via: 'rejected',
          outcome: 'denied',
          approvalId: null,
          behavior: 'deny',
          by: 'policy',
          detail: event.data.message ?? event.data.condition ?? null,
        };
        break;
      case 'approval.requested': {
        const item = call(event, event.data.toolUseId, {
          toolName: event.data.toolName,
          input: event.data.input ?? {},
          agentId: event.data.subagentId,
        });
        item.permission = {
          via: 'approval',
          outcome: 'pending',
          approvalId: event.data.approvalId,
          behavior: null,
          by: null,
          detail: null,
        };
        byApproval.set(event.data.approvalId, item);
        break;
      }
      case 'approval.decided':
      case 'approval.cancelled':
      case 'approval.expired': {
        const permission = byApproval.get(event.data.approvalId)?.permission;
        if (permission === null || permission === undefined) break;
        if (event.type === 'approval.decided') {
          permission.outcome = event.data.behavior === 'deny' ? 'denied' : 'allowed';
          permission.behavior = event.data.behavior;
          permission.by = event.data.by ?? 'user';
          permission.decider = event.data.decidedBy?.name ?? null;
          permission.channel = event.data.decidedBy?.via ?? null;
          permission.detail = event.data.message ?? null;
          permission.updatedInput = event.data.updatedInput ?? null;
          permission.interrupt = event.data.interrupt === true;
        } else {
          permission.outcome = event.type === 'approval.cancelled' ? 'cancelled' : 'expired';
          permission.detail = event.data.reason ?? null;
        }
        break;
      }
      case 'subagent.started': {
        /** @type {SubagentItem} */
        const item = {
          key: `subagent:${event.data.subagentId}`,
          seq,
          at,
          runId: event.data.runId,
          kind: 'subagent',
          subagentId: event.data.subagentId,
          description: event.data.description ?? null,
          status: 'running',
          summary: null,
        };
        subagents.set(event.data.subagentId, item);
        items.push(item);
        break;
      }
      case 'subagent.ended': {
        const started = subagents.get(event.data.subagentId);
        patch(started, { status: event.data.status, summary: event.data.summary ?? null });
        items.push({
          key: `subagent-report:${event.data.subagentId}`,
          seq,
          at,
          runId: started?.runId ?? null,
          kind: 'subagent_report',
          subagentId: event.data.subagentId,
          description: started?.description ?? null,
          status: event.data.status,
          summary: event.data.summary ?? null,
        });
        break;
      }
      default:
        break;
    }
  }
  return withGroupHeaders(items);
}

/**
 * Puts one header before each stretch of a subagent's steps (its messages and tool calls), unless the
 * stretch follows the subagent's own start, which names it already.
 * @param {TimelineItem[]} items
 * @returns {TimelineItem[]}
 */
function withGroupHeaders(items) {
  /** @type {TimelineItem[]} */
  const out = [];
  /** @type {string | null} */
  let current = null;
  for (const item of items) {
    const agentId =
      (item.kind === 'assistant' || item.kind === 'tool_call') && item.agentId !== null ? item.agentId : null;
    if (agentId !== null && agentId !== current)
      out.push({
        key: `group:${agentId}:${item.key}`,
        seq: item.seq,
        at: item.at,
        runId: item.runId,
        kind: 'subagent_group',
        agentId,
      });
    current = agentId ?? (item.kind === 'subagent' ? item.subagentId : null);
    out.push(item);
  }
  return out;
}

/**
 * @template {object} T
 * @param {T | undefined} item
 * @param {Partial<T>} fields
 */
function patch(item, fields) {
  if (item !== undefined) Object.assign(item, fields);
}
