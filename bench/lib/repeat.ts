// Runs a measurement of Warden alone, for what the official SDK has no counterpart to (the supervisor and
// the server): interleave() without the other host. Each run is bounded, a failed run is kept as its
// reason, warm-up runs are thrown away, and a full GC runs before each.
import { bounded } from './bounded.js';
import { collectGarbage } from './gc.js';
import { HOST_LABELS } from './hosts.js';
import { reasonOf, type Outcome } from './outcomes.js';

export interface RepeatOptions<T> {
  /** Label for progress lines, e.g. "supervisor-server, approvals". */
  readonly label: string;
  readonly runs: number;
  readonly warmup: number;
  readonly boundMs: number;
  readonly run: (signal: AbortSignal) => Promise<T>;
  /** Progress text for a successful run. */
  readonly describe: (value: T) => string;
  readonly log: (line: string) => void;
}

export async function repeat<T>(options: RepeatOptions<T>): Promise<Outcome<T>[]> {
  const outcomes: Outcome<T>[] = [];
  for (let round = -options.warmup; round < options.runs; round += 1) {
    collectGarbage();
    const outcome = await bounded(options.boundMs, (signal) => options.run(signal)).then(
      (value): Outcome<T> => ({ ok: true, value }),
      (error: unknown): Outcome<T> => ({ ok: false, reason: reasonOf(error) }),
    );
    const which = round < 0 ? 'warm-up' : `run ${round + 1}/${options.runs}`;
    const text = outcome.ok ? options.describe(outcome.value) : `FAILED: ${outcome.reason}`;
    options.log(`[${options.label}] ${HOST_LABELS.warden} ${which}: ${text}`);
    if (round >= 0) outcomes.push(outcome);
  }
  return outcomes;
}
