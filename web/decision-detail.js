// @ts-check
// What a person's decision changed, under a tool call in the thread's timeline: the answers to the
// model's questions, how an input was edited before it ran (original and edited, as a diff), the plan a
// person approved or sent back, and a deny that also stopped the turn.

import { h } from './dom.js';
import { editorFor } from './edit-input.js';
import { planView } from './plan-card.js';
import { diffView } from './preview.js';
import { answeredQuestions } from './question-card.js';

/** @import { ToolItem } from '/view/timeline.js' */

/** @param {ToolItem} item */
export function decisionDetail(item) {
  const permission = item.permission;
  const sent = permission?.updatedInput ?? null;
  return [
    item.toolName === 'ExitPlanMode' && permission?.via === 'approval' && permission.outcome !== 'pending'
      ? h('details', { class: 'decision-detail plan-detail' }, h('summary', {}, 'Plan'), planView(item.input))
      : null,
    sent !== null && item.toolName === 'AskUserQuestion'
      ? h(
          'div',
          { class: 'decision-detail answers' },
          h('p', { class: 'muted note' }, 'You answered:'),
          answeredQuestions(item.input, sent),
        )
      : null,
    sent !== null && item.toolName !== 'AskUserQuestion' ? editedDetail(item, sent) : null,
    permission?.interrupt === true
      ? h('p', { class: 'decision-detail stopped' }, 'The turn was stopped with this deny.')
      : null,
  ];
}

/**
 * @param {ToolItem} item
 * @param {Record<string, unknown>} sent
 */
function editedDetail(item, sent) {
  const before = editorFor(/** @type {any} */ ({ toolName: item.toolName, input: item.input }));
  const after = editorFor(/** @type {any} */ ({ toolName: item.toolName, input: sent }));
  return h(
    'details',
    { class: 'decision-detail edited', open: '' },
    h('summary', {}, 'Edited before approval: what ran instead of what the agent asked'),
    diffView(before.text, after.text),
  );
}
