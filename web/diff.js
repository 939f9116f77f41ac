// @ts-check
// A line diff for previews of Edit calls (old_string → new_string). Longest common subsequence over
// lines; edits are usually a few dozen lines, and past a size cap it shows the plain before/after
// rather than spend the page's time.

/** @typedef {{ op: ' ' | '-' | '+', text: string }} DiffLine */

const MAX_CELLS = 250_000;

/**
 * @param {string} before
 * @param {string} after
 * @returns {DiffLine[]}
 */
export function lineDiff(before, after) {
  const a = before === '' ? [] : before.split('\n');
  const b = after === '' ? [] : after.split('\n');
  if (a.length * b.length > MAX_CELLS)
    return [...a.map((text) => line('-', text)), ...b.map((text) => line('+', text))];
  // lengths[i][j]: LCS length of a[i..] and b[j..]
  const lengths = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lengths[i][j] =
        a[i] === b[j] ? lengths[i + 1][j + 1] + 1 : Math.max(lengths[i + 1][j], lengths[i][j + 1]);
  /** @type {DiffLine[]} */
  const out = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push(line(' ', a[i]));
      i++;
      j++;
    } else if (lengths[i + 1][j] >= lengths[i][j + 1]) out.push(line('-', a[i++]));
    else out.push(line('+', b[j++]));
  }
  while (i < a.length) out.push(line('-', a[i++]));
  while (j < b.length) out.push(line('+', b[j++]));
  return out;
}

/**
 * @param {DiffLine['op']} op
 * @param {string | undefined} text
 * @returns {DiffLine}
 */
function line(op, text) {
  return { op, text: text ?? '' };
}
