// One run's outcome: its measurement, or the reason it failed (a failed run is reported, never dropped).
import type { HostName } from './hosts.js';

export type Outcome<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

export type Outcomes<T> = Record<HostName, Outcome<T>[]>;

export function successes<T>(outcomes: readonly Outcome<T>[]): T[] {
  return outcomes.flatMap((outcome) => (outcome.ok ? [outcome.value] : []));
}

export function failures<T>(outcomes: readonly Outcome<T>[]): string[] {
  return outcomes.flatMap((outcome) => (outcome.ok ? [] : [outcome.reason]));
}
