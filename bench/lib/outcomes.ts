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

/** A failed run's reason as the report shows it: the first line of the error's message. */
export function reasonOf(error: unknown): string {
  if (error instanceof Error) return error.message.split('\n')[0] ?? error.name;
  return String(error);
}
