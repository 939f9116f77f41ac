// @ts-check
// The conversation of one thread, folded from its events: run boundaries, user and assistant messages,
// tool calls (with their result and how their permission was settled) and subagents. Items are in the order
// things happened: a subagent's start where it started, its steps as they came, its report where it ended;
// each stretch of a subagent's steps is led by one header naming it. Pure: the same events always give
// the same items, so the view can rebuild it after every live event.

/** @import { StoredEvent } from './types.js' */

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
 * What a run used, from its result: the CLI reports running totals for its process, so a run's share is
 * the difference from the previous result of the same process (a background subagent's work in between
 * counts toward the run whose result follows it).
 * @typedef {object} RunUsage
 * @property {string[]} models the models that did work in the run, busiest first
 * @property {number | null} costUsd
 * @property {number} inputTokens
 * @property {number} outputTokens
 * @property {number} cacheReadTokens
 * @property {number} cacheCreationTokens
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
 * @typedef {RunItem | UserItem | AssistantItem | ToolItem | SubagentItem | SubagentReportItem
 *   | SubagentGroupItem} TimelineItem
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
          usage: null,
        };
        runs.set(data.runId, item);
        generations.set(data.runId, data.generation ?? 0);
        items.push(item);
        break;
      }
      case 'run.started':
        patch(runs.get(data.runId), { status: 'running' });
        break;
      case 'run.ended': {
        const kind = data.origin?.kind;
        const generation = generations.get(data.runId) ?? 0;
        const now = totalsOf(data.result);
        patch(runs.get(data.runId), {
          status: data.status,
          reason: data.reason ?? null,
          usage: now === null ? null : usageSince(totals.get(generation), now),
          ...(typeof kind === 'string' ? { trigger: kind } : {}),
        });
        if (now !== null) totals.set(generation, now);
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
          permission.decider = data.decidedBy?.name ?? null;
          permission.channel = data.decidedBy?.via ?? null;
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
      case 'subagent.ended': {
        const started = subagents.get(data.subagentId);
        patch(started, { status: data.status, summary: data.summary ?? null });
        items.push({
          key: `subagent-report:${data.subagentId}`,
          seq,
          at,
          runId: started?.runId ?? null,
          kind: 'subagent_report',
          subagentId: data.subagentId,
          description: started?.description ?? null,
          status: data.status,
          summary: data.summary ?? null,
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
 * @typedef {object} Totals the CLI's running totals at one result
 * @property {number | null} costUsd
 * @property {Record<string, { inputTokens: number, outputTokens: number, cacheReadInputTokens: number,
 *   cacheCreationInputTokens: number }>} models
 */

/**
 * @param {any} result a run's recorded result
 * @returns {Totals | null}
 */
function totalsOf(result) {
  if (result === null || typeof result !== 'object') return null;
  const cost = typeof result.totalCostUsd === 'number' ? result.totalCostUsd : null;
  /** @type {Totals['models']} */
  const models = {};
  if (result.modelUsage !== null && typeof result.modelUsage === 'object')
    for (const [model, u] of Object.entries(result.modelUsage))
      models[model] = {
        inputTokens: Number(u?.inputTokens) || 0,
        outputTokens: Number(u?.outputTokens) || 0,
        cacheReadInputTokens: Number(u?.cacheReadInputTokens) || 0,
        cacheCreationInputTokens: Number(u?.cacheCreationInputTokens) || 0,
      };
  else if (result.usage !== null && typeof result.usage === 'object')
    // No per-model totals (older records): the turn's own usage, under no model name.
    models[''] = {
      inputTokens: Number(result.usage.inputTokens) || 0,
      outputTokens: Number(result.usage.outputTokens) || 0,
      cacheReadInputTokens: Number(result.usage.cacheReadInputTokens) || 0,
      cacheCreationInputTokens: Number(result.usage.cacheCreationInputTokens) || 0,
    };
  if (cost === null && Object.keys(models).length === 0) return null;
  return { costUsd: cost, models };
}

/**
 * @param {Totals | undefined} before the same process's previous result, if any
 * @param {Totals} now
 * @returns {RunUsage}
 */
function usageSince(before, now) {
  /** @type {RunUsage} */
  const usage = {
    models: [],
    costUsd: now.costUsd === null ? null : Math.max(0, now.costUsd - (before?.costUsd ?? 0)),
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheCreationTokens: 0,
  };
  /** @type {[string, number][]} */
  const busy = [];
  for (const [model, u] of Object.entries(now.models)) {
    const b = before?.models[model];
    const d = {
      input: Math.max(0, u.inputTokens - (b?.inputTokens ?? 0)),
      output: Math.max(0, u.outputTokens - (b?.outputTokens ?? 0)),
      cacheRead: Math.max(0, u.cacheReadInputTokens - (b?.cacheReadInputTokens ?? 0)),
      cacheCreation: Math.max(0, u.cacheCreationInputTokens - (b?.cacheCreationInputTokens ?? 0)),
    };
    usage.inputTokens += d.input;
    usage.outputTokens += d.output;
    usage.cacheReadTokens += d.cacheRead;
    usage.cacheCreationTokens += d.cacheCreation;
    if (model !== '' && d.input + d.output + d.cacheRead + d.cacheCreation > 0) busy.push([model, d.output]);
  }
  usage.models = busy.sort((a, b) => b[1] - a[1]).map(([model]) => model);
  return usage;
}

/**
 * @template {object} T
 * @param {T | undefined} item
 * @param {Partial<T>} fields
 */
function patch(item, fields) {
  if (item !== undefined) Object.assign(item, fields);
}
