// Durable decisions per second, end to end, beside the store's own grouped commit rate in the same run
// (bench/decisions-rate/). Each round measures the store alone, then a host over HTTP: many agents (the
// policy's answers and people's mixed) and many concurrent deciding clients. On SQLite and on PostgreSQL
// (a throwaway cluster with durable settings, a fresh database per run). `--tree DIR` adds the same run
// against another checkout's host (the code before a change), alternating with this one in every round,
// so that both see the same machine. `--cpu-prof DIR` profiles the hosts (one .cpuprofile per run).
// `--policy-only` has the policy answer every request (`--policy-every 1`): its own rate, no person asked.
// Usage: npx tsx bench/decisions-rate.ts [--store sqlite|postgres|both] [--rounds N] [--agents N]
//   [--requests N] [--in-flight N] [--policy-every N | --policy-only] [--clients N] [--tree DIR]
//   [--cpu-prof DIR]
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

import { startPostgresCluster, type PostgresCluster } from '../src/testing/postgres-cluster.js';
import { bounded } from './lib/bounded.js';
import { endToEndOnce, type RateSample, type RateSizes } from './decisions-rate/end-to-end.js';
import { storeRate } from './decisions-rate/store-rate.js';

const { values } = parseArgs({
  options: {
    store: { type: 'string', default: 'both' },
    rounds: { type: 'string', default: '3' },
    agents: { type: 'string', default: '16' },
    requests: { type: 'string', default: '250' },
    'in-flight': { type: 'string', default: '4' },
    'policy-every': { type: 'string', default: '2' },
    'policy-only': { type: 'boolean', default: false },
    clients: { type: 'string', default: '16' },
    tree: { type: 'string' },
    'cpu-prof': { type: 'string' },
  },
});
const sizes: RateSizes = {
  agents: Number(values.agents),
  requests: Number(values.requests),
  inFlight: Number(values['in-flight']),
  policyEvery: values['policy-only'] ? 1 : Number(values['policy-every']),
  clients: Number(values.clients),
};
const rounds = Number(values.rounds);
const stores = values.store === 'both' ? ['sqlite', 'postgres'] : [values.store];
const trees: [label: string, hostScript: string | undefined][] = [
  ...(values.tree === undefined
    ? []
    : [['before', resolve(values.tree, 'bench/supervisor-server/host.ts')] as [string, string]]),
  ['this', undefined],
];
const profileDir = values['cpu-prof'] === undefined ? undefined : resolve(values['cpu-prof']);

const load = (): string => `load ${loadavg()[0]!.toFixed(1)}`;
const fixed = (value: number, digits = 0): string =>
  Number.isNaN(value)
    ? '—'
    : value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const describe = (s: RateSample): string =>
  `${fixed(s.decisionsPerSecond)} decisions/s (people ${fixed(s.peoplePerSecond)}/s, policy ` +
  `${fixed(s.policyPerSecond)}/s); POST p50 ${fixed(s.postP50Ms, 1)} p99 ${fixed(s.postP99Ms, 1)} ms; ` +
  `decide → CLI p50 ${fixed(s.decideToCliP50Ms, 1)} p99 ${fixed(s.decideToCliP99Ms, 1)} ms; policy ` +
  `p50 ${fixed(s.policyP50Ms, 1)} p99 ${fixed(s.policyP99Ms, 1)} ms; host CPU ` +
  `${fixed(s.cpuPerDecisionUs)} µs/answer (every process ${fixed(s.machineCpuPerDecisionUs)} µs, ` +
  `${fixed(s.busyCores, 2)} of ${s.cores} cores busy); load at start ${s.loadAverage.toFixed(1)}`;

const log = (line: string): void => void process.stdout.write(`${line}\n`);
log(
  `${sizes.agents} agents × ${sizes.requests} requests (${sizes.inFlight} in flight each, every ` +
    `${sizes.policyEvery}th the policy's), ${sizes.clients} deciding clients; ${load()}`,
);
const cluster: PostgresCluster | undefined = stores.includes('postgres')
  ? await startPostgresCluster({ durable: true })
  : undefined;
try {
  for (let round = 1; round <= rounds; round += 1)
    for (const store of stores) {
      const url = store === 'postgres' ? await cluster!.createDatabase() : undefined;
      const rate = await storeRate(url, 2000, sizes.clients);
      log(
        `round ${round} ${store}: store alone ${fixed(rate.commitsPerSecond)} commits/s ` +
          `(${fixed(rate.decisionsPerSecond)} decisions/s, groups of ${sizes.clients}); ${load()}`,
      );
      for (const [label, hostScript] of trees) {
        const database = store === 'postgres' ? await cluster!.createDatabase() : undefined;
        const nodeFlags =
          profileDir === undefined
            ? []
            : ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, `${label}-${store}-${round}`)}`];
        const sample = await bounded(180_000, (signal) =>
          endToEndOnce(
            sizes,
            {
              ...(hostScript === undefined ? {} : { hostScript }),
              ...(database === undefined ? {} : { store: database, hostName: 'bench' }),
              nodeFlags,
            },
            signal,
          ),
        ).then(describe, (error: unknown) => `FAILED: ${String(error)}`);
        log(`round ${round} ${store} ${label}: ${sample}; ${load()}`);
      }
    }
} finally {
  await cluster?.stop();
}
process.exit(0);
