// Finding and killing what a run left behind. Every process a benchmark starts carries a marker in its
// environment (children inherit it), so leftovers are found by that marker in /proc/<pid>/environ: exact,
// and safe against pid reuse. Linux only, like the benchmarks.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

export const RUN_MARKER_VARIABLE = 'WARDEN_BENCH_RUN';

export function newRunMarker(): string {
  return randomUUID();
}

/** Live (non-zombie) processes whose environment contains `NAME=value`. */
export function pidsWithEnv(name: string, value: string): number[] {
  const needle = `${name}=${value}\0`;
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${entry}/stat`, 'utf8'))) continue;
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').includes(needle)) pids.push(Number(entry));
    } catch {
      // Gone while we looked, or not ours to read.
    }
  }
  return pids;
}

/** SIGKILLs every live process whose environment contains `NAME=value`; returns their pids. */
export function killPidsWithEnv(name: string, value: string): number[] {
  const pids = pidsWithEnv(name, value);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  return pids;
}

export function killRun(marker: string): number[] {
  return killPidsWithEnv(RUN_MARKER_VARIABLE, marker);
}
