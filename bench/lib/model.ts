// What a benchmark produces, and what BENCHMARKS.md and bench/results/latest.json are rendered from.
import type { HostName, HostQueryFn } from './hosts.js';
import type { Summary } from './stats.js';

export interface Figure {
  readonly id: string;
  readonly label: string;
  readonly unit: string;
  /** Which direction is good; decides how the ratio reads. */
  readonly better: 'lower' | 'higher';
  /** Decimals shown in the report. */
  readonly digits: number;
  readonly warden: Summary | undefined;
  readonly official: Summary | undefined;
  /** Warden's median / the official SDK's median. */
  readonly ratio: number | undefined;
  /** Every successful run's value, in run order (JSON only). */
  readonly samples: Readonly<Record<HostName, readonly number[]>>;
  /** Reasons of failed runs, e.g. ["timed out after 10 s", …]. */
  readonly failures: Readonly<Record<HostName, readonly string[]>>;
}

export interface TargetCheck {
  /** What we hold ourselves to, e.g. "p50 at most half the official's". */
  readonly target: string;
  /** true met, false missed, undefined when it could not be measured. */
  readonly met: boolean | undefined;
  /** Where we stand, in numbers. */
  readonly standing: string;
  /** Why it is missed and what would close the gap; only for a missed target. */
  readonly gap?: string;
}

export interface BenchmarkResult {
  readonly name: string;
  readonly title: string;
  /** What is measured and how, in a sentence or two. */
  readonly method: string;
  readonly runsPerHost: number;
  readonly parameters: Readonly<Record<string, string | number>>;
  readonly figures: readonly Figure[];
  readonly targets: readonly TargetCheck[];
  /** Facts a reader needs to read the figures right (outcomes, anomalies). */
  readonly notes: readonly string[];
  /**
   * Set when the official SDK has nothing to compare with, saying why: the report then shows Warden's
   * absolute figures alone, without a ratio (the figures' `official` is undefined, its runs empty).
   */
  readonly wardenOnly?: string;
}

export interface BenchContext {
  readonly quick: boolean;
  readonly hosts: Readonly<Record<HostName, HostQueryFn>>;
  readonly log: (line: string) => void;
}

export interface Benchmark {
  readonly name: string;
  readonly title: string;
  readonly run: (context: BenchContext) => Promise<BenchmarkResult>;
}

/** A benchmark we have not written yet, listed so that the report says so. */
export interface PendingBenchmark {
  readonly name: string;
  readonly title: string;
  readonly pending: string;
}
