// 11. Durable decisions per second, end to end (bench/decisions-rate/): many agents whose requests the
// policy answers or people answer, many deciding clients over HTTP, beside the store's own grouped commit
// rate measured in the same run, on SQLite and on PostgreSQL. Runnable alone: bench/decisions-rate.ts.
import { startPostgresCluster } from '../../src/testing/postgres-cluster.js';
import { endToEndOnce, type RateSample, type RateSizes } from '../decisions-rate/end-to-end.js';
import { storeRate, type StoreRate } from '../decisions-rate/store-rate.js';
import { formatBound } from '../lib/bounded.js';
import { describeFailures, wardenFigureOf } from '../lib/figures.js';
import type { Benchmark, BenchContext, BenchmarkResult, Figure, TargetCheck } from '../lib/model.js';
import { failures, type Outcome } from '../lib/outcomes.js';
import { repeat } from '../lib/repeat.js';
import { median } from '../lib/stats.js';
import { DECISIONS_RATE_NOTES } from './findings.js';

const NAME = 'decisions-rate';
const TITLE = 'Durable decisions per second, end to end';
const STORE_DECISIONS = 2000;

type Kind = 'sqlite' | 'postgres';
type Sample = RateSample & { readonly store: StoreRate };

const text = (value: number): string => value.toLocaleString('en-US', { maximumFractionDigits: 0 });

function figuresOf(kind: Kind, outcomes: readonly Outcome<Sample>[]): Figure[] {
  const name = kind === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const spec = (id: string, label: string, unit: string, better: 'higher' | 'lower', digits: number) => ({
    id: `${kind}-${id}`,
    label: `${name}: ${label}`,
    unit,
    better,
    digits,
  });
  return [
    wardenFigureOf(
      spec('rate', 'answers end to end (policy and people)', 'decisions/s', 'higher', 0),
      outcomes,
      (s) => s.decisionsPerSecond,
    ),
    wardenFigureOf(
      spec('store', 'the store alone, grouped', 'decisions/s', 'higher', 0),
      outcomes,
      (s) => s.store.decisionsPerSecond,
    ),
    wardenFigureOf(
      spec('share', 'end to end ÷ the store alone', '×', 'higher', 2),
      outcomes,
      (s) => s.decisionsPerSecond / s.store.decisionsPerSecond,
    ),
    wardenFigureOf(
      spec('policy', 'policy answers', 'answers/s', 'higher', 0),
      outcomes,
      (s) => s.policyPerSecond,
    ),
    wardenFigureOf(spec('post-p50', 'decision POST p50', 'ms', 'lower', 1), outcomes, (s) => s.postP50Ms),
    wardenFigureOf(spec('post-p99', 'decision POST p99', 'ms', 'lower', 1), outcomes, (s) => s.postP99Ms),
    wardenFigureOf(
      spec('cli-p50', 'decide → CLI p50', 'ms', 'lower', 1),
      outcomes,
      (s) => s.decideToCliP50Ms,
    ),
    wardenFigureOf(
      spec('cli-p99', 'decide → CLI p99', 'ms', 'lower', 1),
      outcomes,
      (s) => s.decideToCliP99Ms,
    ),
    wardenFigureOf(spec('cpu', 'host CPU per answer', 'µs', 'lower', 0), outcomes, (s) => s.cpuPerDecisionUs),
    wardenFigureOf(
      spec('machine-cpu', 'every process’s CPU per answer (CLIs, clients, host)', 'µs', 'lower', 0),
      outcomes,
      (s) => s.machineCpuPerDecisionUs,
    ),
    wardenFigureOf(
      spec('busy-cores', 'cores busy over the run, of the machine’s', 'cores', 'lower', 2),
      outcomes,
      (s) => s.busyCores,
    ),
    wardenFigureOf(
      spec('load', 'load average at the run’s start', 'load', 'lower', 1),
      outcomes,
      (s) => s.loadAverage,
    ),
  ];
}

function targets(byKind: ReadonlyMap<Kind, readonly Outcome<Sample>[]>): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const [kind, outcomes] of byKind) {
    const ok = outcomes.flatMap((outcome) => (outcome.ok ? [outcome.value] : []));
    const failed = failures(outcomes);
    const rate = ok.length === 0 ? Number.NaN : median(ok.map((s) => s.decisionsPerSecond));
    const store = ok.length === 0 ? Number.NaN : median(ok.map((s) => s.store.decisionsPerSecond));
    const met = ok.length === 0 ? undefined : failed.length === 0 && rate >= 0.5 * store;
    checks.push({
      target: `${kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'}: end to end at least half the store's grouped rate`,
      met,
      standing: `${text(rate)} decisions/s end to end against ${text(store)}/s for the store alone`,
      ...(met === false
        ? {
            gap:
              failed.length > 0
                ? `failed runs: ${describeFailures(failed)}`
                : 'the host’s one thread: see the profile in the notes',
          }
        : {}),
    });
  }
  return checks;
}

