// @ts-check
// On a pending approval's card, once the same kind of request has been approved often enough in its
// thread: the narrowest rule that covers those approvals and nothing the thread's history shows denied,
// with what it would have done in the thread so far (GET /api/approvals/:id/suggestion, worked out by the
// server from the log). Save rule adds it to the thread (POST /api/threads/:id/rules); this request still
// waits for its answer. Asked once per approval for the page's life: a card drawn again does not ask again.

import * as api from './api.js';
import { h, replace } from './dom.js';
import { toast } from './toast.js';
import { visibleText } from './visible-text.js';

/** @import { State } from './state.js' */
/** @import { ApprovalRecord } from './types.js' */

/** @type {Map<string, Promise<Awaited<ReturnType<typeof api.ruleSuggestion>>>>} */
const suggestions = new Map();
/** Approvals whose suggestion was saved, by id: the rule saved. @type {Map<string, string>} */
const saved = new Map();

/**
 * The suggestion's block for the card: hidden until (and unless) the server offers one.
 * @param {State} state
 * @param {ApprovalRecord} approval
 * @returns {HTMLElement}
 */
export function ruleSuggestion(state, approval) {
  const block = h('div', { class: 'rule-suggestion', hidden: '' });
  let answer = suggestions.get(approval.id);
  if (answer === undefined) {
    answer = api.ruleSuggestion(approval.id).catch(() => null);
    suggestions.set(approval.id, answer);
  }
  void answer.then((suggestion) => {
    if (suggestion === null) return;
    const { rule, approvals, simulation } = suggestion;
    const done = saved.get(approval.id);
    const save = h('button', { type: 'button', class: 'save-suggestion' }, 'Save rule');
    save.addEventListener('click', () => void add(state, approval, rule, block));
    replace(
      block,
      h(
        'p',
        { class: 'suggested-rule' },
        `Approved ${approvals} times in this thread: `,
        h('code', {}, visibleText(rule)),
        ' covers them, and nothing denied here.',
      ),
      h('p', { class: 'suggested-simulation muted' }, simulation.text),
      done === undefined ? save : savedNote(done),
    );
    block.hidden = false;
  });
  return block;
}

/**
 * @param {State} state
 * @param {ApprovalRecord} approval
 * @param {string} rule
 * @param {HTMLElement} block
 */
async function add(state, approval, rule, block) {
  const button = block.querySelector('button.save-suggestion');
  if (button instanceof HTMLButtonElement) button.disabled = true;
  try {
    state.addThread(await api.grantRules(approval.threadId, [rule]));
    saved.set(approval.id, rule);
    button?.replaceWith(savedNote(rule));
    toast(`Allowed in this thread: ${rule}`);
  } catch (error) {
    if (button instanceof HTMLButtonElement) button.disabled = false;
    toast(`Not saved: ${error instanceof Error ? error.message : String(error)}`, 'error');
  }
}

/** @param {string} rule */
function savedNote(rule) {
  return h(
    'p',
    { class: 'suggestion-saved' },
    'Saved: this thread now allows ',
    h('code', {}, visibleText(rule)),
    '. This request still waits for your answer.',
  );
}
