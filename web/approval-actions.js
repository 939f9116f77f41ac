// @ts-check
// The three answers to an approval, as real buttons and a form: approve once, always allow (the CLI
// remembers the rule for the session), and deny with an optional message the model will read.

import { decideApproval } from './decide.js';
import { h } from './dom.js';

/** @import { State } from './state.js' */
/** @import { ApprovalRecord } from './types.js' */

/**
 * @param {State} state
 * @param {ApprovalRecord} approval
 * @param {{ shortcuts: boolean }} options whether to show the keyboard hints (the inbox has shortcuts)
 */
export function approvalActions(state, approval, { shortcuts }) {
  const id = `deny-${approval.id}`;
  const message = h('input', {
    id,
    name: 'message',
    class: 'deny-message',
    type: 'text',
    autocomplete: 'off',
    placeholder: 'e.g. not outside the project',
  });
  const kbd = (/** @type {string} */ key) => (shortcuts ? h('kbd', { 'aria-hidden': 'true' }, key) : null);
  const deny = h(
    'form',
    {
      class: 'deny',
      onsubmit: (event) => {
        event.preventDefault();
        const text = message.value.trim();
        void decideApproval(state, approval.id, { behavior: 'deny', ...(text ? { message: text } : {}) });
      },
    },
    h('label', { for: id }, 'Reason for denying (the agent reads it)'),
    h(
      'div',
      { class: 'deny-row' },
      message,
      h('button', { type: 'submit', class: 'danger' }, 'Deny ', kbd('d')),
    ),
  );
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
          onclick: () => void decideApproval(state, approval.id, { behavior: 'allow' }),
        },
        'Approve once ',
        kbd('a'),
      ),
      h(
        'button',
        {
          type: 'button',
          class: 'always',
          title: 'Allow this and similar calls for the rest of the session',
          onclick: () => void decideApproval(state, approval.id, { behavior: 'allow_always' }),
        },
        'Always allow ',
        kbd('A'),
      ),
    ),
    deny,
  );
}
