// @ts-check
// The answers to an approval, as real buttons and forms: approve once, always allow (with the exact rules
// that adds and how long they hold, which the person may narrow: scope-picker.js), and deny — or deny and stop the turn — with an optional message
// the model will read. Every answer names its approval and goes through answer(), which sends it only when the element
// that shows the approval (marked data-answers-for) has been on screen and in place for a moment.

import { arming } from './arming.js';
import { decideApproval } from './decide.js';
import { h } from './dom.js';
import { ruleSuggestion } from './rule-suggestion.js';
import { alwaysDecision, alwaysRefused, offeredRules, scopePicker } from './scope-picker.js';
import { toast } from './toast.js';
import { approveLabel } from './two-person.js';

/** @import { State } from './state.js' */
/** @import { ApprovalRecord, Decision } from './types.js' */

/**
 * Makes `holder` the element that shows approval `approvalId` and takes its answers.
 * @param {HTMLElement} holder
 * @param {string} approvalId
 */
export function offerAnswers(holder, approvalId) {
  holder.dataset.answersFor = approvalId;
  arming.watch(holder);
  return holder;
}

/**
 * Sends `decision` for `approvalId`, given through `from` (a control inside the element showing it), if it
 * counts: the element must show that very approval and have been seen (see arming.js). An always-allow
 * sends the rules and scope the card shows at that moment (scope-picker.js), whatever the caller passed.
 * @param {State} state
 * @param {string} approvalId
 * @param {Element} from
 * @param {Decision} decision
 * @returns {boolean} whether it was sent
 */
export function answer(state, approvalId, from, decision) {
  const holder = from.closest('[data-answers-for]');
  if (!(holder instanceof HTMLElement) || holder.dataset.answersFor !== approvalId) return false;
  if (!arming.allows(holder)) {
    toast('Not sent: this approval had only just appeared or moved. Look at it, then answer again.', 'warn');
    return false;
  }
  if (decision.behavior !== 'allow_always') {
    void decideApproval(state, approvalId, decision);
    return true;
  }
  const approval = state.approvals.get(approvalId);
  const always = approval === undefined ? null : alwaysDecision(approval);
  if (always === null) return false;
  void decideApproval(state, approvalId, always, {
    onFailed: (error) => alwaysRefused(approvalId, error.message),
  });
  return true;
}

/**
 * The rules "Always allow" offers, as the server says; none means the button is not offered.
 * @param {ApprovalRecord} approval
 * @returns {string[]}
 */
export function alwaysAllowRules(approval) {
  return offeredRules(approval);
}

/**
 * The deny form: an optional message the model reads, and two ways to send it — deny (the agent goes on
 * without the call) or deny and stop the turn (as Escape would; the agent does nothing more until the
 * next message).
 * @param {State} state
 * @param {ApprovalRecord} approval
 * @param {{ shortcuts: boolean, label?: string, button?: string, placeholder?: string }} options
 */
export function denyForm(state, approval, { shortcuts, label, button, placeholder }) {
  const id = `deny-${approval.id}`;
  const message = h('input', {
    id,
    name: 'message',
    class: 'deny-message',
    type: 'text',
    autocomplete: 'off',
    placeholder: placeholder ?? 'e.g. not outside the project',
  });
  const kbd = (/** @type {string} */ key) => (shortcuts ? h('kbd', { 'aria-hidden': 'true' }, key) : null);
  return h(
    'form',
    {
      class: 'deny',
      'data-approval-id': approval.id,
      onsubmit: (/** @type {Event} */ event) => {
        event.preventDefault();
        const text = /** @type {HTMLInputElement} */ (message).value.trim();
        const submitter = event instanceof SubmitEvent ? event.submitter : null;
        const stop = submitter instanceof HTMLElement && submitter.dataset.stop === 'true';
        answer(state, approval.id, /** @type {Element} */ (event.currentTarget), {
          behavior: 'deny',
          ...(text ? { message: text } : {}),
          ...(stop ? { interrupt: true } : {}),
        });
      },
    },
    h('label', { for: id }, label ?? 'Reason for denying (the agent reads it)'),
    h(
      'div',
      { class: 'deny-row' },
      message,
      h(
        'button',
        { type: 'submit', class: 'danger', 'data-approval-id': approval.id },
        `${button ?? 'Deny'} `,
        kbd('d'),
      ),
      h(
        'button',
        {
          type: 'submit',
          class: 'danger stop',
          'data-approval-id': approval.id,
          'data-stop': 'true',
          title: 'Deny, and stop the agent’s turn: it does nothing more until your next message',
        },
        'Deny and stop turn',
      ),
    ),
  );
}

/**
 * @param {State} state
 * @param {ApprovalRecord} approval
 * @param {{ shortcuts: boolean }} options whether to show the keyboard hints (the inbox has shortcuts)
 */
export function approvalActions(state, approval, { shortcuts }) {
  const kbd = (/** @type {string} */ key) => (shortcuts ? h('kbd', { 'aria-hidden': 'true' }, key) : null);
  /**
   * A click answers only as a single click: the second click of a double-click lands on whatever slid
   * under the pointer after the first one answered.
   * @param {Decision} decision
   * @returns {(event: Event) => void}
   */
  const onClick = (decision) => (event) => {
    const button = /** @type {HTMLElement} */ (event.currentTarget);
    if (event instanceof MouseEvent && event.detail > 1) return;
    if (button.dataset.approvalId === approval.id) answer(state, approval.id, button, decision);
  };
  const rules = alwaysAllowRules(approval);
  const rulesId = `always-rules-${approval.id}`;
  return h(
    'div',
    { class: 'actions' },
    h(
      'div',
      { class: 'allow-row' },
      h(
        'button',
        {
          type: 'button',
          class: 'primary approve',
          'data-approval-id': approval.id,
          onclick: onClick({ behavior: 'allow' }),
        },
        approveLabel(approval),
        kbd('a'),
      ),
      rules.length > 0
        ? h(
            'button',
            {
              type: 'button',
              class: 'always',
              'data-approval-id': approval.id,
              'aria-describedby': rulesId,
              onclick: onClick({ behavior: 'allow_always' }),
            },
            'Always allow ',
            kbd('A'),
          )
        : null,
    ),
    rules.length > 0 ? scopePicker(state, approval, rulesId) : null,
    ruleSuggestion(state, approval),
    denyForm(state, approval, { shortcuts }),
  );
}
