// Pinning a helper process (and everything it starts) to one CPU with taskset(1). Two processes that
// answer each other on one core pay a context switch per hop; on different cores they pay a cross-core
// wake-up, whose cost depends on where the scheduler put them and what else runs: on a shared 2-core
// machine that makes latencies bimodal from run to run. Pinned, the figure is the two processes' work.
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** The command prefix that pins to the last core, or undefined where taskset is missing or refused. */
export function pinToOneCore(): readonly string[] | undefined {
  const core = String(availableParallelism() - 1);
  const probe = spawnSync('taskset', ['-c', core, 'true'], { stdio: 'ignore' });
  return probe.status === 0 ? ['taskset', '-c', core] : undefined;
}
