// Removing the demo's temporary directories once its CLI processes are gone. Supervisor.close() resolves
// when the CLI's output has ended, which can be a moment before the process has exited — and a CLI still
// exiting writes its session transcript into the scratch HOME. So: wait (bounded) until no process runs
// with that HOME, then remove the tree, retrying while something still writes into it.
import { readdirSync, readFileSync, rmSync } from 'node:fs';

import type { Scratch } from '../testing/index.js';

const WAIT_MS = 10_000;
const POLL_MS = 50;

export async function removeScratch(scratch: Scratch): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (processesUsingHome(scratch.home) > 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  try {
    scratch.cleanup();
  } catch {
    rmSync(scratch.dir, { recursive: true, force: true, maxRetries: 20, retryDelay: POLL_MS });
  }
}

/** Live processes whose environment has this HOME (Linux /proc; elsewhere 0, and the retries remain). */
function processesUsingHome(home: string): number {
  const needle = `HOME=${home}\0`;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return 0;
  }
  let count = 0;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // A zombie has exited already; only its parent's bookkeeping is left.
      if (/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${entry}/stat`, 'utf8'))) continue;
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').includes(needle)) count += 1;
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return count;
}
