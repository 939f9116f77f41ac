// @ts-check
// Edit before approve: the person changes what the call does — the command of a Bash call, the content
// of a Write, the new text of an Edit, or any tool's input as JSON — sees the change as a diff, and
// approves that. It is sent as the decision's `updatedInput`; the supervisor checks it is the same tool's
// input and judges it by the thread's policy again (an edit a deny rule forbids is refused). "Always
// allow" is never offered for an edit: no rule is made from edited input.

import { answer } from './approval-actions.js';
import { h, replace } from './dom.js';
import { diffView } from './preview.js';
import { toast } from './toast.js';

/** @import { State } from './state.js' */
/** @import { ApprovalRecord } from './types.js' */

/** The one text field each tool's edit changes; other tools are edited as JSON. */
const TEXT_FIELDS = /** @type {Record<string, { field: string, label: string }>} */ ({
  Bash: { field: 'command', label: 'Command to run instead' },
  Write: { field: 'content', label: 'File content to write instead' },
  Edit: { field: 'new_string', label: 'Replacement text to use instead' },
});

/**
 * How the approval's input is edited: the text shown, and how the edited text becomes the input.
 * @param {ApprovalRecord} approval
 * @returns {{ label: string, text: string, toInput: (text: string) => Record<string, unknown> }}
 */
export function editorFor(approval) {
  const { toolName, input } = approval;
  const known = TEXT_FIELDS[toolName];
  if (known !== undefined && typeof input[known.field] === 'string')
    return {
      label: known.label,
      text: /** @type {string} */ (input[known.field]),
      toInput: (text) => ({ ...input, [known.field]: text }),
    };
  return {
    label: 'Tool input to use instead (JSON)',
    text: JSON.stringify(input, null, 2),
    toInput: (text) => {
      const value = JSON.parse(text);
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw new TypeError('the input must be a JSON object');
      return value;
    },
  };
}

/**
 * @param {State} state
 * @param {ApprovalRecord} approval
 */
export function editSection(state, approval) {
  const editor = editorFor(approval);
  const fieldId = `edit-${approval.id}`;
  const text = /** @type {HTMLTextAreaElement} */ (
    h('textarea', {
      id: fieldId,
      class: 'edit-text',
      rows: String(Math.min(12, Math.max(2, editor.text.split('\n').length + 1))),
      spellcheck: 'false',
      autocomplete: 'off',
    })
  );
  text.value = editor.text;
  const diff = h('div', { class: 'edit-diff', 'aria-live': 'polite' });
  const showDiff = () => {
    const changed = text.value !== editor.text;
    replace(
      diff,
      changed ? [h('p', { class: 'muted note' }, 'Your change:'), diffView(editor.text, text.value)] : [],
    );
    // With an edit typed, the plain approve button says plainly that it ignores it.
    const approve = text.closest('.approval-body')?.querySelector('button.approve')?.firstChild;
    if (approve instanceof Text)
      approve.data = changed ? 'Approve as asked (not your edit) ' : 'Approve once ';
  };
  text.addEventListener('input', showDiff);
  return h(
    'details',
    { class: 'edit-input' },
    h('summary', {}, 'Edit before approving'),
    h('label', { for: fieldId }, editor.label),
    text,
    diff,
    h(
      'div',
      { class: 'allow-row' },
      h(
        'button',
        {
          type: 'button',
          class: 'approve-edited',
          'data-approval-id': approval.id,
          onclick: (/** @type {Event} */ event) => {
            if (event instanceof MouseEvent && event.detail > 1) return;
            if (text.value === editor.text) {
              toast('Not sent: nothing was changed. Approve once runs it as asked.', 'warn');
              return;
            }
            let updatedInput;
            try {
              updatedInput = editor.toInput(text.value);
            } catch (error) {
              toast(`Not sent: ${error instanceof Error ? error.message : String(error)}`, 'error');
              return;
            }
            answer(state, approval.id, /** @type {Element} */ (event.currentTarget), {
              behavior: 'allow',
              updatedInput,
            });
          },
        },
        'Approve edited',
      ),
    ),
  );
}
