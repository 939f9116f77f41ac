// @ts-check
// Text from agents shown as what it is, in the browser, the terminal and notifications alike. Characters
// that draw nothing or act on what draws them — C0 controls (ESC starts the ANSI sequences that move a
// terminal's cursor, clear lines, retitle the window), DEL, C1 controls (CSI and OSC on their own), format
// characters (zero-width and bidi marks, overrides and isolates), line and paragraph separators, unusual
// spaces, fillers — become visible markers such as ⟨U+202E⟩, so neither an invisible character nor a
// reordering can make a command read differently from what runs, and nothing the agent wrote can rewrite
// a screen. For commands, long runs of blank lines and of spaces fold into one marker that says how many,
// so nothing can be pushed out of sight. Pure: the browser turns the segments into nodes (web/
// visible-text.js), the terminal and notifications into strings (terminalSafe, showBlock).

/** Drawn as a marker. Newline and tab are left alone: they show as what they are. */
const INVISIBLE =
  /(?![\n\t])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cs}\u115F\u1160\u3164\uFFA0\u2800]|\p{Variation_Selector}|(?! )\p{Zs}/u;
const TOKENS = new RegExp(`(${INVISIBLE.source})`, 'gu');
const TOKENS_FOLDED = new RegExp(`(\\n(?:[ \\t]*\\n){3,})|([ \\t]{16,})|(${INVISIBLE.source})`, 'gu');

/**
 * A plain run of text, or a marker standing for what it replaced: `mark` is what is shown, `hint` says
 * what it stands for, `codePoint` is the character's for an invisible one.
 * @typedef {string | { mark: string, hint: string, codePoint?: number }} Segment
 */

/**
 * `⟨U+202E⟩` for one character.
 * @param {string} char
 */
export function marker(char) {
  return `⟨${codeName(char.codePointAt(0) ?? 0)}⟩`;
}

/** @param {number} codePoint `U+202E` */
function codeName(codePoint) {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

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
    const index = match.index;
    if (index > last) out.push(text.slice(last, index));
    const [whole] = match;
    if (fold && match[1] !== undefined) {
      const blank = whole.split('\n').length - 2;
      out.push('\n', { mark: `⟨${blank} blank lines⟩`, hint: `${blank} empty lines folded` }, '\n');
    } else if (fold && match[2] !== undefined) {
      out.push({ mark: `⟨${whole.length} spaces⟩`, hint: `${whole.length} spaces and tabs folded` });
    } else {
      const codePoint = whole.codePointAt(0) ?? 0;
      const name = codeName(codePoint);
      out.push({ mark: `⟨${name}⟩`, hint: `invisible or control character ${name}`, codePoint });
    }
    last = index + whole.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/**
 * Whether any character of the text would be shown as a marker.
 * @param {string} text
 */
export function hasInvisible(text) {
  return INVISIBLE.test(text);
}

/**
 * The text with every invisible or control character as a marker (newlines and tabs kept); with `fold`,
 * three or more blank lines become one `⟨N blank lines⟩` line and 16 or more spaces `⟨N spaces⟩`.
 * @param {string} text
 * @param {{ fold?: boolean }} [options]
 */
export function terminalSafe(text, options = {}) {
  return segments(text, options)
    .map((segment) => (typeof segment === 'string' ? segment : segment.mark))
    .join('');
}

/**
 * How many lines the text has ("ls\n" is one line).
 * @param {string} text
 */
export function lineCount(text) {
  return text === '' ? 0 : text.replace(/\n$/, '').split('\n').length;
}

/**
 * A block of agent text made safe to print, and what the reader must know before reading it.
 * @typedef {object} Shown
 * @property {string[]} lines the lines to print, already made safe
 * @property {string[]} facts said up front: "61 lines", "truncated — 2000 of 5005 characters shown"
 */

/**
 * A block of agent text for a question: cut at `maxChars` characters and then `maxLines` lines (after
 * folding), with the cut and the line count said up front.
 * @param {string} text
 * @param {number} maxChars
 * @param {number} maxLines
 * @returns {Shown}
 */
export function showBlock(text, maxChars, maxLines) {
  /** @type {string[]} */
  const facts = [];
  const total = lineCount(text);
  if (total > 1) facts.push(`${total} lines`);
  const cutChars = text.length > maxChars;
  if (cutChars) facts.push(`truncated — ${maxChars} of ${text.length} characters shown`);
  const lines = terminalSafe(cutChars ? text.slice(0, maxChars) : text, { fold: true })
    .replace(/\n$/, '')
    .split('\n');
  if (lines.length > maxLines) {
    facts.push(`only the first ${maxLines} of ${lines.length} lines shown`);
    lines.length = maxLines;
  }
  return { lines, facts };
}
