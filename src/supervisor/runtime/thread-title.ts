// A thread's title: what a person reads to tell threads apart in the sidebar, on approval cards and in the
// terminal. Taken from the first prompt (its first line) unless a person named the thread. Made safe once
// here, for every reader: one line, at most TITLE_LENGTH characters, and every character that draws
// nothing or changes how the rest is drawn shown as a marker such as ⟨U+202E⟩ (the rule the web UI and
// the terminal apply to agent text), so a prompt cannot smuggle an invisible title into a list.

export const TITLE_LENGTH = 60;
/** A name a person typed may be longer than a derived one, but not unbounded. */
export const MAX_TITLE_LENGTH = 200;

const INVISIBLE =
  /(?![\n\t])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cs}\u115F\u1160\u3164\uFFA0\u2800]|\p{Variation_Selector}|(?! )\p{Zs}/gu;

/**
 * Routing markers such as `[[demo]]` at the start of a prompt steer a scripted model in tests and demos;
 * they are not words for a person. Only leading ones are taken out.
 */
const LEADING_MARKERS = /^\s*(?:\[\[[\w-]{1,40}\]\]\s*)+/u;

export function withoutLeadingMarkers(text: string): string {
  return text.replace(LEADING_MARKERS, '');
}

/** The title a prompt gives its thread, or null when the prompt has no visible words. */
export function titleFromPrompt(prompt: string): string | null {
  const line = withoutLeadingMarkers(prompt)
    .split(/\r?\n/u)
    .map((l) => l.trim())
    .find((l) => l !== '');
  return line === undefined ? null : safeTitle(line, TITLE_LENGTH);
}

/** A title a person gave: the same rules, with room for a longer name. */
export function titleFromName(name: string): string | null {
  const line = name.replace(/\s*\r?\n\s*/gu, ' ').trim();
  return line === '' ? null : safeTitle(line, MAX_TITLE_LENGTH);
}

function safeTitle(line: string, max: number): string {
  const shown = line.replace(INVISIBLE, (char) => {
    const codePoint = char.codePointAt(0) ?? 0;
    return `⟨U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}⟩`;
  });
  const chars = [...shown];
  return chars.length <= max
    ? shown
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}
