// The benchmarks, in report order. Names are what `npm run bench -- <name>` selects.
import type { Benchmark, PendingBenchmark } from '../lib/model.js';
import { memoryBenchmark } from './memory.js';
import { orphanBenchmark } from './orphan.js';
import { permissionsBenchmark } from './permissions.js';
import { realCliBenchmark } from './real-cli.js';
import { throughputBenchmark } from './throughput.js';

export const BENCHMARKS: readonly (Benchmark | PendingBenchmark)[] = [
  orphanBenchmark,
  permissionsBenchmark,
  throughputBenchmark,
  memoryBenchmark,
  realCliBenchmark,
  {
    name: 'supervisor',
    title: 'Supervisor and server',
    pending:
      'comes with the supervisor and the server (warden/supervisor, the HTTP + WebSocket API); ' +
      'the official SDK has no counterpart to compare against there.',
  },
];
