// @ts-check
// What a thread allows or answers by itself, in the thread view's side panel: the rules granted with
// "always allow" (their scope, when, and the approval they came from), with Remove for the thread's and
// the CLI session's (a project rule is in the project's settings file, which the CLI wrote: Warden cannot
// take it back, and says where it is); and the thread's deadline, "if unanswered after N minutes, deny",
// which can be changed or removed (approvals already waiting keep theirs). A rule can be added here too:
// while it is typed, what it would have done in the thread so far is shown (the server's simulation of
// the thread's history), before Save.

import * as api from './api.js';
import { deadlineField, waitWords } from './deadline-input.js';
import { h, replace } from './dom.js';
import { clock } from './format.js';
import { titleLine } from './preview.js';
import { projectFile } from './scope-picker.js';
import { showSimulation } from './simulation-line.js';
import { toast } from './toast.js';
import { visibleText } from './visible-text.js';

/** @import { State } from './state.js' */
/** @import { GrantedRule, ThreadRecord } from './types.js' */

export class ThreadPolicyView {
  #drawn = '';

  /**
   * @param {State} state
   * @param {string} threadId
   */
  constructor(state, threadId) {
    this.state = state;
    this.threadId = threadId;
    this.rules = h('div', { class: 'granted-rules' });
    this.newRule = h('input', {
      type: 'text',
      id: 'new-rule',
      class: 'new-rule',
      placeholder: 'Bash(npm test:*)',
      autocomplete: 'off',
      spellcheck: 'false',
      oninput: () => this.#simulate(),
    });
    this.newRuleSimulated = h('p', { class: 'new-rule-simulated muted', hidden: '', 'aria-live': 'polite' });
    this.addButton = h('button', { type: 'submit', class: 'primary' }, 'Save rule');
    this.deadlineNow = h('p', { class: 'muted deadline-now' });
    this.field = deadlineField('thread-deadline', 'If unanswered after');
    this.saveButton = h('button', { type: 'submit', class: 'primary' }, 'Save deadline');
    this.clearButton = h(
      'button',
      { type: 'button', class: 'clear-deadline', onclick: () => void this.#save(null) },
      'No deadline',
    );
    this.element = h(
      'div',
      { class: 'thread-policy' },
      h('h2', { id: 'rules-heading' }, 'Always-allowed rules'),
      this.rules,
      h(
        'form',
        {
          class: 'add-rule',
          onsubmit: (/** @type {Event} */ event) => {
            event.preventDefault();
            void this.#add();
          },
        },
        h('label', { for: 'new-rule' }, 'Allow in this thread'),
        h('div', { class: 'buttons' }, this.newRule, this.addButton),
        this.newRuleSimulated,
      ),
      h('h2', { id: 'deadline-heading' }, 'Deadline'),
      this.deadlineNow,
      h(
        'form',
        {
          class: 'thread-deadline',
          'aria-labelledby': 'deadline-heading',
          onsubmit: (/** @type {Event} */ event) => {
            event.preventDefault();
            const value = this.field.value();
            if (value instanceof Error) return toast(`Not saved: ${value.message}`, 'error');
            void this.#save(value);
          },
        },
        this.field.element,
        h('div', { class: 'buttons' }, this.saveButton, this.clearButton),
        h('p', { class: 'muted note' }, 'Approvals already waiting keep the deadline they were given.'),
      ),
    );
  }

  render() {
    const thread = this.state.threads.get(this.threadId);
    if (thread === undefined) return;
    // Redrawn only when what it shows changed, so a click on Remove is never lost to a live update.
    const known = (thread.grants ?? []).map(
      (g) => g.approvalId !== null && this.state.approvals.has(g.approvalId),
    );
    const drawn = JSON.stringify([thread.grants, thread.deadlines, thread.sessionId, thread.cwd, known]);
    if (drawn === this.#drawn) return;
    const first = this.#drawn === '';
    this.#drawn = drawn;
    const grants = thread.grants ?? [];
    replace(
      this.rules,
      grants.length === 0
        ? h('p', { class: 'muted' }, 'None. “Always allow” on an approval adds them here.')
        : h(
            'ul',
            { class: 'rule-list' },
            grants.map((grant) => this.#grant(thread, grant)),
          ),
    );
    const deadlines = thread.deadlines ?? { afterMs: null, rules: [] };
    replace(
      this.deadlineNow,
      deadlines.afterMs === null
        ? 'No deadline: approvals wait as long as it takes.'
        : `Approvals unanswered after ${waitWords(deadlines.afterMs)} are denied.`,
      deadlines.rules.map((entry) =>
        h(
          'span',
          { class: 'deadline-rule' },
          ' ',
          h('code', {}, visibleText(entry.rule)),
          `: ${entry.behavior === 'allow' ? 'allowed' : 'denied'} after ${waitWords(entry.afterMs)}.`,
        ),
      ),
    );
    this.clearButton.hidden = deadlines.afterMs === null;
    if (first) this.field.set(deadlines.afterMs);
  }

  /**
   * @param {ThreadRecord} thread
   * @param {GrantedRule} grant
   */
  #grant(thread, grant) {
    const approval = grant.approvalId === null ? undefined : this.state.approvals.get(grant.approvalId);
    const inForce = grant.scope !== 'session' || grant.sessionId === (thread.sessionId ?? null);
    return h(
      'li',
      { class: `granted ${grant.scope}${inForce ? '' : ' lapsed'}`, 'data-rule': grant.rule },
      h('code', { class: 'rule' }, visibleText(grant.rule)),
      h(
        'span',
        { class: 'grant-scope' },
        grant.scope === 'session'
          ? inForce
            ? ' · this CLI session'
            : ' · an earlier CLI session (no longer applies)'
          : grant.scope === 'thread'
            ? ' · this thread, until removed'
            : [
                ' · this project: in ',
                h('code', {}, visibleText(projectFile(thread.cwd))),
                ', written by the CLI; Warden cannot remove it (edit that file)',
              ],
      ),
      h(
        'span',
        { class: 'muted grant-when' },
        ' · granted ',
        h('time', { datetime: grant.grantedAt }, clock(grant.grantedAt)),
        approval === undefined
          ? null
          : [
              ' from ',
              h(
                'a',
                {
                  href: `#/threads/${encodeURIComponent(this.threadId)}?call=${encodeURIComponent(approval.toolUseId)}`,
                  class: 'grant-source',
                },
                visibleText(approval.toolName),
                ' ',
                titleLine(approval.toolName, approval.input),
              ),
            ],
      ),
      grant.scope === 'project'
        ? null
        : h(
            'button',
            {
              type: 'button',
              class: 'remove-grant',
              'aria-label': `Remove ${grant.rule} (${grant.scope === 'thread' ? 'this thread' : 'CLI session'})`,
              onclick: (/** @type {Event} */ event) =>
                void this.#remove(grant, /** @type {HTMLButtonElement} */ (event.currentTarget)),
            },
            'Remove',
          ),
    );
  }

  /** The rule typed: its simulation line once the typing pauses. */
  #simulate() {
    const rule = this.newRule.value.trim();
    showSimulation(this.newRuleSimulated, this.threadId, rule === '' ? [] : [rule], { typed: true });
  }

  async #add() {
    const rule = this.newRule.value.trim();
    if (rule === '') return;
    this.addButton.disabled = true;
    try {
      this.state.addThread(await api.grantRules(this.threadId, [rule]));
      this.newRule.value = '';
      this.#simulate();
      toast(`Allowed in this thread: ${rule}`);
    } catch (error) {
      toast(`Not saved: ${error instanceof Error ? error.message : String(error)}`, 'error');
    } finally {
      this.addButton.disabled = false;
    }
  }

  /**
   * @param {GrantedRule} grant
   * @param {HTMLButtonElement} button
   */
  async #remove(grant, button) {
    if (grant.scope === 'project') return;
    button.disabled = true;
    try {
      this.state.addThread(await api.revokeRule(this.threadId, grant.rule, grant.scope));
      toast(`Removed: ${grant.rule}`);
    } catch (error) {
      button.disabled = false;
      toast(`Could not remove it: ${error instanceof Error ? error.message : String(error)}`, 'error');
    }
  }

  /** @param {number | null} afterMs */
  async #save(afterMs) {
    const rules = this.state.threads.get(this.threadId)?.deadlines?.rules ?? [];
    this.saveButton.disabled = true;
    try {
      // The deadline rules are kept as they are: this form changes only the thread's default.
      this.state.addThread(await api.setDeadlines(this.threadId, { afterMs, rules }));
      if (afterMs === null) this.field.set(null);
      toast(afterMs === null ? 'Deadline removed' : `Deadline: deny after ${waitWords(afterMs)}`);
    } catch (error) {
      toast(`Could not set the deadline: ${error instanceof Error ? error.message : String(error)}`, 'error');
    } finally {
      this.saveButton.disabled = false;
    }
  }
}
