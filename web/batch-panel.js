// @ts-check
// "Answer several…": one answer for many pending approvals — all of a thread's, all of a subagent's, or
// all that a rule the person types covers. The server previews exactly which approvals the answer would
// cover; the panel lists them, and only them, and the answer goes to those ids only (an approval that
// arrives after the preview is not in it). Each is still decided on its own on the server, so the result
// says which had been settled elsewhere meanwhile. The preview is an answerable element like a card
// (arming.js): its buttons count only once it has been on screen and unmoved for a moment, and any
// change of the choice above it drops it until it is asked for again.

import * as api from './api.js';
import { arming } from './arming.js';
import { h, replace } from './dom.js';
import { folderName } from './format.js';
import { titleLine } from './preview.js';
import { toast } from './toast.js';
import { visibleText } from './visible-text.js';

/** @import { State } from './state.js' */
/** @import { ApprovalItem, ApprovalRecord, BatchLeftOut } from './types.js' */

/** @typedef {'thread' | 'subagent' | 'rule'} SelectKind */

const KINDS = /** @type {const} */ ([
  ['thread', 'All of a thread'],
  ['subagent', 'All of a subagent'],
  ['rule', 'All that a rule covers'],
]);

export class BatchPanel {
  /** @type {{ approvals: ApprovalRecord[], leftOut: BatchLeftOut[], behavior: 'allow' | 'deny', element: HTMLElement } | null} */
  #preview = null;
  #sending = false;

