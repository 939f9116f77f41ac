// The few statistics the report uses. Medians with min and max rather than means: on a shared 2-core
// machine a run is sometimes slowed by a neighbour, and a median shrugs that off while min/max show it.

export interface Summary {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  /** Number of values summarised. */
  readonly n: number;
}

/** Median, min and max; undefined when there is nothing to summarise. */
export function summarize(values: readonly number[]): Summary | undefined {
  const finite = values.filter((value) => Number.isFinite(value));
  if (finite.length === 0) return undefined;
  const sorted = [...finite].sort((a, b) => a - b);
  return { median: medianOfSorted(sorted), min: sorted[0]!, max: sorted.at(-1)!, n: sorted.length };
}

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median of nothing');
  return medianOfSorted([...values].sort((a, b) => a - b));
}

/**
 * Nearest-rank percentile (p in (0, 100]): the smallest value with at least p% of the values at or below
 * it. Always one of the values, so p99 of 5,000 round trips is the 4,950th fastest, not an interpolation.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new RangeError('percentile of nothing');
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile must be in (0, 100], got ${p}`);
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.max(0, rank - 1)]!;
}

/**
 * a / b, or undefined when either side is missing, a is negative or b is not positive: a ratio of a
 * negative figure (memory that shrank within the noise) would read as nonsense.
 */
export function ratio(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b)) return undefined;
  if (a < 0 || b <= 0) return undefined;
  return a / b;
}

function medianOfSorted(sorted: readonly number[]): number {
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
