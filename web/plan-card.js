// @ts-check
// The model's plan (ExitPlanMode) and the two answers to it: approve — optionally choosing the mode the
// thread goes on in — or send it back with feedback the model reads (a deny with that message; the CLI
// stays in plan mode). The plan is Markdown, drawn inert (markdown.js).

import { answer, denyForm } from './approval-actions.js';
import { h, replace } from './dom.js';
import { MODES } from './format.js';
import { visibleText } from './visible-text.js';

/** @import { State } from './state.js' */
/** @import { ApprovalRecord, ThreadMode } from './types.js' */

/**
 * The plan as the CLI handed it over (`input.plan`, read from its plan file).
 * @param {Record<string, unknown>} input
 */
export function planView(input) {
  const plan = typeof input.plan === 'string' ? input.plan : '';
  return h(
    'div',
    { class: 'preview plan' },
    h('p', { class: 'muted note' }, 'The agent’s plan (its own words, not checked):'),
    plan === '' ? h('p', { class: 'muted' }, '(no plan text was sent)') : planText(plan),
  );
}

/**
 * The plan as preformatted text at once, then drawn as Markdown once the renderer has loaded (a page
 * without it keeps the text).
 * @param {string} plan
 */
function planText(plan) {
  const holder = h(
    'div',
    { class: 'plan-text' },
    h('pre', { class: 'code' }, h('code', {}, visibleText(plan))),
  );
  void import('./markdown.js').then(
    ({ markdown }) => replace(holder, markdown(plan, 'plan-markdown')),
    () => undefined,
  );
  return holder;
}

/**
 * @param {State} state
 * @param {ApprovalRecord} approval
 * @param {{ shortcuts: boolean }} options
 */
export function planActions(state, approval, { shortcuts }) {
  const current = state.threads.get(approval.threadId)?.mode;
  const selectId = `plan-mode-${approval.id}`;
  const mode = /** @type {HTMLSelectElement} */ (
    h(
      'select',
      { id: selectId, name: 'mode' },
      Object.entries(MODES).map(([value, { label }]) =>
        h('option', { value, ...(value === current ? { selected: '' } : {}) }, label),
      ),
    )
  );
  const kbd = (/** @type {string} */ key) => (shortcuts ? h('kbd', { 'aria-hidden': 'true' }, key) : null);
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
          onclick: (/** @type {Event} */ event) => {
            if (event instanceof MouseEvent && event.detail > 1) return;
            const chosen = /** @type {ThreadMode} */ (mode.value);
            answer(state, approval.id, /** @type {Element} */ (event.currentTarget), {
              behavior: 'allow',
              ...(chosen !== current ? { mode: chosen } : {}),
            });
          },
        },
        'Approve plan ',
        kbd('a'),
      ),
      h('label', { for: selectId, class: 'plan-mode' }, 'then continue in'),
      mode,
    ),
    denyForm(state, approval, {
      shortcuts,
      label: 'Send back with feedback (the agent reads it and plans again)',
      button: 'Send back',
      placeholder: 'e.g. also cover the error case',
    }),
  );
}
