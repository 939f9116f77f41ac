// @ts-check
// The inbox: every pending approval across threads, the one waiting longest first. Cards are kept by
// approval id between renders, so a deny message being typed survives the live updates around it;
// only the parts that change (run and subagent state) are redrawn.

import { refreshAnswerable } from './answerable-by.js';
import { answer, offerAnswers } from './approval-actions.js';
import { approvalBody, approvalKind } from './approval-body.js';
import { BatchPanel } from './batch-panel.js';
import { h, replace } from './dom.js';
import { folderName, runStateLabel, triggerLabel } from './format.js';
import { unreachableSince } from './host-status.js';
import { summary, titleLine } from './preview.js';
import { forgetDraft } from './scope-picker.js';
import { toast } from './toast.js';
import { allowsIn } from './two-person.js';
import { visibleText } from './visible-text.js';

/** @import { State } from './state.js' */
/** @import { ApprovalItem, Decision } from './types.js' */

export class InboxView {
  /** @type {Map<string, { card: HTMLElement, context: HTMLElement, allows: number }>} */ #cards = new Map();
  /** @type {string | undefined} */ selectedId;

  /**
   * @param {HTMLElement} root
   * @param {State} state
   * @param {(threadId: string) => void} needThread asks for a thread the page has not loaded yet
   */
  constructor(root, state, needThread) {
    this.root = root;
    this.state = state;
    this.needThread = needThread;
    this.list = h('ul', { class: 'approvals', 'aria-label': 'Pending approvals' });
    this.empty = h(
      'p',
      { class: 'empty' },
      'Nothing is waiting for you. Approvals from every thread appear here, also after their turn has ended.',
    );
    this.heading = h('h1', { id: 'inbox-heading' }, 'Inbox');
    this.batch = new BatchPanel(state);
    this.batchButton = h(
      'button',
      {
        type: 'button',
        class: 'link batch-open',
        'aria-expanded': 'false',
        onclick: () => {
          if (this.batch.isOpen) this.batch.close();
          else this.batch.open();
          this.render();
        },
      },
      'Answer several…',
    );
    root.append(
      h(
        'section',
        { 'aria-labelledby': 'inbox-heading', class: 'inbox' },
        h(
          'div',
          { class: 'view-head' },
          this.heading,
          h('p', { class: 'muted hint' }, 'j/k to move · a approve · A always · d deny · ? help'),
          this.batchButton,
        ),
        this.batch.element,
        this.empty,
        this.list,
      ),
    );
  }

  render() {
    const pending = this.state.pending();
    const ids = new Set(pending.map((a) => a.id));
    for (const [id, { card }] of this.#cards)
      if (!ids.has(id)) {
        card.remove();
        this.#cards.delete(id);
        this.#settledNote(id);
      }
    if (this.selectedId !== undefined && !ids.has(this.selectedId)) this.selectedId = undefined;
    this.selectedId ??= pending[0]?.id;
    /** @type {Element | null} */
    let previous = null;
    for (const approval of pending) {
      let entry = this.#cards.get(approval.id);
      if (entry !== undefined && entry.allows !== allowsIn(approval)) {
        // A two-person approval's first allow came in: the card is drawn anew (1 of 2, by whom), and is
        // seen again before it takes an answer.
        const fresh = this.#card(approval);
        entry.card.replaceWith(fresh.card);
        entry = fresh;
        this.#cards.set(approval.id, entry);
      }
      if (entry === undefined) {
        entry = this.#card(approval);
        this.#cards.set(approval.id, entry);
      }
      replace(entry.context, this.#context(approval));
      refreshAnswerable(entry.card, approval, this.state.me);
      entry.card.classList.toggle('selected', approval.id === this.selectedId);
      entry.card.setAttribute('aria-current', approval.id === this.selectedId ? 'true' : 'false');
      // Keep DOM order equal to the list order without moving cards that are already in place.
      /** @type {Element | null} */
      const expected = previous === null ? this.list.firstElementChild : previous.nextElementSibling;
      if (expected !== entry.card) this.list.insertBefore(entry.card, expected);
      previous = entry.card;
    }
    this.empty.hidden = pending.length > 0;
    this.heading.textContent = pending.length > 0 ? `Inbox (${pending.length})` : 'Inbox';
    this.batchButton.hidden = pending.length === 0 && !this.batch.isOpen;
    this.batchButton.setAttribute('aria-expanded', String(this.batch.isOpen));
    this.batch.render();
  }

  /**
   * A card left the inbox. One its deadline answered says so: the person may have been reading it.
   * @param {string} approvalId
   */
  #settledNote(approvalId) {
    const approval = this.state.approvals.get(approvalId);
    if (approval === undefined || approval.status === 'pending') return;
    forgetDraft(approvalId);
    if (approval.decision?.by !== 'timeout') return;
    const what = summary(approval.toolName, approval.input).split('\n')[0]?.slice(0, 80) ?? '';
    toast(
      `${approval.status === 'denied' ? 'Denied' : 'Allowed'} by the deadline: ${approval.toolName}${what ? ` ${what}` : ''}`,
      'warn',
    );
  }

  /**
   * Moves the selection by `delta` cards and brings the card into view.
   * @param {number} delta
   */
  move(delta) {
    const pending = this.state.pending();
    if (pending.length === 0) return;
    const index = pending.findIndex((a) => a.id === this.selectedId);
    const next = pending[Math.min(pending.length - 1, Math.max(0, index + delta))];
    this.selectedId = next?.id;
    this.render();
    const card = next === undefined ? undefined : this.#cards.get(next.id)?.card;
    card?.focus();
    card?.scrollIntoView({ block: 'nearest' });
  }

  /** @returns {ApprovalItem | undefined} */
  selected() {
    return this.selectedId === undefined ? undefined : this.state.approvals.get(this.selectedId);
  }

  /** The selected card's element, for shortcuts that reach into it. */
  selectedCard() {
    return this.selectedId === undefined ? undefined : this.#cards.get(this.selectedId)?.card;
  }

  /**
   * Answers from the keyboard. `approvalId` is the card that was selected when the key went down; the
   * answer is sent only if that card is still the selected one and has been seen (see arming.js).
   * @param {string} approvalId
   * @param {Decision} decision
   */
  answerSelected(approvalId, decision) {
    const card = this.#cards.get(approvalId)?.card;
    if (card === undefined || this.selectedId !== approvalId) return false;
    if (decision.behavior === 'allow_always' && card.querySelector('button.always') === null) return false;
    // Questions are answered through their form: a bare allow would answer nothing.
    if (decision.behavior === 'allow' && card.querySelector('button.approve') === null) return false;
    return answer(this.state, approvalId, card, decision);
  }

  /** @param {ApprovalItem} approval */
  #card(approval) {
    const context = h('p', { class: 'context' });
    const titleId = `approval-title-${approval.id}`;
    const card = h(
      'li',
      {
        class: `approval card ${approvalKind(approval)}-approval`,
        tabindex: '-1',
        'data-approval-id': approval.id,
        'aria-labelledby': titleId,
        onfocusin: () => {
          if (this.selectedId === approval.id) return;
          this.selectedId = approval.id;
          this.render();
        },
      },
      h(
        'div',
        { class: 'card-head' },
        // The tool and what it acts on — never the agent's own description of the call.
        h(
          'h2',
          { id: titleId, class: 'title' },
          h('span', { class: 'tool' }, visibleText(approval.toolName)),
          titleLine(approval.toolName, approval.input),
        ),
        h(
          'span',
          { class: 'waited' },
          'waiting ',
          h('time', { 'data-since': approval.createdAt, datetime: approval.createdAt }, ''),
        ),
      ),
      context,
      approval.decisionReason
        ? h('p', { class: 'muted reason' }, `Why the CLI asks: ${approval.decisionReason}`)
        : null,
      approval.blockedPath
        ? h('p', { class: 'muted reason' }, 'Path in question: ', h('code', {}, approval.blockedPath))
        : null,
      approvalBody(this.state, approval, { shortcuts: true }),
    );
    return { card: offerAnswers(card, approval.id), context, allows: allowsIn(approval) };
  }