  /** @param {State} state */
  constructor(state) {
    this.state = state;
    this.kindInputs = new Map(
      KINDS.map(([kind]) => [
        kind,
        h('input', {
          type: 'radio',
          name: 'batch-kind',
          id: `batch-kind-${kind}`,
          value: kind,
          checked: kind === 'thread',
          onchange: () => this.#changed(),
        }),
      ]),
    );
    this.threadSelect = h('select', {
      id: 'batch-thread',
      'aria-label': 'Thread',
      onchange: () => this.#pick('thread'),
    });
    this.subagentSelect = h('select', {
      id: 'batch-subagent',
      'aria-label': 'Subagent',
      onchange: () => this.#pick('subagent'),
    });
    this.ruleInput = h('input', {
      id: 'batch-rule',
      type: 'text',
      autocomplete: 'off',
      spellcheck: 'false',
      placeholder: 'Bash(npm test:*)',
      'aria-label': 'Rule',
      oninput: () => this.#pick('rule'),
    });
    this.allowInput = h('input', {
      type: 'radio',
      name: 'batch-behavior',
      id: 'batch-allow',
      value: 'allow',
      checked: true,
      onchange: () => this.#changed(),
    });
    this.denyInput = h('input', {
      type: 'radio',
      name: 'batch-behavior',
      id: 'batch-deny',
      value: 'deny',
      onchange: () => this.#changed(),
    });
    this.reason = h('input', {
      id: 'batch-reason',
      type: 'text',
      autocomplete: 'off',
      placeholder: 'e.g. not during the release',
    });
    this.reasonRow = h(
      'div',
      { class: 'batch-reason', hidden: true },
      h('label', { for: 'batch-reason' }, 'Reason for denying (each agent reads it)'),
      this.reason,
    );
    this.previewBox = h('div', { class: 'batch-preview-box' });
    this.result = h('div', { class: 'batch-result', role: 'status' });
    const fields = {
      thread: this.threadSelect,
      subagent: this.subagentSelect,
      rule: this.ruleInput,
    };
    this.element = h(
      'section',
      { class: 'batch-panel card', 'aria-labelledby': 'batch-heading', hidden: true },
      h(
        'div',
        { class: 'batch-head' },
        h('h2', { id: 'batch-heading' }, 'Answer several approvals'),
        h('button', { type: 'button', class: 'batch-close', onclick: () => this.close() }, 'Close'),
      ),
      h(
        'form',
        {
          class: 'batch-form',
          onsubmit: (/** @type {Event} */ event) => {
            event.preventDefault();
            void this.#loadPreview();
          },
        },
        h(
          'fieldset',
          { class: 'batch-select' },
          h('legend', {}, 'Which pending approvals'),
          KINDS.map(([kind, label]) =>
            h(
              'div',
              { class: 'batch-choice' },
              this.kindInputs.get(kind),
              h('label', { for: `batch-kind-${kind}` }, label),
              fields[kind],
            ),
          ),
        ),
        h(
          'fieldset',
          { class: 'batch-behavior' },
          h('legend', {}, 'Answer'),
          this.allowInput,
          h('label', { for: 'batch-allow' }, 'Approve once'),
          this.denyInput,
          h('label', { for: 'batch-deny' }, 'Deny'),
        ),
        this.reasonRow,
        h('div', {}, h('button', { type: 'submit', class: 'batch-show' }, 'Preview')),
      ),
      this.previewBox,
      this.result,
    );
    this.reason.addEventListener('input', () => this.#drawPreview());
  }

  /**
   * Opens the panel, maybe with a choice made (a card's "answer all of this subagent").
   * @param {{ subagentId?: string, threadId?: string }} [select]
   */
  open(select = {}) {
    this.element.hidden = false;
    this.render();
    if (select.subagentId !== undefined) {
      this.subagentSelect.value = select.subagentId;
      this.#pick('subagent');
      void this.#loadPreview();
    } else if (select.threadId !== undefined) {
      this.threadSelect.value = select.threadId;
      this.#pick('thread');
      void this.#loadPreview();
    }
    this.element.scrollIntoView({ block: 'nearest' });
  }

  close() {
    this.element.hidden = true;
    this.#preview = null;
    replace(this.result);
    this.#drawPreview();
  }

  get isOpen() {
    return !this.element.hidden;
  }

  /** Refreshes the choices (threads and subagents with pending approvals) and marks settled previews. */
  render() {
    if (this.element.hidden) return;
    const pending = this.state.pending();
    fillSelect(
      this.threadSelect,
      groupBy(pending, (a) => a.threadId).map(([threadId, items]) => [
        threadId,
        `${this.#threadName(threadId, items[0])} (${items.length} waiting)`,
      ]),
    );
    fillSelect(
      this.subagentSelect,
      groupBy(
        pending.filter((a) => a.subagentId !== null),
        (a) => /** @type {string} */ (a.subagentId),
      ).map(([subagentId, items]) => [
        subagentId,
        `${this.#subagentName(subagentId, items[0])} (${items.length} waiting)`,
      ]),
    );
    const preview = this.#preview;
    if (preview !== null)
      for (const item of preview.element.querySelectorAll('li[data-approval-id]')) {
        const id = item.getAttribute('data-approval-id') ?? '';
        const status = this.state.approvals.get(id)?.status ?? 'pending';
        if (status !== 'pending' && !item.classList.contains('settled')) {
          item.classList.add('settled');
          item.append(h('span', { class: 'muted' }, ` — ${status} meanwhile`));
        }
      }
  }

  /** @param {SelectKind} kind */
  #pick(kind) {
    const input = this.kindInputs.get(kind);
    if (input !== undefined) input.checked = true;
    this.#changed();
  }

