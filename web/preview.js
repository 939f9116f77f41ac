// @ts-check
// What a tool call would do, in a form a person can judge at a glance: the command for Bash, the path for
// file tools, a diff for edits. Unknown tools show their input as JSON. Everything is text nodes.

import { lineDiff } from './diff.js';
import { h } from './dom.js';
import { clip } from './format.js';

const MAX_TEXT = 4000;

/**
 * @param {unknown} value
 * @returns {string}
 */
function str(value) {
  return typeof value === 'string' ? value : '';
}

/**
 * A one-line summary (for lists and the timeline's collapsed calls).
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
      return str(input.description);
    default:
      return '';
  }
}

/**
 * A card's heading: for Bash the agent's own description of the command ("Create notes.txt") when it
 * gave one — the command itself is in the preview right below.
 * @param {string} toolName
 * @param {Record<string, unknown>} input
 * @returns {string}
 */
export function title(toolName, input) {
  if (toolName === 'Bash') return str(input.description) || (str(input.command).split('\n')[0] ?? '');
  return summary(toolName, input);
}

/**
 * The preview block under the heading. The file's path is already in the heading, so file tools show
 * only what they would read or change.
 * @param {string} toolName
 * @param {Record<string, unknown>} input
 * @returns {HTMLElement}
 */
export function preview(toolName, input) {
  switch (toolName) {
    case 'Bash':
      return h('div', { class: 'preview' }, code(str(input.command), 'code command'));
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
    default:
      return h('div', { class: 'preview' }, code(JSON.stringify(input, null, 2), 'code json'));
  }
}

/**
 * @param {string} text
 * @param {string} className
 */
function code(text, className) {
  return h('pre', { class: className }, h('code', {}, clip(text, MAX_TEXT)));
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
 * @param {string} before
 * @param {string} after
 */
function diffView(before, after) {
  const rows = lineDiff(clip(before, MAX_TEXT), clip(after, MAX_TEXT));
  return h(
    'pre',
    { class: 'code diff', 'aria-label': 'Proposed change' },
    rows.map((row) =>
      h(
        'span',
        { class: row.op === '+' ? 'add' : row.op === '-' ? 'del' : 'ctx' },
        // The sign is part of the text so the change reads right without colour, too.
        `${row.op} ${row.text}\n`,
      ),
    ),
  );
}
