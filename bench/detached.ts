// What a detached CLI costs the host, against a piped one: host CPU and wall time to take N frames of the
// benchmark CLI (throughput mode), and what the spool holds on disk when processed output is released as
// it is read. Both sides read the same CLI script writing the same lines.
// Usage: node --import tsx bench/detached.ts [--frames N] [--bytes B] [--runs R]
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import type { CliTransport } from '../src/transport/cli-transport.js';
import { spawnTransport } from '../src/transport/child-transport.js';
import { spawnDetached } from '../src/transport/detached-child.js';
import { DetachedTransport } from '../src/transport/detached-transport.js';

const { values } = parseArgs({
  options: {
    frames: { type: 'string', default: '100000' },
    bytes: { type: 'string', default: '400' },
    runs: { type: 'string', default: '3' },
  },
});
const FRAMES = Number(values.frames);
const BYTES = Number(values.bytes);
const RUNS = Number(values.runs);
const CLI = fileURLToPath(new URL('./fake-cli/bench-cli.mjs', import.meta.url));
const env = {
  PATH: process.env.PATH,
  BENCH_MODE: 'throughput',
  BENCH_COUNT: String(FRAMES),
  BENCH_BYTES: String(BYTES),
};
const root = mkdtempSync(join(tmpdir(), 'warden-bench-detached-'));

interface Sample {
  cpuMs: number;
  wallMs: number;
  /** Largest disk use of the spool seen while reading (detached only). */
  spoolPeakBytes: number;
  spoolLength: number;
  /** Disk use once everything read was released. */
  spoolAfterBytes: number;
}

async function take(transport: CliTransport, spool?: DetachedTransport, path?: string): Promise<Sample> {
  const cpu = process.cpuUsage();
  const began = performance.now();
  await transport.send({ type: 'control_request', request_id: 'init', request: { subtype: 'initialize' } });
  await transport.send({ type: 'user', message: { role: 'user', content: 'go' }, parent_tool_use_id: null });
  let count = 0;
  let spoolPeakBytes = 0;
  for await (const frame of transport.frames()) {
    if (frame['type'] === 'assistant') count += 1;
    if (spool !== undefined && path !== undefined && count % 5_000 === 0) {
      // The supervisor releases what it has committed; here every frame read counts as committed.
      void spool.releaseBefore(spool.offset);
      spoolPeakBytes = Math.max(spoolPeakBytes, statSync(path).blocks * 512);
    }
    if (frame['type'] === 'result') break;
  }
  const wallMs = performance.now() - began;
  const used = process.cpuUsage(cpu);
  if (count !== FRAMES) throw new Error(`read ${count} frames, expected ${FRAMES}`);
  const spoolLength = path === undefined ? 0 : statSync(path).size;
  await spool?.releaseBefore(spool.offset);
  const spoolAfterBytes = path === undefined ? 0 : statSync(path).blocks * 512;
  return { cpuMs: (used.user + used.system) / 1000, wallMs, spoolPeakBytes, spoolLength, spoolAfterBytes };
}

async function piped(): Promise<Sample> {
  const transport = await spawnTransport({ command: process.execPath, args: [CLI], env });
  try {
    return await take(transport);
  } finally {
    await transport.close();
  }
}

async function detached(): Promise<Sample> {
  const marker = randomUUID();
  const child = await spawnDetached({
    command: process.execPath,
    args: [CLI],
    cwd: undefined,
    env,
    marker,
    dir: join(root, marker),
  });
  const transport = new DetachedTransport({
    paths: child.paths,
    identity: { pid: child.pid, startTicks: child.startTicks },
    marker,
    exited: child.exited,
  });
  try {
    return await take(transport, transport, child.paths.output);
  } finally {
    await transport.close();
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

const results = { piped: [] as Sample[], detached: [] as Sample[] };
for (let run = 0; run < RUNS; run++) {
  // Alternate, so drift in the machine's load falls on both sides alike.
  results.piped.push(await piped());
  results.detached.push(await detached());
}
rmSync(root, { recursive: true, force: true });

const cpu = {
  piped: median(results.piped.map((s) => s.cpuMs)),
  detached: median(results.detached.map((s) => s.cpuMs)),
};
const wall = {
  piped: median(results.piped.map((s) => s.wallMs)),
  detached: median(results.detached.map((s) => s.wallMs)),
};
const last = results.detached.at(-1);
console.log(`${FRAMES} frames of ~${BYTES} bytes, median of ${RUNS} runs each`);
console.log(
  `host CPU   piped ${cpu.piped.toFixed(0)} ms   detached ${cpu.detached.toFixed(0)} ms   ratio ${(cpu.detached / cpu.piped).toFixed(2)}`,
);
console.log(
  `wall time  piped ${wall.piped.toFixed(0)} ms   detached ${wall.detached.toFixed(0)} ms   ratio ${(wall.detached / wall.piped).toFixed(2)}`,
);
if (last !== undefined)
  console.log(
    `spool      length ${mib(last.spoolLength)}, peak on disk ${mib(last.spoolPeakBytes)} (the CLI writes ahead of the reader), ${mib(last.spoolAfterBytes)} once all is released`,
  );
