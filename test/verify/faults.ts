// The faults the verify runner injects, one at a time, on a schedule drawn from the run's seed: a host
// SIGKILLed and started again; a host paused (SIGSTOP) past its lease, then resumed (SIGCONT); its link to
// PostgreSQL cut, delayed or reset; the PostgreSQL server restarted.
import { setTimeout as sleep } from 'node:timers/promises';

import type { PostgresCluster } from '../../src/testing/postgres-cluster.js';
import type { Fleet } from './fleet.js';
import { between, pick, type Random } from '../reliability/soak/random.js';

export const FAULT_KINDS = ['kill', 'pause', 'link-cut', 'link-delay', 'link-reset', 'pg-restart'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** A host's lease (the store's default): a pause must outlast it for the fleet to see the host as gone. */
const LEASE_MS = 15_000;

/** Injects one fault of `kind` on a host drawn from `random`; resolves once the fleet is whole again. */
export async function injectFault(
  kind: FaultKind,
  fleet: Fleet,
  cluster: PostgresCluster,
  random: Random,
  log: (line: string) => void,
): Promise<void> {
  const host = pick(random, fleet.hosts)!;
  switch (kind) {
    case 'kill': {
      await fleet.kill(host);
      const downMs = between(random, 200, 3000);
      log(`fault: ${host.name} SIGKILLed, back in ${downMs} ms`);
      await sleep(downMs);
      await fleet.restart(host);
      return;
    }
    case 'pause': {
      const pauseMs = LEASE_MS + between(random, 1000, 4000);
      log(`fault: ${host.name} paused (SIGSTOP) for ${pauseMs} ms`);
      host.up = false;
      host.process.child.kill('SIGSTOP');
      await sleep(pauseMs);
      host.process.child.kill('SIGCONT');
      host.up = true;
      return;
    }
    case 'link-cut': {
      const cutMs = between(random, 500, 5000);
      log(`fault: ${host.name}'s link to PostgreSQL cut for ${cutMs} ms`);
      host.proxy.set('cut');
      await sleep(cutMs);
      host.proxy.set('pass');
      return;
    }
    case 'link-delay': {
      const delayMs = between(random, 50, 800);
      const forMs = between(random, 2000, 6000);
      log(`fault: ${host.name}'s link delayed by ${delayMs} ms for ${forMs} ms`);
      host.proxy.set('delay', delayMs);
      await sleep(forMs);
      host.proxy.set('pass');
      return;
    }
    case 'link-reset':
      log(`fault: ${host.name}'s connections to PostgreSQL reset`);
      host.proxy.reset();
      return;
    case 'pg-restart':
      log('fault: PostgreSQL restarted');
      await cluster.restart();
      return;
  }
}
