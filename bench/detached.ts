// What a detached CLI costs the host against a piped one: the reads of benchmark 7 (`npm run bench --
// durable`), alone, with sizes of your choosing. Each read runs in a host process of its own
// (bench/durable/read-host.ts). Usage:
//   node --import tsx bench/detached.ts [--frames N] [--bytes B] [--runs R] [--rate F]
// --rate paces the CLI at F frames/s (0, the default, writes flat out).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import type { ReadConfig, ReadSample } from './durable/read-host.js';
import { runChild } from './lib/child-run.js';
import { median } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    frames: { type: 'string', default: '100000' },
    bytes: { type: 'string', default: '400' },
    runs: { type: 'string', default: '3' },
    rate: { type: 'string', default: '0' },
  },
});
const READ_HOST = fileURLToPath(new URL('./durable/read-host.ts', import.meta.url));
const base = { frames: Number(values.frames), bytes: Number(values.bytes), rate: Number(values.rate) };

async function read(transport: ReadConfig['transport']): Promise<ReadSample> {
  const dir = mkdtempSync(join(tmpdir(), 'warden-bench-spool-'));
  try {
    const config: ReadConfig = { ...base, transport, dir };
    const [sample] = await runChild({
      script: READ_HOST,
      args: [JSON.stringify(config)],
      nodeFlags: ['--expose-gc'],
      env: process.env,
      signal: new AbortController().signal,
    });
    return sample as unknown as ReadSample;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const runs = { piped: [] as ReadSample[], detached: [] as ReadSample[] };
for (let run = 0; run < Number(values.runs); run++) {
  // Alternate, so drift in the machine's load falls on both sides alike.
  runs.piped.push(await read('piped'));
  runs.detached.push(await read('detached'));
}
const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const row = (label: string, pick: (s: ReadSample) => number, show: (n: number) => string): void => {
  const piped = median(runs.piped.map(pick));
  const detached = median(runs.detached.map(pick));
  console.log(
    `${label.padEnd(11)} piped ${show(piped)}   detached ${show(detached)}   ratio ${(detached / piped).toFixed(2)}`,
  );
};
console.log(`${base.frames} frames of ~${base.bytes} bytes, median of ${values.runs} runs each`);
row(
  'host CPU',
  (s) => s.cpuMs,
  (n) => `${n.toFixed(0)} ms`,
);
row(
  'wall time',
  (s) => s.wallMs,
  (n) => `${n.toFixed(0)} ms`,
);
row('RSS growth', (s) => s.rssGrowthBytes, mib);
row('heap growth', (s) => s.heapGrowthBytes, mib);
const last = runs.detached.at(-1);
if (last !== undefined)
  console.log(
    `spool       length ${mib(last.spoolLength)}, peak on disk ${mib(last.spoolPeakBytes)}, ` +
      `${mib(last.spoolFinalBytes)} once all is released`,
  );
