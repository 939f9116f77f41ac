// Could a glob still match once more text is known? A deny rule is checked against a command whose later
// words are only known when it runs (`git $X`), and a Windows short name stands for a name of which only
// the first characters are known (`CLAUDE~1`): both ask whether some string starting with what is known
// matches the pattern.

/** A pattern as a sequence of characters, `null` for a `*` (any characters, none included). */
export type GlobTokens = readonly (string | null)[];

/** The tokens of a glob in which `*` is the only wildcard. */
export function globTokens(glob: string): GlobTokens {
  return [...glob].map((char) => (char === '*' ? null : char));
}

/** The tokens of a literal text: a `*` in it is just a character. */
export function literalTokens(text: string): GlobTokens {
  return [...text];
}

/** Is there a string that starts with `known` and matches `tokens`? */
export function canStartWith(tokens: GlobTokens, known: string): boolean {
  // The positions in the pattern reachable after reading `known`; each can still be completed, since
  // every rest of a pattern matches some string.
  let states = closure(tokens, new Set([0]));
  for (const char of known) {
    const next = new Set<number>();
    for (const state of states) {
      const token = tokens[state];
      if (token === null) next.add(state);
      else if (token === char) next.add(state + 1);
    }
    if (next.size === 0) return false;
    states = closure(tokens, next);
  }
  return true;
}

/** `states` with every position a run of `*` can skip to. */
function closure(tokens: GlobTokens, states: Set<number>): Set<number> {
  for (const state of states) if (tokens[state] === null) states.add(state + 1);
  return states;
}
