// How long a policy simulation takes over a large history: N recorded requests (Bash commands through the
// parse, file writes with real-path checks, reads, web fetches, MCP calls; across 20 threads) put to the
// policy with a change, as `Supervisor.simulatePolicy` does once it has read them from the log.
// `--unique`: no two requests share a command or a path (the worst case for what is looked up once).
// Usage: node --import tsx bench/policy-simulate.ts [--requests 100000] [--runs 5] [--unique]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { simulatePolicy, type RecordedRequest, type ThreadPolicy } from '../src/policy/simulate.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '5' },
    unique: { type: 'boolean', default: false },
  },
});
/** `i % m`, or `i` itself when every request is to be unique. */
const mod = (i: number, m: number): number => (values.unique ? i : i % m);
const N = Number(values.requests);
const RUNS = Number(values.runs);

const cwd = mkdtempSync(join(tmpdir(), 'warden-bench-sim-'));
const KINDS: readonly ((i: number) => Pick<RecordedRequest, 'toolName' | 'input'>)[] = [
  (i) => ({ toolName: 'Bash', input: { command: `git status --short dir${mod(i, 50)}` } }),
  (i) => ({
    toolName: 'Bash',
    input: { command: `npm run build -- --filter pkg${mod(i, 7)} && git diff --stat` },
  }),
  (i) => ({ toolName: 'Bash', input: { command: `rm -rf build/${mod(i, 13)} | tee log${mod(i, 3)}.txt` } }),
  (i) => ({ toolName: 'Write', input: { file_path: `src/module${mod(i, 97)}.ts`, content: 'x' } }),
  (i) => ({
    toolName: 'Edit',
    input: { file_path: `.github/workflows/ci${mod(i, 3)}.yml`, old_string: 'a', new_string: 'b' },
  }),
  (i) => ({ toolName: 'Read', input: { file_path: `/etc/file${mod(i, 11)}` } }),
  (i) => ({ toolName: 'WebFetch', input: { url: `https://docs.example.com/${mod(i, 17)}`, prompt: 'p' } }),
  (i) => ({ toolName: 'mcp__db__query', input: { sql: `select ${i}` } }),
];
const requests: RecordedRequest[] = Array.from({ length: N }, (_, i) => {
  const kind = KINDS[i % KINDS.length];
  if (kind === undefined) throw new Error('no kind');
  return {
    seq: i + 1,
    at: new Date(1_700_000_000_000 + i * 1000).toISOString(),
    threadId: `thread-${mod(i, 20)}`,
    ...kind(i),
    cli: {},
    then: i % 3 === 0 ? 'allow' : 'ask',
    outcome: i % 3 === 0 ? 'allowed' : i % 2 === 0 ? 'allowed' : 'denied',
  };
});
const policy: ThreadPolicy = {
  mode: 'supervised',
  rules: { allow: ['Bash(git status:*)', 'Read(//etc/**)'], deny: ['Bash(rm:*)'] },
  cwd,
  osEnforced: true,
};
const change = {
  allow: ['Bash(npm run *)', 'Write(src/**)', 'mcp__db__*'],
  deny: ['WebFetch'],
  mode: 'auto-edits' as const,
};

const times: number[] = [];
let text = '';
try {
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    text = simulatePolicy(requests, () => policy, change).text;
    times.push(performance.now() - started);
  }
} finally {
  rmSync(cwd, { recursive: true, force: true });
}
times.sort((a, b) => a - b);
console.log(
  `Policy simulation over ${N.toLocaleString('en')} recorded requests${values.unique ? ', every one unique' : ''}, ${RUNS} runs`,
);
console.log(
  `  median ${(times[Math.floor(RUNS / 2)] ?? NaN).toFixed(0)} ms, min ${(times[0] ?? NaN).toFixed(0)} ms, max ${(times.at(-1) ?? NaN).toFixed(0)} ms`,
);
console.log(`  ${text}`);
