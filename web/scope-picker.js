// @ts-check
// "Always allow", said honestly before the click: the card lists the exact rules the answer adds and how
// long they hold, and lets the person narrow them (each rule is editable text, removable when there are
// several) and pick the scope — this CLI session (the default), this thread (a Warden rule, kept until
// removed in the thread view) or this project (the CLI writes it to the project's
// .claude/settings.local.json, which Warden cannot take back). What the line above the button says is
// exactly what is sent. The choice is kept per approval outside the card, so a card drawn again (after a
// live update, or after the server refused a rule) shows the same choice and the server's reason. Below,
// what the rules would have done in the thread so far (simulation-line.js).

import { h, replace } from './dom.js';
import { showSimulation } from './simulation-line.js';
import { visibleText } from './visible-text.js';

/** @import { State } from './state.js' */
/** @import { ApprovalRecord, Decision, GrantScope } from './types.js' */

/** @typedef {{ scope: GrantScope, rules: string[], error: string | null, editing: boolean }} Draft */

/** @type {Map<string, Draft>} */
const drafts = new Map();

/** @type {Record<GrantScope, string>} */
const SCOPE_LABELS = {
  session: 'this CLI session',
  thread: 'this thread',
  project: 'this project',
};

/**
 * The person's choice for an approval's "always allow", starting from the rules the server offers.
 * @param {ApprovalRecord} approval
 * @returns {Draft}
 */
function draftOf(approval) {
  let draft = drafts.get(approval.id);
  if (draft === undefined) {
    draft = { scope: 'session', rules: offeredRules(approval), error: null, editing: false };
    drafts.set(approval.id, draft);
  }
  return draft;
}

/**
 * The rules the server offers for "always allow"; none means it is not offered.
 * @param {ApprovalRecord} approval
 * @returns {string[]}
 */
export function offeredRules(approval) {
  const rules = approval.alwaysAllowRules;
  return Array.isArray(rules) ? rules.filter((rule) => typeof rule === 'string' && rule !== '') : [];
}

/**
 * The decision the card's always-allow stands for now, or null (with the reason on the card) when a rule
 * was left empty.
 * @param {ApprovalRecord} approval
 * @returns {Decision | null}
 */
export function alwaysDecision(approval) {
  const draft = draftOf(approval);
  const rules = draft.rules.map((rule) => rule.trim());
  if (rules.some((rule) => rule === '')) {
    showError(approval.id, 'A rule is empty: write it, or remove it.');
    return null;
  }
  return { behavior: 'allow_always', scope: draft.scope, rules };
}

/**
 * The server refused the rules (one wider than shown, one that does not cover the request): nothing
 * was settled, and the card says why when it is drawn again.
 * @param {string} approvalId
 * @param {string} message
 */
export function alwaysRefused(approvalId, message) {
  showError(approvalId, message);
}

/** @param {string} approvalId */
export function forgetDraft(approvalId) {
  drafts.delete(approvalId);
}

/**
 * @param {string} approvalId
 * @param {string} message
 */
function showError(approvalId, message) {
  const draft = drafts.get(approvalId);
  if (draft !== undefined) draft.error = message;
  for (const box of document.querySelectorAll(`.always-box[data-approval-id="${CSS.escape(approvalId)}"]`))
    box.dispatchEvent(new CustomEvent('draft-changed'));
}

/**
 * Where a project rule goes, spelled out.
 * @param {string} cwd
 */
export function projectFile(cwd) {
  return `${cwd.replace(/\/+$/, '')}/.claude/settings.local.json`;
}

/**
 * The rules in plain words, or null when they need none: what the CLI's `//` means, and — for a path
 * reached through a link, which the server offers as two rules of one tool, the path as written and then
 * where it leads — why both are there.
 * @param {string[]} rules the rules the card shows now
 * @param {string[]} offered the rules the server offered
 * @returns {string | null}
 */
export function rulesLegend(rules, offered) {
  /** @param {string} rule */
  const pathOf = (rule) => {
    const match = /^(\w+)\(\/\/(.*)\)$/s.exec(rule.trim());
    return match === null ? null : { tool: match[1] ?? '', path: `/${match[2] ?? ''}` };
  };
  const first = rules.map(pathOf).find((path) => path !== null);
  if (first === undefined || first === null) return null;
  const words = [`// = an absolute path: ${first.tool}(/${first.path}) means ${first.path}.`];
  const paths = offered.map(pathOf);
  const at = paths.findIndex((path, i) => path !== null && path.tool === paths[i + 1]?.tool);
  const link = paths[at];
  const target = paths[at + 1];
  if (at >= 0 && link && target && rules.includes(offered[at] ?? '') && rules.includes(offered[at + 1] ?? ''))
    words.push(
      `${link.path} is a link to ${target.path}: both are named, so if the link is changed to lead ` +
        'elsewhere, the agent is asked again.',
    );
  return words.join(' ');
}

