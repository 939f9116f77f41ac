// Running a host against the bench fake CLI (bench/fake-cli/bench-cli.mjs): its path, and the complete
// environment both hosts pass to it (options.env replaces the host's environment in both).
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RUN_MARKER_VARIABLE } from './processes.js';

export const BENCH_CLI = fileURLToPath(new URL('../fake-cli/bench-cli.mjs', import.meta.url));

export function benchCliEnv(marker: string, variables: Record<string, string>): Record<string, string> {
  return {
    // The official SDK runs a .mjs CLI with `node` from PATH; make that the Node running the benchmarks.
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    [RUN_MARKER_VARIABLE]: marker,
    ...variables,
  };
}

/** Wall clock in ms with sub-millisecond precision; the fake CLI stamps its exit with the same clock. */
export function wallClock(): number {
  return performance.timeOrigin + performance.now();
}
