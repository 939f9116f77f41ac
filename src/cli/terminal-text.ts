// Text from agents made safe and honest for a terminal. Every character that draws nothing or acts on the
// terminal — C0 controls (ESC starts the ANSI sequences that move the cursor, clear lines, retitle the
// window), DEL, C1 controls (CSI and OSC on their own), zero-width and bidi marks, overrides and isolates,
// other format characters, line separators, unusual spaces, fillers — becomes a visible marker such as
// ⟨U+001B⟩, so what a person reads is what runs and nothing the agent wrote can rewrite the screen.
// For commands, runs of blank lines and long runs of spaces fold into one marker that says how many. The
// same rules draw the web UI's previews (web/visible-text.js).

/** Drawn as a marker. Newline and tab are left alone: they show as what they are. */
const INVISIBLE =
  /(?![\n\t])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cs}\u115F\u1160\u3164\uFFA0\u2800]|\p{Variation_Selector}|(?! )\p{Zs}/u;
const TOKENS = new RegExp(`(${INVISIBLE.source})`, 'gu');
const TOKENS_FOLDED = new RegExp(`(\\n(?:[ \\t]*\\n){3,})|([ \\t]{16,})|(${INVISIBLE.source})`, 'gu');

/** `⟨U+202E⟩` for one character. */
export function marker(char: string): string {
  const codePoint = char.codePointAt(0) ?? 0;
  return `⟨U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/**
 * The text with every invisible or control character as a marker (newlines and tabs kept); with `fold`,
 * three or more blank lines become one `⟨N blank lines⟩` line and 16 or more spaces `⟨N spaces⟩`.
 */
export function terminalSafe(text: string, options: { fold?: boolean } = {}): string {
  const fold = options.fold === true;
  return text.replace(fold ? TOKENS_FOLDED : TOKENS, (whole: string, ...groups: unknown[]) => {
    if (fold && groups[0] !== undefined) return `\n⟨${whole.split('\n').length - 2} blank lines⟩\n`;
    if (fold && groups[1] !== undefined) return `⟨${whole.length} spaces⟩`;
    return marker(whole);
  });
}

/** How many lines the text has ("ls\n" is one line). */
export function lineCount(text: string): number {
  return text === '' ? 0 : text.replace(/\n$/, '').split('\n').length;
}

export interface Shown {
  /** The lines to print, already made safe. */
  lines: string[];
  /** What the reader must know before reading them: "61 lines", "truncated — 2000 of 5005 characters shown". */
  facts: string[];
}

/**
 * A block of agent text for a question: cut at `maxChars` characters and then `maxLines` lines (after
 * folding), with the cut and the line count said up front.
 */
export function showBlock(text: string, maxChars: number, maxLines: number): Shown {
  const facts: string[] = [];
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
