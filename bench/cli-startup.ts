// How long the real Claude Code CLI takes, spawned directly in stream-json mode against the mock model
// (which answers at once), to reach `system/init` and its first assistant message. Median of 5 runs, with a
// fresh HOME each run (as the e2e tests do) and with one HOME reused (a warm install).
// Run: node --import tsx bench/cli-startup.ts [runs]
import {
  createScratch,
  offlineClaudeEnv,
  pinnedClaudePath,
  scenario,
  startMockModel,
} from '../src/testing/index.js';
import type { Scratch } from '../src/testing/index.js';
import { spawnCli } from '../test/e2e/helpers/cli-process.js';

interface Sample {
  initializeReply: number;
  systemInit: number;
  firstAssistant: number;
  result: number;
}

const runs = Number(process.argv[2] ?? 5);
const executable = pinnedClaudePath();

async function once(mockUrl: string, scratch: Scratch): Promise<Sample> {
  const env = offlineClaudeEnv({ mockUrl, home: scratch.home, tmpdir: scratch.tmpdir });
  const spawnedAt = performance.now();
  const cli = spawnCli({ executable, cwd: scratch.cwd, env });
  try {
    await cli.initialize();
    await cli.sendUserText('[[bench]] hello');
    await cli.waitFor((f) => f.type === 'result');
    const at = (predicate: (f: (typeof cli.frames)[number]) => boolean): number =>
      cli.arrivals[cli.frames.findIndex(predicate)]! - spawnedAt;
    return {
      initializeReply: at((f) => f.type === 'control_response'),
      systemInit: at((f) => f.type === 'system' && f.subtype === 'init'),
      firstAssistant: at((f) => f.type === 'assistant'),
      result: at((f) => f.type === 'result'),
    };
  } finally {
    await cli.stop();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function report(label: string, samples: Sample[]): void {
  const keys = ['initializeReply', 'systemInit', 'firstAssistant', 'result'] as const;
  const cells = keys.map((key) => {
    const values = samples.map((sample) => sample[key]);
    return `${key} ${median(values).toFixed(0)} ms (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`;
  });
  console.log(`${label.padEnd(12)} median of ${samples.length}: ${cells.join(', ')}`);
}

const mock = await startMockModel({ script: scenario().on('bench').thenAnswer('hi').build() });
try {
  const fresh: Sample[] = [];
  for (let i = 0; i < runs; i += 1) {
    const scratch = createScratch('warden-bench-');
    try {
      fresh.push(await once(mock.url, scratch));
    } finally {
      scratch.cleanup();
    }
  }
  const warm: Sample[] = [];
  const shared = createScratch('warden-bench-');
  try {
    await once(mock.url, shared); // populates the HOME; not counted
    for (let i = 0; i < runs; i += 1) warm.push(await once(mock.url, shared));
  } finally {
    shared.cleanup();
  }
  console.log(`Claude Code at ${executable}, times from spawn`);
  report('fresh HOME', fresh);
  report('reused HOME', warm);
} finally {
  await mock.close();
}
