// @ts-check
// Text from agents shown as what it is. Characters that draw nothing or change how the rest is drawn —
// controls (C0, DEL, C1), format characters (zero-width and bidi marks, overrides and isolates), line
// and paragraph separators, unusual spaces, fillers — become visible markers such as ⟨U+202E⟩, so
// neither an invisible character nor a reordering can make a command read differently from what runs.
// For commands, long runs of blank lines and of spaces are folded into one marker that says how many,
// so nothing can be pushed out of sight. The same rules are in src/cli/visible-text.ts for the terminal.

import { h } from './dom.js';

/** Drawn as a marker. Newline and tab are left alone: they show as what they are. */
const INVISIBLE =
  /(?![\n\t])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cs}\u115F\u1160\u3164\uFFA0\u2800]|\p{Variation_Selector}|(?! )\p{Zs}/u;
const TOKENS = new RegExp(`(${INVISIBLE.source})`, 'gu');
const TOKENS_FOLDED = new RegExp(`(\\n(?:[ \\t]*\\n){3,})|([ \\t]{16,})|(${INVISIBLE.source})`, 'gu');

/** @typedef {string | { mark: string, hint: string, codePoint?: number }} Segment */

/**
 * Splits text into plain runs and markers, in logical order.
 * @param {string} text
 * @param {{ fold?: boolean }} [options] fold blank lines and long space runs (for commands)
 * @returns {Segment[]}
 */
export function segments(text, { fold = false } = {}) {
  /** @type {Segment[]} */
  const out = [];
  let last = 0;
  for (const match of text.matchAll(fold ? TOKENS_FOLDED : TOKENS)) {
    const index = match.index ?? 0;
    if (index > last) out.push(text.slice(last, index));
    const [whole] = match;
    if (fold && match[1] !== undefined) {
      const blank = whole.split('\n').length - 2;
      out.push('\n', { mark: `⟨${blank} blank lines⟩`, hint: `${blank} empty lines folded` }, '\n');
    } else if (fold && match[2] !== undefined) {
      out.push({ mark: `⟨${whole.length} spaces⟩`, hint: `${whole.length} spaces and tabs folded` });
    } else {
      const codePoint = whole.codePointAt(0) ?? 0;
      const name = `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
      out.push({ mark: `⟨${name}⟩`, hint: `invisible or control character ${name}`, codePoint });
    }
    last = index + whole.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** @param {string} text whether any character of it would be shown as a marker */
export function hasInvisible(text) {
  return INVISIBLE.test(text);
}

/**
 * The text as nodes: plain runs as text, markers as badges (the code point in data-code-point).
 * @param {string} text
 * @param {{ fold?: boolean }} [options]
 */
export function visibleText(text, options) {
  return segments(text, options).map((segment) =>
    typeof segment === 'string'
      ? segment
      : h(
          'span',
          {
            class: 'ctl',
            title: segment.hint,
            'data-code-point': segment.codePoint?.toString(16).toUpperCase(),
          },
          segment.mark,
        ),
  );
}

/**
 * How many lines the text has ("ls\n" is one line).
 * @param {string} text
 */
export function lineCount(text) {
  if (text === '') return 0;
  return text.replace(/\n$/, '').split('\n').length;
}
