// A host that reads the bench CLI's throughput burst once, through a pipe (the SDK's transport) or
// through a detached CLI's spool (the supervisor's), in a Node process of its own so that its CPU time and
// memory are the reading's alone. The detached side follows the supervisor's release policy: after every
// frame it would commit, releaseBefore(the offset just past it). Prints one JSON line (ReadSample).
// argv[2]: JSON ReadConfig. Run with --expose-gc.
import { statSync } from 'node:fs';
import { join } from 'node:path';

import type { CliTransport } from '../../src/transport/cli-transport.js';
import { spawnTransport } from '../../src/transport/child-transport.js';
import { spawnDetached } from '../../src/transport/detached-child.js';
import { DetachedTransport, spoolOffsetOf } from '../../src/transport/detached-transport.js';
import { BENCH_CLI, benchCliEnv } from '../lib/fake-cli.js';
import { RUN_MARKER_VARIABLE } from '../lib/processes.js';

export interface ReadConfig {
  readonly transport: 'piped' | 'detached';
  readonly frames: number;
  /** Approximate bytes per assistant line. */
  readonly bytes: number;
  /** Messages per second the CLI keeps to; 0 writes flat out. */
  readonly rate: number;
  /** A fresh directory for the detached CLI's files. */
  readonly dir: string;
}

export interface ReadSample {
  /** This process's CPU time, user + system, from the spawn to the `result`. */
  readonly cpuMs: number;
  readonly wallMs: number;
  /** Largest resident set seen while reading, above the one before the spawn. */
  readonly rssGrowthBytes: number;
  /** Largest V8 heap in use seen while reading, above the one before the spawn (after a full GC). */
  readonly heapGrowthBytes: number;
  /** The spool's length (detached only; 0 piped). */
  readonly spoolLength: number;
  /** Largest disk use of the spool seen while reading. */
  readonly spoolPeakBytes: number;
  /** Disk use of the spool once the last release settled. */
  readonly spoolFinalBytes: number;
}

/** Memory (and the spool's disk use) is looked at every this many frames. */
const SAMPLE_EVERY = 1000;

const config = JSON.parse(process.argv[2] ?? '{}') as ReadConfig;
const marker = process.env[RUN_MARKER_VARIABLE] ?? 'unmarked';
const env = benchCliEnv(marker, {
  BENCH_MODE: 'throughput',
  BENCH_COUNT: String(config.frames),
  BENCH_BYTES: String(config.bytes),
  BENCH_RATE: String(config.rate),
});

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');
gc();
const rssBefore = process.memoryUsage.rss();
const heapBefore = process.memoryUsage().heapUsed;
let rssPeak = rssBefore;
let heapPeak = heapBefore;
let spoolPeakBytes = 0;
const diskUse = (path: string): number => statSync(path).blocks * 512;

const cpu = process.cpuUsage();
const began = performance.now();
let transport: CliTransport;
let detached: DetachedTransport | undefined;
let spool: string | undefined;
if (config.transport === 'piped') {
  transport = await spawnTransport({ command: process.execPath, args: [BENCH_CLI], env });
} else {
  const child = await spawnDetached({
    command: process.execPath,
    args: [BENCH_CLI],
    cwd: undefined,
    env,
    marker,
    dir: join(config.dir, 'cli'),
  });
  spool = child.paths.output;
  detached = new DetachedTransport({
    paths: child.paths,
    identity: { pid: child.pid, startTicks: child.startTicks },
    marker,
    exited: child.exited,
  });
  transport = detached;
}

let count = 0;
try {
  await transport.send({ type: 'control_request', request_id: 'init', request: { subtype: 'initialize' } });
  await transport.send({ type: 'user', message: { role: 'user', content: 'go' }, parent_tool_use_id: null });
  for await (const frame of transport.frames()) {
    if (frame['type'] === 'assistant') {
      count += 1;
      // As the supervisor does after each commit; the transport releases in steps of its own.
      if (detached !== undefined) void detached.releaseBefore(spoolOffsetOf(frame) ?? 0);
      if (count % SAMPLE_EVERY === 0) {
        rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
        heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
        if (spool !== undefined) spoolPeakBytes = Math.max(spoolPeakBytes, diskUse(spool));
      }
    }
    if (frame['type'] === 'result') break;
  }
  const wallMs = performance.now() - began;
  const used = process.cpuUsage(cpu);
  rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
  heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  if (count !== config.frames) throw new Error(`read ${count} frames, expected ${config.frames}`);
  let spoolLength = 0;
  let spoolFinalBytes = 0;
  if (detached !== undefined && spool !== undefined) {
    spoolLength = statSync(spool).size;
    await detached.releaseBefore(detached.offset);
    spoolFinalBytes = diskUse(spool);
    spoolPeakBytes = Math.max(spoolPeakBytes, spoolFinalBytes);
  }
  const sample: ReadSample = {
    cpuMs: (used.user + used.system) / 1000,
    wallMs,
    rssGrowthBytes: rssPeak - rssBefore,
    heapGrowthBytes: heapPeak - heapBefore,
    spoolLength,
    spoolPeakBytes,
    spoolFinalBytes,
  };
  process.stdout.write(`${JSON.stringify(sample)}\n`);
} finally {
  await transport.close();
}
