// @ts-check
// Draws the timeline items. Each item's element is kept while the item is unchanged, so a deny message
// being typed under a pending tool call, or an opened result, survives the live updates around it.

import { offerAnswers } from './approval-actions.js';
import { approvalBody } from './approval-body.js';
import { decisionDetail } from './decision-detail.js';
import { h } from './dom.js';
import { clip, clock, triggerLabel } from './format.js';
import { titleLine } from './preview.js';

/** @import { State } from './state.js' */
/** @import { TimelineItem, ToolItem, Permission } from './timeline.js' */

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
        );
      case 'user':
        return h(
          'li',
          { class: 'item message user' },
          h('p', { class: 'who' }, 'You'),
          h('div', { class: 'text' }, item.text),
        );
      case 'assistant':
        return h(
          'li',
          { class: `item message assistant${item.agentId ? ' from-subagent' : ''}` },
          h('p', { class: 'who' }, item.agentId ? this.#agentName(item.agentId) : 'Claude'),
          h('div', { class: 'text' }, item.text),
        );
      case 'subagent':
        return h(
          'li',
          { class: `item subagent-item ${item.status}`, 'data-subagent-id': item.subagentId },
          h(
            'p',
            {},
            h('strong', {}, `Subagent: ${item.description ?? item.subagentId}`),
            ' · ',
            h(
              'span',
              { class: `status ${item.status}` },
              item.status === 'running' ? 'running in the background' : item.status,
            ),
          ),
          item.summary ? h('p', { class: 'muted' }, item.summary) : null,
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
      { class: `item tool-call${item.agentId ? ' from-subagent' : ''}`, 'data-tool-use-id': item.toolUseId },
      h(
        'p',
        { class: 'tool-head' },
        item.agentId ? h('span', { class: 'who' }, `${this.#agentName(item.agentId)} · `) : null,
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
      item.result
        ? h(
            'details',
            { class: `result${item.result.isError ? ' error' : ''}` },
            h('summary', {}, item.result.isError ? 'Error result' : 'Result'),
            h(
              'pre',
              { class: 'code' },
              h(
                'code',
                {},
                clip(item.result.text, MAX_RESULT) + (item.result.truncated ? '\n… (truncated)' : ''),
              ),
            ),
          )
        : null,
    );
  }
}

/** Who answered an approval, as the end of a badge: a person here, the policy, or a webhook's link. */
const DECIDED_BY = /** @type {Record<string, string>} */ ({
  policy: ' by policy',
  webhook: ' through a webhook link',
});

/** @param {Permission} permission */
function permissionBadge(permission) {
  const by = DECIDED_BY[permission.by ?? ''] ?? ' by you';
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
