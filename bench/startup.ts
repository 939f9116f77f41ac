// How much startup() cuts the time to the first assistant message: a cold query() (spawn, initialize and
// the turn all after the prompt is known) against a warm one (startup() done beforehand; the clock starts
// at `.query(prompt)`). The real CLI through the mock model, which answers at once, so what is measured is
// the CLI and the SDK. Median of N runs (default 5) for Warden and, in the same run, the official SDK.
// Run: node --import tsx bench/startup.ts [runs]
import * as official from '@anthropic-ai/claude-agent-sdk';

import * as warden from '../src/index.js';
import {
  createScratch,
  offlineClaudeEnv,
  pinnedClaudePath,
  scenario,
  startMockModel,
  type MockModel,
  type Scratch,
} from '../src/testing/index.js';

type Sdk = typeof official;
const runs = Number(process.argv[2] ?? 5);
const SDKS: [string, Sdk][] = [
  ['warden', warden as unknown as Sdk],
  ['official', official],
];

function optionsFor(mock: MockModel, scratch: Scratch): official.Options {
  return {
    cwd: scratch.cwd,
    pathToClaudeCodeExecutable: pinnedClaudePath(),
    env: offlineClaudeEnv({ mockUrl: mock.url, home: scratch.home, tmpdir: scratch.tmpdir }),
  };
}

/** Iterates to the end; returns ms from `start` to the first assistant message. */
async function firstAssistantAfter(
  start: number,
  messages: AsyncIterable<official.SDKMessage>,
): Promise<number> {
  let first: number | undefined;
  for await (const message of messages) if (message.type === 'assistant') first ??= performance.now() - start;
  if (first === undefined) throw new Error('no assistant message');
  return first;
}

async function cold(sdk: Sdk, options: official.Options): Promise<number> {
  const start = performance.now();
  return firstAssistantAfter(start, sdk.query({ prompt: '[[bench]] hello', options }));
}

async function warm(sdk: Sdk, options: official.Options): Promise<{ prompt: number; startup: number }> {
  const before = performance.now();
  const ready = await sdk.startup({ options });
  const startup = performance.now() - before;
  const start = performance.now();
  const prompt = await firstAssistantAfter(start, ready.query('[[bench]] hello'));
  return { prompt, startup };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const ms = (value: number) => `${value.toFixed(0)} ms`;

const mock = await startMockModel({ script: scenario().on('bench').thenAnswer('hi').build() });
const scratch = createScratch('warden-bench-startup-');
try {
  const options = optionsFor(mock, scratch);
  await cold(warden as unknown as Sdk, options); // populates the HOME; not counted
  console.log(`Claude Code at ${pinnedClaudePath()}; time to the first assistant message, median of ${runs}`);
  const samples = new Map(
    SDKS.map(([name]) => [name, { cold: [] as number[], warm: [] as number[], startup: [] as number[] }]),
  );
  // Interleaved (each SDK, cold then warm, every round), so that drift on the machine affects all alike.
  for (let i = 0; i < runs; i += 1) {
    for (const [name, sdk] of SDKS) {
      const sample = samples.get(name)!;
      sample.cold.push(await cold(sdk, options));
      const w = await warm(sdk, options);
      sample.warm.push(w.prompt);
      sample.startup.push(w.startup);
    }
  }
  for (const [name, sample] of samples) {
    const c = median(sample.cold);
    const w = median(sample.warm);
    console.log(
      `${name.padEnd(9)} cold query() ${ms(c)} | warm startup().query() ${ms(w)} (startup() itself ${ms(median(sample.startup))}) | cut ${ms(c - w)} (${((1 - w / c) * 100).toFixed(0)}%)`,
    );
  }
} finally {
  await mock.close();
  scratch.cleanup();
}
