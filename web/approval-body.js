// @ts-check
// What a pending approval shows and offers, by kind: the model's questions as a form to answer, its plan
// to approve or send back, or a tool call — its preview, an editor to change it before approving, and
// the usual answers. The inbox card and the pending call in a thread draw the same body.

import { answerableSlot } from './answerable-by.js';
import { approvalActions, denyForm } from './approval-actions.js';
import { deadlineBadge } from './deadline-badge.js';
import { editSection } from './edit-input.js';
import { h } from './dom.js';
import { planActions, planView } from './plan-card.js';
import { preview } from './preview.js';
import { questionForm } from './question-card.js';
import { twoPersonBadge } from './two-person.js';

/** @import { State } from './state.js' */
/** @import { ApprovalRecord } from './types.js' */

/** The card's kind, also its class: `tool`, `question` or `plan`. */
/** @param {ApprovalRecord} approval */
export function approvalKind(approval) {
  if (approval.toolName === 'AskUserQuestion') return 'question';
  if (approval.toolName === 'ExitPlanMode') return 'plan';
  return 'tool';
}

/**
 * @param {State} state
 * @param {ApprovalRecord} approval
 * @param {{ shortcuts: boolean }} options
 */
export function approvalBody(state, approval, options) {
  switch (approvalKind(approval)) {
    case 'question':
      return h(
        'div',
        { class: 'approval-body question-card' },
        deadlineBadge(approval),
        answerableSlot(approval, state.me),
        questionForm(state, approval),
        denyForm(state, approval, {
          ...options,
          label: 'Or decline to answer (the agent reads why)',
          button: 'Decline',
        }),
      );
    case 'plan':
      return h(
        'div',
        { class: 'approval-body plan-card' },
        deadlineBadge(approval),
        answerableSlot(approval, state.me),
        planView(approval.input),
        planActions(state, approval, options),
      );
    default:
      return h(
        'div',
        { class: 'approval-body tool-card' },
        deadlineBadge(approval),
        answerableSlot(approval, state.me),
        twoPersonBadge(approval),
        preview(approval.toolName, approval.input),
        // Two deciders allow the same input: a two-person approval is not edited (the server refuses it).
        // Codex runs what it asked for or nothing: its requests are not edited either.
        typeof approval.twoPerson === 'string' || state.threads.get(approval.threadId)?.agent === 'codex'
          ? null
          : editSection(state, approval),
        approvalActions(state, approval, options),
      );
  }
}
