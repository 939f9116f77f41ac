// @ts-check
// What a tool call would do, in a form a person can judge at a glance: the command for Bash, the path for
// file tools, a diff for edits. Unknown tools show their input as JSON. Everything is text nodes, and
// what the agent wrote is shown as it is: invisible and control characters as markers (visible-text.js),
// the number of lines and any cut said before the text, never after it. Text the agent wrote *about* the
// call (a Bash description, a subagent's description) never stands where the command does: it comes
// after it, labelled as the agent's claim.

import { lineDiff } from './diff.js';
import { h } from './dom.js';
import { lineCount, visibleText } from './visible-text.js';

const MAX_TEXT = 4000;
const MAX_TITLE = 200;

/**
 * @param {unknown} value
 * @returns {string}
 */
function str(value) {
  return typeof value === 'string' ? value : '';
}

/**
 * The argument a person decides on, as plain text (for lists, the timeline's collapsed calls and a card's
 * heading). Never the agent's description of the call: for Agent and Task that is the subagent's type.
 * @param {string} toolName
 * @param {Record<string, unknown>} input
 * @returns {string}
 */
export function summary(toolName, input) {
  switch (toolName) {
    case 'Bash':
      return str(input.command);
    case 'Read':
    case 'Write':
    case 'Edit':
    case 'MultiEdit':
    case 'NotebookEdit':
      return str(input.file_path) || str(input.notebook_path);
    case 'Glob':
    case 'Grep':
      return [str(input.pattern), str(input.path)].filter(Boolean).join(' in ');
    case 'WebFetch':
      return str(input.url);
    case 'WebSearch':
      return str(input.query);
    case 'Agent':
    case 'Task':
      return str(input.subagent_type);
    default:
      return '';
  }
}

/**
 * A heading's or a list's one line: the summary's first line, markers for anything invisible, blank lines
 * and space runs folded, cut at MAX_TITLE; and how many lines there are when there is more than one.
 * @param {string} toolName
 * @param {Record<string, unknown>} input
 */
export function titleLine(toolName, input) {
  const text = summary(toolName, input);
  if (text === '') return null;
  const lines = lineCount(text);
  const first = text.replace(/^\s*\n/, '').split('\n')[0] ?? '';
  const cut = first.length > MAX_TITLE ? `${first.slice(0, MAX_TITLE)}…` : first;
  return [
    h('span', { class: 'summary' }, visibleText(cut, { fold: true })),
    lines > 1 ? h('span', { class: 'line-count' }, ` (${lines} lines)`) : null,
  ];
}

/**
 * The preview block under the heading. The file's path is already in the heading, so file tools show
 * only what they would read or change; a command is shown again, exactly as it runs.
 * @param {string} toolName
 * @param {Record<string, unknown>} input
 * @returns {HTMLElement}
 */
export function preview(toolName, input) {
  // A Codex file change: every file it touches, each with its own diff (codex-requests.ts).
  if ((toolName === 'Write' || toolName === 'Edit') && Array.isArray(input.changes))
    return h('div', { class: 'preview' }, input.changes.map(fileChange));
  switch (toolName) {
    case 'Bash':
      // Shown again under the heading even when it fits there: the heading is a folded summary (space runs
      // folded, cut), this is the command exactly as it runs, drawn in its logical order.
      return h(
        'div',
        { class: 'preview' },
        code(str(input.command), 'code command', { fold: true }),
        claim('The agent describes it as', input.description),
      );
    case 'Read': {
      const range = rangeNote(input);
      return h('div', { class: 'preview' }, range ? note(range) : null);
    }
    case 'Write':
      return h(
        'div',
        { class: 'preview' },
        note('the whole file becomes:'),
        code(str(input.content), 'code'),
      );
    case 'Edit':
      return h(
        'div',
        { class: 'preview' },
        input.replace_all === true ? note('every occurrence is replaced') : null,
        diffView(str(input.old_string), str(input.new_string)),
      );
    case 'MultiEdit': {
      const edits = Array.isArray(input.edits) ? input.edits : [];
      return h(
        'div',
        { class: 'preview' },
        note(`${edits.length} edits, in order:`),
        edits.map((edit) => diffView(str(edit?.old_string), str(edit?.new_string))),
      );
    }
    case 'Agent':
    case 'Task':
      return h(
        'div',
        { class: 'preview' },
        note('the subagent is told:'),
        code(str(input.prompt), 'code'),
        claim('The agent names it', input.description),
      );
    default:
      return h('div', { class: 'preview' }, code(JSON.stringify(input, null, 2), 'code json'));
  }
}