  /**
   * Where the request comes from: the thread, the run (and whether its turn already ended), the subagent.
   * @param {ApprovalItem} approval
   */
  #context(approval) {
    const thread = this.state.threads.get(approval.threadId);
    const run = this.state.runs.get(approval.runId);
    // Run numbers and subagent names need the thread's whole record set, not just what arrived live.
    this.needThread(approval.threadId);
    const subagent = approval.subagentId === null ? undefined : this.state.subagents.get(approval.subagentId);
    const finished = run !== undefined && run.status !== 'running' && run.status !== 'queued';
    const host = this.state.hostOf(approval.threadId, approval.host);
    return [
      host !== undefined && !host.reachable
        ? h(
            'strong',
            { class: 'host-unreachable' },
            'Host ',
            visibleText(host.name),
            ` unreachable ${unreachableSince(host)}: a decision waits until it is back. `,
          )
        : null,
      'from thread ',
      h(
        'a',
        {
          // To the call itself: the thread opens scrolled to it, marked.
          href: `#/threads/${encodeURIComponent(approval.threadId)}?call=${encodeURIComponent(approval.toolUseId)}`,
          class: 'thread-link',
          title: thread?.cwd ?? approval.cwd ?? '',
        },
        visibleText(
          thread?.title ?? approval.threadTitle ?? folderName(thread?.cwd ?? approval.cwd ?? 'thread'),
        ),
      ),
      thread?.agent === 'codex' ? ' (Codex)' : null,
      ' · ',
      run ? `Run ${this.state.runsOf(run.threadId).indexOf(run) + 1}, ${triggerLabel(run.trigger)} · ` : null,
      h('span', { class: `run-state ${run?.status ?? 'unknown'}` }, runStateLabel(run)),
      approval.subagentId !== null
        ? [
            ' · ',
            h(
              'span',
              { class: 'subagent-tag' },
              'subagent: ',
              // Its name is the agent's own words: quoted, with anything invisible shown.
              h(
                'q',
                {},
                visibleText(subagent?.description ?? approval.subagentDescription ?? approval.subagentId),
              ),
              subagent && subagent.status !== 'running' ? ` (${subagent.status})` : '',
            ),
            ' ',
            h(
              'button',
              {
                type: 'button',
                class: 'link batch-subagent',
                onclick: () => {
                  this.batch.open({ subagentId: /** @type {string} */ (approval.subagentId) });
                  this.render();
                },
              },
              'answer all of this subagent’s…',
            ),
          ]
        : null,
      finished && approval.subagentId !== null
        ? h(
            'span',
            { class: 'after-run' },
            'The turn that started it ended',
            run.endedAt
              ? [' ', h('time', { 'data-since': run.endedAt, datetime: run.endedAt }, ''), ' ago']
              : '',
            '; its background subagent is still waiting for you.',
          )
        : null,
    ];
  }
}
