// Turning per-run outcomes into report figures: a median with min and max per host, and the ratio.
import { HOST_NAMES, type HostName } from './hosts.js';
import { failures, successes, type Outcome, type Outcomes } from './outcomes.js';
import type { Figure } from './model.js';
import { ratio, summarize } from './stats.js';

export interface FigureSpec {
  readonly id: string;
  readonly label: string;
  readonly unit: string;
  readonly better: 'lower' | 'higher';
  readonly digits?: number;
}

export function figureOf<T>(spec: FigureSpec, outcomes: Outcomes<T>, pick: (value: T) => number): Figure {
  const samples = {
    warden: successes(outcomes.warden).map(pick),
    official: successes(outcomes.official).map(pick),
  };
  const summaries = Object.fromEntries(HOST_NAMES.map((host) => [host, summarize(samples[host])])) as Record<
    HostName,
    ReturnType<typeof summarize>
  >;
  return {
    id: spec.id,
    label: spec.label,
    unit: spec.unit,
    better: spec.better,
    digits: spec.digits ?? 1,
    warden: summaries.warden,
    official: summaries.official,
    ratio: ratio(summaries.warden?.median, summaries.official?.median),
    samples,
    failures: { warden: failures(outcomes.warden), official: failures(outcomes.official) },
  };
}

/** A figure of Warden alone (nothing to compare with): no official summary, no ratio. */
export function wardenFigureOf<T>(
  spec: FigureSpec,
  outcomes: readonly Outcome<T>[],
  pick: (value: T) => number,
): Figure {
  return figureOf(spec, { warden: [...outcomes], official: [] }, pick);
}

/** "3 × timed out after 10 s; 1 × …" */
export function describeFailures(reasons: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const reason of reasons) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return [...counts].map(([reason, n]) => `${n} × ${reason}`).join('; ');
}

export function formatRatio(value: number | undefined): string {
  if (value === undefined) return 'n/a';
  return value >= 10 || value < 0.01 ? value.toPrecision(2) : value.toFixed(2);
}
