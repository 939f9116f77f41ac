// The benchmarks, in report order. Names are what `npm run bench -- <name>` selects.
import type { Benchmark, PendingBenchmark } from '../lib/model.js';
import { decisionsRateBenchmark } from './decisions-rate.js';
import { durableBenchmark } from './durable.js';
import { fleetDecisionLatencyBenchmark } from './fleet-decision-latency.js';
import { fleetFanoutBenchmark } from './fleet-fanout.js';
import { fleetMemoryBenchmark } from './fleet-memory.js';
import { memoryBenchmark } from './memory.js';
import { orphanBenchmark } from './orphan.js';
import { permissionsBenchmark } from './permissions.js';
import { realCliBenchmark } from './real-cli.js';
import { supervisorServerBenchmark } from './supervisor-server.js';
import { throughputBenchmark } from './throughput.js';

export const BENCHMARKS: readonly (Benchmark | PendingBenchmark)[] = [
  orphanBenchmark,
  permissionsBenchmark,
  throughputBenchmark,
  memoryBenchmark,
  realCliBenchmark,
  supervisorServerBenchmark,
  durableBenchmark,
  fleetFanoutBenchmark,
  fleetMemoryBenchmark,
  fleetDecisionLatencyBenchmark,
  decisionsRateBenchmark,
];
