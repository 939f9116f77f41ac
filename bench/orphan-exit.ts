// How long after the CLI exits does the stream end when a grandchild still holds stdout open?
// The fake CLI in `orphan` mode starts a grandchild that inherits stdout, writes a few frames and exits.
// Measured: from the transport's 'exit' notification to the end of frames() (including the kill of the
// grandchild). Usage: node --import tsx bench/orphan-exit.ts [runs=20]

import { fileURLToPath } from 'node:url';
import { spawnTransport } from '../src/transport/index.js';

const FAKE_CLI = fileURLToPath(new URL('../test/fixtures/fake-cli.mjs', import.meta.url));
const runs = Number(process.argv[2] ?? 20);

async function once(): Promise<number> {
  const transport = await spawnTransport({
    command: process.execPath,
    args: [FAKE_CLI, '--mode', 'orphan'],
    env: { PATH: process.env['PATH'], FAKE_CLI_EXIT_CODE: '0' },
  });
  let exitedAt: number | undefined;
  void transport.exited.then(() => (exitedAt = performance.now()));
  try {
    let frames = 0;
    for await (const _frame of transport.frames()) frames += 1;
    const endedAt = performance.now();
    if (frames !== 4) throw new Error(`expected 4 frames, got ${frames}`);
    if (exitedAt === undefined) throw new Error('the stream ended before the exit was seen');
    return endedAt - exitedAt;
  } finally {
    await transport.close();
  }
}

const samples: number[] = [];
for (let i = 0; i < runs; i += 1) samples.push(await once());
samples.sort((a, b) => a - b);
const middle = Math.floor(samples.length / 2);
const median = samples.length % 2 === 1 ? samples[middle]! : (samples[middle - 1]! + samples[middle]!) / 2;
const format = (ms: number): string => `${ms.toFixed(1)} ms`;
console.log(`orphan holding stdout: CLI exit -> end of stream, ${runs} runs`);
console.log(`median ${format(median)}  min ${format(samples[0]!)}  max ${format(samples.at(-1)!)}`);