  /** Any change of the choice drops the preview: the answer only ever goes to what was previewed. */
  #changed() {
    this.reasonRow.hidden = !this.denyInput.checked;
    this.#preview = null;
    replace(this.result);
    this.#drawPreview();
  }

  /** @returns {import('./api.js').BatchSelect | null} */
  #selection() {
    const kind = [...this.kindInputs].find(([, input]) => input.checked)?.[0];
    if (kind === 'thread' && this.threadSelect.value !== '') return { threadId: this.threadSelect.value };
    if (kind === 'subagent' && this.subagentSelect.value !== '')
      return { subagentId: this.subagentSelect.value };
    if (kind === 'rule' && this.ruleInput.value.trim() !== '') return { rule: this.ruleInput.value.trim() };
    return null;
  }

  async #loadPreview() {
    const select = this.#selection();
    replace(this.result);
    if (select === null) {
      replace(this.result, h('p', { class: 'batch-error' }, 'Choose a thread, a subagent or a rule first.'));
      return;
    }
    const behavior = this.denyInput.checked ? 'deny' : 'allow';
    try {
      const { approvals, leftOut } = await api.previewBatch(select, behavior);
      // The choice may have changed while the preview was on its way.
      if (JSON.stringify(this.#selection()) !== JSON.stringify(select)) return;
      for (const approval of approvals) this.state.addApproval(approval);
      this.#preview = { approvals, leftOut, behavior, element: h('div') };
      this.#drawPreview();
    } catch (error) {
      replace(
        this.result,
        h(
          'p',
          { class: 'batch-error' },
          `No preview: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    }
  }

  #drawPreview() {
    const preview = this.#preview;
    if (preview === null) {
      replace(this.previewBox);
      return;
    }
    const { approvals, behavior } = preview;
    const leftOut = this.#leftOut(preview.leftOut);
    if (approvals.length === 0) {
      preview.element = h('p', { class: 'batch-none' }, 'No pending approval matches.');
      replace(this.previewBox, preview.element, leftOut);
      return;
    }
    const count = approvals.length;
    const reason = this.reason.value.trim();
    const verb = behavior === 'allow' ? 'Approve' : 'Deny';
    // A new element each time: what it lists or says changed, so it must be seen again before it counts.
    preview.element = h(
      'div',
      { class: 'batch-preview', 'data-answers-batch': 'true' },
      h(
        'p',
        { class: 'batch-count' },
        `${verb} ${count === 1 ? 'this approval' : `these ${count} approvals`}, and nothing else:`,
      ),
      h(
        'ul',
        { class: 'batch-items', 'aria-label': 'Approvals the answer covers' },
        approvals.map((approval) => this.#item(approval)),
      ),
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          {
            type: 'button',
            class: behavior === 'allow' ? 'primary batch-apply' : 'danger batch-apply',
            onclick: (/** @type {Event} */ event) => {
              // The second click of a double-click is not an answer (as on the cards).
              if (event instanceof MouseEvent && event.detail > 1) return;
              void this.#apply(preview, reason);
            },
          },
          `${verb} all ${count}`,
        ),
        behavior === 'deny' && reason !== ''
          ? h('span', { class: 'muted' }, 'Each agent reads: ', h('q', {}, visibleText(reason)))
          : null,
      ),
    );
    replace(this.previewBox, preview.element, leftOut);
    arming.watch(preview.element);
  }

  /**
   * The approvals an allow leaves out, each with the policy's reason: a protected write is allowed on its
   * own card, where what it writes is shown, never in bulk.
   * @param {BatchLeftOut[]} leftOut
   */
  #leftOut(leftOut) {
    if (leftOut.length === 0) return null;
    return h(
      'div',
      { class: 'batch-left-out' },
      h(
        'p',
        {},
        `Left out: ${leftOut.length === 1 ? 'one protected write' : `${leftOut.length} protected writes`}, to allow one by one on their cards`,
      ),
      h(
        'ul',
        { 'aria-label': 'Approvals the answer leaves out' },
        leftOut.map((left) => {
          const approval = this.state.approvals.get(left.id);
          return h(
            'li',
            { 'data-approval-id': left.id },
            h('span', { class: 'tool' }, visibleText(left.toolName)),
            ' ',
            approval === undefined ? '' : titleLine(approval.toolName, approval.input),
            h('span', { class: 'muted' }, ` (${visibleText(left.reason)})`),
          );
        }),
      ),
    );
  }

  /** @param {ApprovalRecord} approval */
  #item(approval) {
    const item = /** @type {ApprovalItem} */ (this.state.approvals.get(approval.id) ?? approval);
    return h(
      'li',
      { 'data-approval-id': approval.id },
      h('span', { class: 'tool' }, visibleText(approval.toolName)),
      ' ',
      titleLine(approval.toolName, approval.input),
      h(
        'span',
        { class: 'muted batch-from' },
        ` · ${this.#threadName(approval.threadId, item)}`,
        approval.subagentId === null
          ? ''
          : [' · subagent ', h('q', {}, visibleText(this.#subagentName(approval.subagentId, item)))],
      ),
    );
  }

  /**
   * @param {{ approvals: ApprovalRecord[], behavior: 'allow' | 'deny', element: HTMLElement }} preview
   * @param {string} reason
   */
  async #apply(preview, reason) {
    if (this.#sending || preview !== this.#preview) return;
    if (!arming.allows(preview.element)) {
      toast(
        'Not sent: the preview had only just appeared or changed. Look at it, then answer again.',
        'warn',
      );
      return;
    }
    const ids = preview.approvals.map((a) => a.id);
    this.#sending = true;
    for (const id of ids) this.state.deciding.add(id);
    this.state.changed();
    try {
      const { decided, alreadySettled } = await api.decideBatch({
        approvalIds: ids,
        behavior: preview.behavior,
        ...(preview.behavior === 'deny' && reason !== '' ? { message: reason } : {}),
      });
      for (const approval of decided) this.state.addApproval(approval);
      this.#preview = null;
      this.#drawPreview();
      replace(this.result, this.#outcome(preview, decided, alreadySettled));
    } catch (error) {
      for (const id of ids) this.state.deciding.delete(id);
      replace(
        this.result,
        h(
          'p',
          { class: 'batch-error' },
          `Not answered: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    } finally {
      this.#sending = false;
      this.state.changed();
    }
  }

  /**
   * @param {{ approvals: ApprovalRecord[], behavior: 'allow' | 'deny' }} preview
   * @param {ApprovalRecord[]} decided
   * @param {{ id: string, status: string }[]} alreadySettled
   */
  #outcome(preview, decided, alreadySettled) {
    const byId = new Map(preview.approvals.map((a) => [a.id, a]));
    const done = preview.behavior === 'allow' ? 'Approved' : 'Denied';
    return [
      h('p', { class: 'batch-done' }, `${done} ${decided.length} of ${preview.approvals.length}.`),
      alreadySettled.length > 0
        ? [
            h('p', {}, 'Already settled elsewhere, so not answered again:'),
            h(
              'ul',
              { class: 'batch-settled' },
              alreadySettled.map(({ id, status }) => {
                const approval = byId.get(id);
                return h(
                  'li',
                  { 'data-approval-id': id },
                  approval === undefined
                    ? id
                    : [
                        h('span', { class: 'tool' }, visibleText(approval.toolName)),
                        ' ',
                        titleLine(approval.toolName, approval.input),
                      ],
                  ` — ${status}`,
                );
              }),
            ),
          ]
        : null,
    ];
  }

  /**
   * @param {string} threadId
   * @param {ApprovalItem | undefined} approval
   */
  #threadName(threadId, approval) {
    const thread = this.state.threads.get(threadId);
    return visibleText(
      thread?.title ?? approval?.threadTitle ?? folderName(thread?.cwd ?? approval?.cwd ?? threadId),
    );
  }

  /**
   * @param {string} subagentId
   * @param {ApprovalItem | undefined} approval
   */
  #subagentName(subagentId, approval) {
    return this.state.subagents.get(subagentId)?.description ?? approval?.subagentDescription ?? subagentId;
  }
}

/**
 * @template T
 * @param {T[]} items
 * @param {(item: T) => string} key
 * @returns {[string, T[]][]}
 */
function groupBy(items, key) {
  /** @type {Map<string, T[]>} */
  const groups = new Map();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return [...groups];
}

/**
 * Sets a select's options, keeping the chosen one when it is still there.
 * @param {HTMLSelectElement} select
 * @param {[string, string][]} options value and label
 */
function fillSelect(select, options) {
  const chosen = select.value;
  const same =
    select.options.length === options.length &&
    options.every(
      ([value, label], i) => select.options[i]?.value === value && select.options[i]?.text === label,
    );
  if (same) return;
  replace(
    select,
    options.map(([value, label]) => h('option', { value }, label)),
  );
  if (options.some(([value]) => value === chosen)) select.value = chosen;
}