export const decisionsRateBenchmark: Benchmark = {
  name: NAME,
  title: TITLE,
  async run(context: BenchContext): Promise<BenchmarkResult> {
    const runs = context.quick ? 1 : 3;
    const sizes: RateSizes = {
      agents: 16,
      requests: context.quick ? 60 : 250,
      inFlight: 4,
      policyEvery: 2,
      clients: 16,
    };
    const boundMs = 180_000;
    const cluster = await startPostgresCluster({ durable: true });
    const byKind = new Map<Kind, Outcome<Sample>[]>();
    try {
      for (const kind of ['sqlite', 'postgres'] as const)
        byKind.set(
          kind,
          await repeat({
            label: `${NAME}, ${kind}`,
            runs,
            warmup: 1,
            boundMs,
            run: async (signal) => {
              const url = () => (kind === 'postgres' ? cluster.createDatabase() : Promise.resolve(undefined));
              const store = await storeRate(await url(), STORE_DECISIONS, sizes.clients);
              const database = await url();
              const sample = await endToEndOnce(
                sizes,
                database === undefined ? {} : { store: database, hostName: 'bench' },
                signal,
              );
              return { ...sample, store };
            },
            describe: (s) =>
              `${text(s.decisionsPerSecond)} decisions/s (store alone ${text(s.store.decisionsPerSecond)}/s), ` +
              `policy ${text(s.policyPerSecond)}/s, POST p99 ${s.postP99Ms.toFixed(1)} ms, decide → CLI p99 ` +
              `${s.decideToCliP99Ms.toFixed(1)} ms, ${text(s.cpuPerDecisionUs)} µs CPU/answer (all processes ` +
              `${text(s.machineCpuPerDecisionUs)} µs, ${s.busyCores.toFixed(2)} cores busy), load ${s.loadAverage.toFixed(1)}`,
            log: context.log,
          }),
        );
    } finally {
      await cluster.stop();
    }
    const total = sizes.agents * sizes.requests;
    return {
      name: NAME,
      title: TITLE,
      method:
        `A host (bench/supervisor-server/host.ts, a Node process of its own) with ${sizes.agents} threads in ` +
        '`supervised` mode, each a scripted CLI raising ' +
        `${sizes.requests} \`Bash\` permission requests, ${sizes.inFlight} in flight: every ` +
        `${sizes.policyEvery === 2 ? 'second' : `${sizes.policyEvery}th`} is one the thread's rules allow ` +
        '(`Bash(ls:*)`: the policy answers it), the others wait for a person. ' +
        `${sizes.clients} concurrent HTTP clients (keep-alive, Bearer token) are the people: a watcher on ` +
        '`/ws` learns of each approval as a UI does and the next free client POSTs `{"behavior":"allow"}`. ' +
        `${total.toLocaleString('en-US')} answers per run, timed from the first request to the last reply any ` +
        'CLI got; decide → CLI from the POST’s start to the CLI having the answer. Beside it, in the same ' +
        `run, the store alone on a fresh store of the same kind: ${STORE_DECISIONS.toLocaleString('en-US')} ` +
        `decisions of two commits each (requested, decided), ${sizes.clients} per durable(). SQLite: WAL with ` +
        'group commit; PostgreSQL: a throwaway cluster with durable settings, a fresh database per run. ' +
        `Each run bounded at ${formatBound(boundMs)}; ${runs} runs per store after a warm-up. Alone: ` +
        '`npx tsx bench/decisions-rate.ts` (see its usage line; `--tree` compares with another checkout, `--policy-only` measures the policy’s answers alone).',
      runsPerHost: runs,
      parameters: { ...sizes, storeDecisions: STORE_DECISIONS, boundMs },
      figures: [...byKind].flatMap(([kind, outcomes]) => figuresOf(kind, outcomes)),
      targets: targets(byKind),
      notes: DECISIONS_RATE_NOTES,
      wardenOnly:
        'the official SDK has no supervisor, no event log and no server: absolute figures, without a ratio.',
    };
  },
};
