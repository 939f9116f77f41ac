// What the soak host measures about itself, every sample period: heap used after a full GC (the host runs
// with --expose-gc), RSS, open file descriptors, the processes it runs (CLIs under the soak's HOME, and
// its direct children), the event loop's delay since the last sample, and the listeners and handles that
// grow when something is not let go.
import { readdirSync, readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface HostSample {
  /** ms since the soak began (the driver's clock, passed in). */
  readonly t: number;
  /** The host's lifetime this sample belongs to (1, then +1 after each kill and reopen). */
  readonly host: number;
  readonly heapMB: number;
  readonly rssMB: number;
  readonly fds: number;
  /** Live processes whose environment has the soak's HOME: the real CLIs and what they run. */
  readonly cliProcesses: number;
  /** Live processes whose parent is the host (but the TypeScript loader's esbuild service). */
  readonly childProcesses: number;
  readonly loopDelayP99Ms: number;
  readonly loopDelayMaxMs: number;
  /** Listeners on `process`, all events summed. */
  readonly processListeners: number;
  readonly webSocketClients: number;
  /** Timers, sockets, handles and requests keeping the loop alive (process.getActiveResourcesInfo()). */
  readonly activeResources: number;
  /** Scripted CLIs alive in the host. */
  readonly scriptedClis: number;
  readonly liveThreads: number;
  readonly pendingApprovals: number;
  readonly lastSeq: number;
}

export type HostCounts = Pick<
  HostSample,
  'webSocketClients' | 'scriptedClis' | 'liveThreads' | 'pendingApprovals' | 'lastSeq'
>;

export class HostMetrics {
  readonly #delay = monitorEventLoopDelay({ resolution: 10 });
  readonly #home: string;

  constructor(home: string) {
    this.#home = home;
    this.#delay.enable();
  }

  sample(t: number, host: number, counts: HostCounts): HostSample {
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const { heapUsed, rss } = process.memoryUsage();
    const sample: HostSample = {
      t,
      host,
      heapMB: round(heapUsed / 2 ** 20),
      rssMB: round(rss / 2 ** 20),
      fds: readdirSync('/proc/self/fd').length,
      ...processCounts(this.#home),
      loopDelayP99Ms: round(this.#delay.percentile(99) / 1e6),
      loopDelayMaxMs: round(this.#delay.max / 1e6),
      processListeners: process.eventNames().reduce((n, name) => n + process.listenerCount(name), 0),
      activeResources: process.getActiveResourcesInfo().length,
      ...counts,
    };
    this.#delay.reset();
    return sample;
  }

  stop(): void {
    this.#delay.disable();
  }
}

function processCounts(home: string): { cliProcesses: number; childProcesses: number } {
  const needle = `HOME=${home}\0`;
  let cliProcesses = 0;
  let childProcesses = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z' || fields[0] === 'X') continue;
      // The TypeScript loader the host runs under (tsx) keeps an esbuild service as its child, started
      // again whenever a module is first compiled: it is the test harness's, not Warden's.
      if (
        Number(fields[1]) === process.pid &&
        !readFileSync(`/proc/${entry}/cmdline`, 'latin1').includes('esbuild')
      )
        childProcesses += 1;
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').includes(needle)) cliProcesses += 1;
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return { cliProcesses, childProcesses };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
