// @ts-check
// Keyboard shortcuts. The answer keys name the approval selected when the key went down and go through
// the same check as a click (the card must have been seen: see arming.js). A held key answers once: its
// repeats are ignored. Nothing fires while the user types in a field, except Escape, which leaves the
// field.

/** @import { InboxView } from './inbox.js' */

/** What the help dialog lists; the handler below is the source of truth. */
export const SHORTCUTS = [
  ['j / k', 'next / previous approval'],
  ['a', 'approve the selected approval once'],
  ['A', 'always allow: adds the rules the card lists, for the scope it shows'],
  ['d', 'deny: type a reason, Enter sends'],
  ['o', 'open the selected approval’s thread'],
  ['i', 'go to the inbox'],
  ['n', 'start a new thread'],
  ['?', 'show or hide this help'],
  ['Esc', 'leave a text field, close this help'],
];

/**
 * @param {object} options
 * @param {() => InboxView | undefined} options.inbox the inbox when it is on screen
 * @param {(hash: string) => void} options.go
 * @param {HTMLDialogElement} options.help
 */
export function installShortcuts({ inbox, go, help }) {
  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = /** @type {HTMLElement | null} */ (event.target);
    if (isTyping(target)) {
      if (event.key === 'Escape') {
        target?.blur();
        inbox()?.selectedCard()?.focus();
      }
      return;
    }
    if (help.open && event.key !== '?') return;
    const view = inbox();
    const card = view?.selectedCard();
    const selectedId = view?.selectedId;
    // A held key repeats; only the press itself may act (an answer, or moving the cursor into a field).
    if (event.repeat && ['a', 'A', 'd'].includes(event.key)) {
      event.preventDefault();
      return;
    }
    switch (event.key) {
      case '?':
        if (help.open) help.close();
        else help.showModal();
        break;
      case 'j':
        view?.move(1);
        break;
      case 'k':
        view?.move(-1);
        break;
      case 'a':
        if (selectedId !== undefined) view?.answerSelected(selectedId, { behavior: 'allow' });
        break;
      case 'A':
        if (selectedId !== undefined) view?.answerSelected(selectedId, { behavior: 'allow_always' });
        break;
      case 'd': {
        const field = card?.querySelector('input.deny-message');
        if (field instanceof HTMLInputElement) field.focus();
        break;
      }
      case 'o': {
        const approval = view?.selected();
        if (approval !== undefined) go(`#/threads/${encodeURIComponent(approval.threadId)}`);
        break;
      }
      case 'i':
        go('#/');
        break;
      case 'n':
        go('#/new');
        break;
      default:
        return;
    }
    event.preventDefault();
  });
}

/** @param {HTMLElement | null} target */
function isTyping(target) {
  if (target === null) return false;
  return (
    target.isContentEditable ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    (target instanceof HTMLInputElement && !['radio', 'checkbox', 'button', 'submit'].includes(target.type))
  );
}
