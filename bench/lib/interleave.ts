// Runs a measurement for both hosts alternately, run by run (Warden, official, Warden, official, …), so
// that a slow spell of the shared machine hits both sides alike. Each run is bounded; a failed run is kept
// as its reason. Warm-up rounds are run the same way and thrown away (JIT, page cache, first spawn).
import { bounded } from './bounded.js';
import { collectGarbage } from './gc.js';
import { HOST_LABELS, HOST_NAMES, type HostName } from './hosts.js';
import { reasonOf, type Outcome, type Outcomes } from './outcomes.js';

export interface InterleaveOptions<T> {
  /** Label for progress lines, e.g. "orphan, exit 0". */
  readonly label: string;
  readonly runs: number;
  readonly warmup: number;
  readonly boundMs: number;
  readonly run: (host: HostName, signal: AbortSignal) => Promise<T>;
  /** Progress text for a successful run. */
  readonly describe: (value: T) => string;
  readonly log: (line: string) => void;
}

export async function interleave<T>(options: InterleaveOptions<T>): Promise<Outcomes<T>> {
  const outcomes: Outcomes<T> = { warden: [], official: [] };
  for (let round = -options.warmup; round < options.runs; round += 1) {
    for (const host of HOST_NAMES) {
      collectGarbage();
      const outcome = await bounded(options.boundMs, (signal) => options.run(host, signal)).then(
        (value): Outcome<T> => ({ ok: true, value }),
        (error: unknown): Outcome<T> => ({ ok: false, reason: reasonOf(error) }),
      );
      const which = round < 0 ? 'warm-up' : `run ${round + 1}/${options.runs}`;
      const text = outcome.ok ? options.describe(outcome.value) : `FAILED: ${outcome.reason}`;
      options.log(`[${options.label}] ${HOST_LABELS[host]} ${which}: ${text}`);
      if (round >= 0) outcomes[host].push(outcome);
    }
  }
  return outcomes;
}
