// Durations on the command line: a whole number with its unit, `500ms`, `30s`, `10m`, `2h`; `0` or
// `never` for "never" (0). Longer than a timer can wait (about 24 days) is refused.
const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** The longest duration accepted: setTimeout's longest delay. */
export const MAX_DURATION_MS = 2 ** 31 - 1;

/** Milliseconds, 0 for `0` or `never`; undefined when the text is not such a duration. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '0' || trimmed === 'never') return 0;
  const match = /^(\d+)(ms|s|m|h)$/.exec(trimmed);
  if (match === null) return undefined;
  const ms = Number(match[1]) * (UNITS[match[2] ?? ''] ?? NaN);
  return Number.isSafeInteger(ms) && ms >= 1 && ms <= MAX_DURATION_MS ? ms : undefined;
}
