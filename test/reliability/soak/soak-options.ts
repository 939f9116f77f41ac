// The soak's two sizes: the one `npm test` runs (about a minute, loose slope bounds: too few samples for a
// fine fit, so the end-of-run checks carry it) and the long one `npm run soak -- --minutes N` runs.
import type { SoakOptions } from './soak.js';

export function soakOptions(
  minutes: number,
  log: (line: string) => void,
  seed = Date.now() % 1e9,
): SoakOptions {
  if (minutes <= 1)
    return {
      loadMs: 45_000,
      scriptedThreads: 100,
      realThreads: 2,
      sampleMs: 2000,
      warmupMs: 5000,
      hostKills: 1,
      scriptedCrashEveryMs: 3000,
      realKillEveryMs: 15_000,
      wsClients: 6,
      maxStepMs: 800,
      maxDecisionDelayMs: 2000,
      bounds: { heapMB: 1500, rssMB: 4000, fds: 3000, activeResources: 10_000, processListeners: 100 },
      seed,
      log,
    };
  const loadMs = minutes * 60_000;
  return {
    loadMs,
    scriptedThreads: 300,
    realThreads: 4,
    sampleMs: Math.min(10_000, loadMs / 40),
    warmupMs: Math.min(300_000, loadMs / 6),
    hostKills: 3,
    scriptedCrashEveryMs: 10_000,
    realKillEveryMs: 60_000,
    wsClients: 10,
    maxStepMs: 1500,
    maxDecisionDelayMs: 4000,
    bounds: { heapMB: 30, rssMB: 120, fds: 30, activeResources: 60, processListeners: 5 },
    seed,
    log,
  };
}