/**
 * The scope picker and the rules, for a card whose approval offers "always allow".
 * @param {State} state
 * @param {ApprovalRecord & { cwd?: string }} approval
 * @param {string} rulesId the id of the line that says what is added (the button's description)
 */
export function scopePicker(state, approval, rulesId) {
  const draft = draftOf(approval);
  const cwd = state.threads.get(approval.threadId)?.cwd ?? approval.cwd ?? 'the project folder';
  const summary = h('p', { class: 'always-rules', id: rulesId });
  const note = h('p', { class: 'scope-note' });
  const error = h('p', { class: 'always-error', role: 'alert' });
  const simulated = h('p', { class: 'always-simulated muted', hidden: '' });
  const editor = h('div', { class: 'rule-editor' });
  const name = `scope-${approval.id}`;
  const scopes = h(
    'fieldset',
    { class: 'always-scope' },
    h('legend', {}, 'Always allow for'),
    /** @type {GrantScope[]} */ (['session', 'thread', 'project']).map((scope) => {
      const id = `${name}-${scope}`;
      return h(
        'span',
        { class: 'segment' },
        h('input', {
          type: 'radio',
          name,
          id,
          value: scope,
          checked: draft.scope === scope,
          onchange: () => {
            draft.scope = scope;
            draft.error = null;
            draw();
          },
        }),
        h('label', { for: id }, SCOPE_LABELS[scope]),
      );
    }),
  );
  const details = h(
    'details',
    {
      class: 'always-edit',
      open: draft.editing,
      ontoggle: () => (draft.editing = details.open),
    },
    h('summary', {}, draft.rules.length > 1 ? 'Narrow or remove the rules' : 'Narrow the rule'),
    h(
      'p',
      { class: 'muted note' },
      'Only these rules or narrower ones are accepted, e.g. Bash(git push:*) → Bash(git push origin:*).',
    ),
    editor,
  );
  const box = h(
    'div',
    { class: 'always-box', 'data-approval-id': approval.id },
    summary,
    scopes,
    note,
    simulated,
    details,
    error,
  );
  box.addEventListener('draft-changed', () => draw());

  function draw() {
    const legend = rulesLegend(draft.rules, offeredRules(approval));
    replace(
      summary,
      `Always allow in ${SCOPE_LABELS[draft.scope]}: `,
      draft.rules.map((rule, i) => [i > 0 ? ', ' : null, h('code', {}, visibleText(rule))]),
      legend === null ? null : [h('br'), h('span', { class: 'rules-legend' }, visibleText(legend))],
    );
    replace(
      note,
      draft.scope === 'session'
        ? 'Until this CLI process and its session end; the thread view lists it.'
        : draft.scope === 'thread'
          ? 'Kept by Warden for every later CLI of this thread, across restarts, until you remove it in the thread view.'
          : [
              'Written to ',
              h('code', { class: 'project-file' }, visibleText(projectFile(cwd))),
              ' by the CLI. Warden cannot remove it: edit that file to take it back.',
            ],
    );
    note.classList.toggle('warn', draft.scope === 'project');
    showSimulation(
      simulated,
      approval.threadId,
      draft.rules.map((rule) => rule.trim()),
    );
    error.hidden = draft.error === null;
    error.textContent = draft.error === null ? '' : `Not sent: ${draft.error}`;
  }

  function drawEditor() {
    replace(
      editor,
      draft.rules.map((rule, index) =>
        h(
          'div',
          { class: 'rule-row' },
          h('input', {
            type: 'text',
            class: 'always-rule',
            value: rule,
            spellcheck: 'false',
            autocomplete: 'off',
            'aria-label': `Rule ${index + 1} to always allow`,
            oninput: (/** @type {Event} */ event) => {
              draft.rules[index] = /** @type {HTMLInputElement} */ (event.currentTarget).value;
              draft.error = null;
              draw();
            },
          }),
          draft.rules.length > 1
            ? h(
                'button',
                {
                  type: 'button',
                  class: 'remove-rule',
                  'aria-label': `Remove rule ${index + 1}`,
                  onclick: () => {
                    draft.rules.splice(index, 1);
                    draft.error = null;
                    drawEditor();
                    draw();
                  },
                },
                'Remove',
              )
            : null,
        ),
      ),
      h(
        'button',
        {
          type: 'button',
          class: 'reset-rules',
          onclick: () => {
            draft.rules = offeredRules(approval);
            draft.error = null;
            drawEditor();
            draw();
          },
        },
        'Back to the rules offered',
      ),
    );
  }

  drawEditor();
  draw();
  return box;
}
