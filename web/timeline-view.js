// @ts-check
// Draws the timeline items. Each item's element is kept while the item is unchanged, so a deny message
// being typed under a pending tool call, or an opened result, survives the live updates around it.

import { AGENT_TOOLS, agentReport, promptForDisplay } from './agent-text.js';
import { offerAnswers } from './approval-actions.js';
import { approvalBody } from './approval-body.js';
import { allowsIn } from './two-person.js';
import { decisionDetail } from './decision-detail.js';
import { h } from './dom.js';
import { clip, clock, cost, tokens, triggerLabel } from './format.js';
import { markdown } from './markdown.js';
import { titleLine } from './preview.js';
import { decidedByWords } from '/view/timeline.js';
import { visibleText } from './visible-text.js';

/** @import { State } from './state.js' */
/** @import { TimelineItem, ToolItem, Permission, RunUsage } from '/view/timeline.js' */

const MAX_RESULT = 6000;

export class TimelineView {
  /** @type {Map<string, { signature: string, element: HTMLElement }>} */ #cache = new Map();

  /**
   * @param {State} state
   */
  constructor(state) {
    this.state = state;
    this.list = h('ol', { class: 'timeline', 'aria-label': 'Conversation' });
  }

  /** @param {TimelineItem[]} items */
  render(items) {
    const scroller = document.scrollingElement;
    const atBottom =
      scroller === null || scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 80;
    const keys = new Set();
    /** @type {Element | null} */
    let previous = null;
    for (const item of items) {
      keys.add(item.key);
      const signature = JSON.stringify([item, this.#names(item)]);
      let entry = this.#cache.get(item.key);
      if (entry === undefined || entry.signature !== signature) {
        const element = this.#element(item);
        entry?.element.replaceWith(element);
        entry = { signature, element };
        this.#cache.set(item.key, entry);
      }
      /** @type {Element | null} */
      const expected = previous === null ? this.list.firstElementChild : previous.nextElementSibling;
      if (expected !== entry.element) this.list.insertBefore(entry.element, expected);
      previous = entry.element;
    }
    for (const [key, entry] of this.#cache)
      if (!keys.has(key)) {
        entry.element.remove();
        this.#cache.delete(key);
      }
    // Follow the conversation only when the reader was already at its end.
    if (atBottom && scroller !== null) scroller.scrollTop = scroller.scrollHeight;
  }

  /**
   * The outside facts an item's element shows (a subagent's name, whether its approval can still be
   * answered here), part of its signature.
   * @param {TimelineItem} item
   */
  #names(item) {
    return [
      'agentId' in item && item.agentId !== null ? this.#agentName(item.agentId) : null,
      item.kind === 'tool_call' ? this.#answerable(item) !== undefined : null,
      // A two-person approval's first allow redraws the call (1 of 2, by whom).
      item.kind === 'tool_call' ? allowsOf(this.#answerable(item)) : null,
    ];
  }

  /**
   * The approval this tool call waits for, if this page may still answer it.
   * @param {ToolItem} item
   */
  #answerable(item) {
    const id = item.permission?.outcome === 'pending' ? item.permission.approvalId : null;
    const approval = id === null ? undefined : this.state.approvals.get(id);
    return approval?.status === 'pending' && !this.state.deciding.has(approval.id) ? approval : undefined;
  }

  /** @param {string} agentId */
  #agentName(agentId) {
    const subagent = this.state.subagents.get(agentId);
    return `Subagent${subagent?.description ? `: ${subagent.description}` : ''}`;
  }

  /**
   * Scrolls to a tool call and marks it, for a link such as `#/threads/<id>?call=<toolUseId>`.
   * @param {string} toolUseId
   * @returns {boolean} whether the call is on the page
   */
  highlight(toolUseId) {
    const element = this.list.querySelector(`[data-tool-use-id="${CSS.escape(toolUseId)}"]`);
    if (!(element instanceof HTMLElement)) return false;
    for (const old of this.list.querySelectorAll('.highlighted')) old.classList.remove('highlighted');
    element.classList.add('highlighted');
    element.scrollIntoView({ block: 'center' });
    return true;
  }

  /**
   * @param {TimelineItem} item
   * @returns {HTMLElement}
   */
  #element(item) {
    switch (item.kind) {
      case 'run':
        return h(
          'li',
          { class: `item run-boundary ${item.status}`, 'data-run-id': item.runId },
          h(
            'p',
            {},
            h('strong', {}, `Run ${item.number}`),
            ` · ${triggerLabel(item.trigger)} · `,
            h('span', { class: `status ${item.status}` }, item.status),
            item.reason ? ` (${item.reason})` : '',
            ' · ',
            h('time', { datetime: item.at }, clock(item.at)),
          ),
          item.usage ? usageLine(item.usage) : null,
        );
      case 'notice':
        // An external session's CLI told its user something (it waits for input, or for a permission).
        return h(
          'li',
          { class: 'item notice' },
          h(
            'p',
            {},
            h('strong', {}, 'Claude Code: '),
            visibleText(item.text),
            ' · ',
            h('time', { datetime: item.at }, clock(item.at)),
          ),
        );
      case 'user':
        return h(
          'li',
          { class: 'item message user' },
          h('p', { class: 'who' }, 'You'),
          h('div', { class: 'text' }, visibleText(promptForDisplay(item.text))),
        );
      case 'assistant':
        return h(
          'li',
          { class: `item message assistant${item.agentId ? ' from-subagent' : ''}` },
          // A subagent's messages are named once, by the header of their group.
          item.agentId ? null : h('p', { class: 'who' }, 'Claude'),
          markdown(item.text, 'text'),
        );
      case 'subagent':
        return h(
          'li',
          { class: `item subagent-item ${item.status}`, 'data-subagent-id': item.subagentId },
          h(
            'p',
            {},
            h('strong', {}, 'Subagent: ', visibleText(item.description ?? item.subagentId)),
            ' · ',
            h(
              'span',
              { class: `status ${item.status}` },
              item.status === 'running' ? 'running in the background' : item.status,
            ),
          ),
        );
      case 'subagent_group':
        return h(
          'li',
          { class: 'item subagent-group', 'data-subagent-id': item.agentId },
          h('p', {}, h('strong', {}, this.#agentName(item.agentId))),
        );
      case 'subagent_report':
        return h(
          'li',
          { class: `item subagent-report ${item.status}`, 'data-subagent-id': item.subagentId },
          h(
            'p',
            {},
            h('strong', {}, 'Subagent: ', visibleText(item.description ?? item.subagentId)),
            ' · ',
            h('span', { class: `status ${item.status}` }, REPORT_WORDS[item.status] ?? item.status),
          ),
          item.summary ? markdown(item.summary, 'report') : null,
        );
      case 'tool_call':
        return this.#tool(item);
    }
  }

  /** @param {ToolItem} item */
  #tool(item) {
    const pendingApproval = this.#answerable(item);
    return h(
      'li',
      {
        class: `item tool-call${item.agentId ? ' from-subagent' : ''}`,
        id: `call-${item.toolUseId}`,
        'data-tool-use-id': item.toolUseId,
      },
      h(
        'p',
        { class: 'tool-head' },
        h('span', { class: 'tool' }, item.toolName || 'tool'),
        titleLine(item.toolName, item.input),
        item.permission ? permissionBadge(item.permission) : null,
      ),
      decisionDetail(item),
      pendingApproval !== undefined
        ? offerAnswers(
            h(
              'div',
              { class: 'pending-approval' },
              approvalBody(this.state, pendingApproval, { shortcuts: false }),
            ),
            pendingApproval.id,
          )
        : null,
      item.result ? resultBox(item) : null,
    );
  }
}

const REPORT_WORDS = /** @type {Record<string, string>} */ ({
  completed: 'reported',
  failed: 'failed',
  stopped: 'stopped',
  lost: 'lost',
});

/**
 * A tool call's result, folded. An Agent call's result is the subagent's report (the CLI's notes for the
 * model are left out, agent-text.js), drawn as Markdown; other results are shown as they came.
 * @param {ToolItem} item
 */
function resultBox(item) {
  const result = /** @type {NonNullable<ToolItem['result']>} */ (item.result);
  const more = result.truncated ? '\n… (truncated)' : '';
  if (AGENT_TOOLS.has(item.toolName) && !result.isError) {
    const report = agentReport(result.text);
    if (report === '')
      return h(
        'p',
        { class: 'muted result-note' },
        'Started in the background; its report follows when it ends.',
      );
    return h(
      'details',
      { class: 'result agent-report' },
      h('summary', {}, 'Report'),
      markdown(clip(report, MAX_RESULT) + more),
    );
  }
  return h(
    'details',
    { class: `result${result.isError ? ' error' : ''}` },
    h('summary', {}, result.isError ? 'Error result' : 'Result'),
    h('pre', { class: 'code' }, h('code', {}, clip(result.text, MAX_RESULT) + more)),
  );
}

/**
 * "claude-sonnet-4 · $0.0123 · 1,200 in · 300 out · 5,000 cache read · 0 cache write"
 * @param {RunUsage} usage
 */
function usageLine(usage) {
  return h(
    'p',
    { class: 'muted run-usage' },
    usage.models.length > 0 ? h('span', { class: 'model' }, usage.models.join(', ')) : null,
    usage.models.length > 0 ? ' · ' : null,
    h('span', { class: 'cost', title: 'Cost reported by the CLI' }, cost(usage.costUsd)),
    ' · ',
    h(
      'span',
      { class: 'tokens', title: 'Tokens: input, output, read from cache, written to cache' },
      `${tokens(usage.inputTokens)} in · ${tokens(usage.outputTokens)} out · ${tokens(usage.cacheReadTokens)} cache read · ${tokens(usage.cacheCreationTokens)} cache write`,
    ),
  );
}

/** Who answered an approval, as the end of a badge: a person here, the policy, or a webhook's link. */
const DECIDED_BY = /** @type {Record<string, string>} */ ({
  policy: ' by policy',
  webhook: ' through a webhook link',
  timeout: ' by the deadline',
});

/** @param {Permission} permission */
function permissionBadge(permission) {
  const by = DECIDED_BY[permission.by ?? ''] ?? decidedByWords(permission);
  const words = {
    pending: 'waiting for approval',
    allowed:
      permission.via === 'policy'
        ? 'allowed by policy'
        : permission.behavior === 'allow_always'
          ? `always allowed${by}`
          : `approved${by}`,
    denied: permission.via === 'approval' ? `denied${by}` : 'denied by policy',
    cancelled: 'cancelled',
    expired: 'expired',
  }[permission.outcome];
  return h(
    'span',
    { class: `badge ${permission.outcome}` },
    words,
    permission.detail ? h('span', { class: 'detail' }, `: ${permission.detail}`) : null,
  );
}

/**
 * How many allows a pending approval holds so far (none for no approval).
 * @param {import('./types.js').ApprovalRecord | undefined} approval
 */
function allowsOf(approval) {
  return approval === undefined ? 0 : allowsIn(approval);
}
