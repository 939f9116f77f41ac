// @ts-check
// The model's questions (AskUserQuestion) as a form: each question with its options — one choice or
// several — and "Other" for the person's own words. Sending it is an allow carrying the answers, by
// question text: a label, labels joined by ", ", or the typed text (the official SDK's convention; the
// supervisor checks every question is answered). Everything the model wrote is shown as text.

import { answer } from './approval-actions.js';
import { h } from './dom.js';
import { toast } from './toast.js';
import { visibleText } from './visible-text.js';

/** @import { State } from './state.js' */
/** @import { ApprovalRecord } from './types.js' */

/**
 * @typedef {{ label: string, description: string, preview?: string }} QuestionOption
 * @typedef {{ question: string, header: string, multiSelect: boolean, options: QuestionOption[] }} Question
 */

/**
 * The questions of an AskUserQuestion input, keeping only well-formed ones.
 * @param {Record<string, unknown>} input
 * @returns {Question[]}
 */
export function questionsOf(input) {
  const list = Array.isArray(input.questions) ? input.questions : [];
  return list.flatMap((q) => {
    if (typeof q !== 'object' || q === null || typeof q.question !== 'string') return [];
    const options = (Array.isArray(q.options) ? q.options : []).filter(
      (/** @type {any} */ o) => typeof o === 'object' && o !== null && typeof o.label === 'string',
    );
    return [
      {
        question: q.question,
        header: typeof q.header === 'string' ? q.header : '',
        multiSelect: q.multiSelect === true,
        options: options.map((/** @type {any} */ o) => ({
          label: o.label,
          description: typeof o.description === 'string' ? o.description : '',
          ...(typeof o.preview === 'string' ? { preview: o.preview } : {}),
        })),
      },
    ];
  });
}

/**
 * @param {State} state
 * @param {ApprovalRecord} approval
 */
export function questionForm(state, approval) {
  const questions = questionsOf(approval.input);
  /** @type {(() => string | null)[]} */
  const readers = [];
  const fieldsets = questions.map((q, qi) => {
    const name = `q-${approval.id}-${qi}`;
    const otherText = h('input', {
      type: 'text',
      class: 'other-text',
      autocomplete: 'off',
      'aria-label': `Your own answer to: ${q.question}`,
      placeholder: 'Your own answer',
    });
    const type = q.multiSelect ? 'checkbox' : 'radio';
    const other = h('input', { type, name, value: '', class: 'other-choice' });
    otherText.addEventListener('input', () => {
      if (otherText.value.trim() !== '') /** @type {HTMLInputElement} */ (other).checked = true;
    });
    const boxes = q.options.map((option) => h('input', { type, name, value: option.label }));
    readers.push(() => {
      const chosen = boxes
        .filter((box) => /** @type {HTMLInputElement} */ (box).checked)
        .map((box) => /** @type {HTMLInputElement} */ (box).value);
      const own = /** @type {HTMLInputElement} */ (other).checked ? otherText.value.trim() : '';
      if (own !== '') chosen.push(own);
      return chosen.length === 0 ? null : chosen.join(', ');
    });
    return h(
      'fieldset',
      { class: 'question' },
      h(
        'legend',
        {},
        q.header ? h('span', { class: 'chip' }, visibleText(q.header, { fold: true })) : null,
        visibleText(q.question, { fold: true }),
        q.multiSelect ? h('span', { class: 'muted' }, ' (choose any)') : null,
      ),
      q.options.map((option, oi) =>
        h(
          'label',
          { class: 'option' },
          boxes[oi],
          h('span', { class: 'option-label' }, visibleText(option.label, { fold: true })),
          option.description
            ? h(
                'span',
                { class: 'muted option-description' },
                visibleText(option.description, { fold: true }),
              )
            : null,
          option.preview
            ? h('pre', { class: 'code option-preview' }, h('code', {}, visibleText(option.preview)))
            : null,
        ),
      ),
      h(
        'label',
        { class: 'option other' },
        other,
        h('span', { class: 'option-label' }, 'Other: '),
        otherText,
      ),
    );
  });
  return h(
    'form',
    {
      class: 'questions',
      'data-approval-id': approval.id,
      onsubmit: (/** @type {Event} */ event) => {
        event.preventDefault();
        /** @type {Record<string, string>} */
        const answers = {};
        for (const [i, q] of questions.entries()) {
          const value = readers[i]?.() ?? null;
          if (value === null) {
            toast(`Not sent: answer “${q.question}” first.`, 'warn');
            return;
          }
          answers[q.question] = value;
        }
        answer(state, approval.id, /** @type {Element} */ (event.currentTarget), {
          behavior: 'allow',
          answers,
        });
      },
    },
    h('p', { class: 'muted note' }, 'The agent asks:'),
    fieldsets,
    h(
      'div',
      { class: 'allow-row' },
      h(
        'button',
        { type: 'submit', class: 'primary answer-questions', 'data-approval-id': approval.id },
        'Send answers',
      ),
    ),
  );
}

/**
 * The questions and the answers sent, for the thread's timeline.
 * @param {Record<string, unknown>} input the input as asked
 * @param {Record<string, unknown>} sent the input as sent (with `answers`)
 */
export function answeredQuestions(input, sent) {
  const answers = /** @type {Record<string, unknown>} */ (
    typeof sent.answers === 'object' && sent.answers !== null ? sent.answers : {}
  );
  return h(
    'dl',
    { class: 'answered-questions' },
    questionsOf(input).map((q) => {
      const given = answers[q.question];
      return [
        h('dt', {}, visibleText(q.question, { fold: true })),
        h('dd', {}, visibleText(typeof given === 'string' ? given : '(no answer)', { fold: true })),
      ];
    }),
  );
}