/**
 * Agent-written text about the call, after the call and labelled as what it is.
 * @param {string} label
 * @param {unknown} text
 */
function claim(label, text) {
  if (typeof text !== 'string' || text.trim() === '') return null;
  return h(
    'p',
    { class: 'agent-claim' },
    `${label} (its own words, not checked): `,
    h('q', {}, visibleText(text.length > MAX_TITLE ? `${text.slice(0, MAX_TITLE)}…` : text, { fold: true })),
  );
}

/**
 * A block of agent text: first what the reader must know about it (how many lines, whether it is cut),
 * then the text with its invisible characters shown.
 * @param {string} text
 * @param {string} className
 * @param {{ fold?: boolean }} [options]
 */
function code(text, className, options) {
  const lines = lineCount(text);
  const cut = text.length > MAX_TEXT;
  const facts = [
    lines > 1 ? `${lines} lines` : null,
    cut ? `truncated — ${MAX_TEXT} of ${text.length} characters shown` : null,
  ].filter(Boolean);
  return [
    facts.length > 0 ? h('p', { class: `text-facts${cut ? ' cut' : ''}` }, facts.join(' · ')) : null,
    h('pre', { class: className }, h('code', {}, visibleText(cut ? text.slice(0, MAX_TEXT) : text, options))),
  ];
}

/** @param {string} text */
function note(text) {
  return h('p', { class: 'muted note' }, text);
}

/** @param {Record<string, unknown>} input */
function rangeNote(input) {
  const { offset, limit } = input;
  if (typeof offset !== 'number' && typeof limit !== 'number') return '';
  const from = typeof offset === 'number' ? offset : 1;
  return typeof limit === 'number' ? `lines ${from} to ${from + limit - 1}` : `from line ${from}`;
}

/**
 * One file of a Codex change: an added file's content, or the unified diff of a changed one as Codex
 * sent it (its own + and - signs), or the deletion.
 * @param {unknown} change
 */
function fileChange(change) {
  const { path, kind, diff } = /** @type {{ path?: unknown, kind?: unknown, diff?: unknown }} */ (
    change ?? {}
  );
  const text = str(diff);
  if (kind === 'add') return [note(`new file ${str(path)}, the whole file:`), code(text, 'code')];
  if (kind === 'delete') return note(`deleted: ${str(path)}`);
  return [
    note(`changed: ${str(path)}`),
    h(
      'pre',
      { class: 'code diff', 'aria-label': `Proposed change of ${str(path)}` },
      text
        .slice(0, MAX_TEXT)
        .split('\n')
        .map((line) =>
          h(
            'span',
            { class: line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : 'ctx' },
            visibleText(line),
            '\n',
          ),
        ),
    ),
    text.length > MAX_TEXT
      ? h('p', { class: 'text-facts cut' }, `truncated — the first ${MAX_TEXT} characters shown`)
      : null,
  ];
}

/**
 * @param {string} before
 * @param {string} after
 */
export function diffView(before, after) {
  const cut = before.length > MAX_TEXT || after.length > MAX_TEXT;
  const rows = lineDiff(before.slice(0, MAX_TEXT), after.slice(0, MAX_TEXT));
  return [
    cut
      ? h(
          'p',
          { class: 'text-facts cut' },
          `truncated — the first ${MAX_TEXT} characters of each side shown (${before.length} → ${after.length})`,
        )
      : null,
    h(
      'pre',
      { class: 'code diff', 'aria-label': 'Proposed change' },
      rows.map((row) =>
        h(
          'span',
          { class: row.op === '+' ? 'add' : row.op === '-' ? 'del' : 'ctx' },
          // The sign is part of the text so the change reads right without colour, too.
          `${row.op} `,
          visibleText(row.text),
          '\n',
        ),
      ),
    ),
  ];
}
