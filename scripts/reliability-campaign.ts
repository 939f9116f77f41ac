// The long campaign of the model-based test and the fuzzers: runs them with wide bounds, keeps each one's
// `[reliability]` summary line, writes docs/reliability/results/campaign.json and re-renders
// RELIABILITY.md. Usage (defaults shown):
//   node --import tsx scripts/reliability-campaign.ts [--model-runs 3000] [--model-seconds 420]
//     [--model-commands 80] [--fuzz-seconds 60] [--only model|fuzz|storage]
// The storage fault tests (test/reliability/storage-faults*) run as they are; what held is the list of
// their passing tests, and storage-faults.json is written for them.
// Exits 1 when a test fails (the results are then not written: a failure is fixed, not published).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';

import { RESULTS_DIR, writeReport } from './reliability-report.js';

const args = process.argv.slice(2);
const valueOf = (flag: string, fallback: string): string => {
  const at = args.indexOf(flag);
  return at < 0 ? fallback : (args[at + 1] ?? fallback);
};
const only = valueOf('--only', 'all');

/** What each part checks (the same whatever the bounds). */
const MODEL_HELD = [
  'after every step, the real supervisor agrees with the model: every CLI request got the answer the model expects, thread modes and liveness match',
  'every pending approval has a CLI request still waiting; every request is answered at most once, and as the log says',
  '`seq` and `threadSeq` are contiguous; each approval is settled at most once in the log',
  'the projections equal a fresh fold of the log; no run is running and no subagent runs without a live process',
];
const FUZZ_HELD = [
  "the CLI's stdout: every input ends cleanly or with a typed WardenError, never a hang or an untyped throw",
  'HTTP: every random body and query string gets a 2xx or a typed 4xx; nothing is reported as unexpected (no 500)',
  'WebSocket: random upgrade queries get a 101 or a typed 4xx; after random client frames the server still answers a ping and an HTTP request',
  'session transcript files: listSessions, getSessionInfo and getSessionMessages never throw on mutated or random lines',
];

interface Ran {
  command: string;
  seconds: number;
  lines: string[];
  /** The spec reporter's passing tests, in order. */
  passed: string[];
  skipped: number;
  status: number;
}

function run(env: Record<string, string>, filter: string): Ran {
  const command = [...Object.entries(env).map(([k, v]) => `${k}=${v}`), 'node scripts/test.mjs', filter].join(
    ' ',
  );
  process.stderr.write(`campaign: ${command}\n`);
  const started = Date.now();
  const result = spawnSync(process.execPath, ['scripts/test.mjs', filter], {
    env: { ...process.env, ...env, WARDEN_TEST_LEAK_CHECK: '0' },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  process.stderr.write(result.stdout.split('\n').slice(-15).join('\n'));
  const lines = [...result.stdout.matchAll(/\[reliability\][^\n]*/g)].map((m) => m[0]);
  // Leaf tests only: the spec reporter closes a suite with its own ✔ line, after its tests (indented further).
  const passed = [...result.stdout.matchAll(/^( *)✔ (.*?)(?: \([\d.]+m?s\))?$/gm)]
    .filter((m, i, all) => (all[i - 1]?.[1]?.length ?? 0) <= m[1]!.length || i === 0)
    .map((m) => m[2]!);
  const skipped = Number(/^ℹ skipped (\d+)/m.exec(result.stdout)?.[1] ?? 0);
  return {
    command,
    seconds: Math.round((Date.now() - started) / 1000),
    lines,
    passed,
    skipped,
    status: result.status ?? 1,
  };
}

const path = `${RESULTS_DIR}/campaign.json`;
const previous = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>) : {};
const date = new Date().toISOString().slice(0, 10);
const campaign: Record<string, unknown> = { ...previous };
let failed = false;

if (only === 'all' || only === 'model') {
  const model = run(
    {
      WARDEN_MODEL_RUNS: valueOf('--model-runs', '3000'),
      WARDEN_MODEL_SECONDS: valueOf('--model-seconds', '420'),
      WARDEN_MODEL_COMMANDS: valueOf('--model-commands', '80'),
    },
    'test/reliability/supervisor-model',
  );
  failed ||= model.status !== 0;
  campaign.model = {
    command: model.command,
    date,
    seconds: model.seconds,
    summary: model.lines,
    held: MODEL_HELD,
    fixed: [],
  };
}
if (only === 'all' || only === 'fuzz') {
  const fuzz = run(
    { WARDEN_FUZZ_RUNS: '1000000', WARDEN_FUZZ_SECONDS: valueOf('--fuzz-seconds', '60') },
    'test/reliability/fuzz-',
  );
  failed ||= fuzz.status !== 0;
  campaign.fuzz = {
    command: fuzz.command,
    date,
    seconds: fuzz.seconds,
    summary: fuzz.lines,
    held: FUZZ_HELD,
    fixed: [],
    boundaries: fuzz.lines.map((line) => {
      const [name, ...rest] = line.replace('[reliability] fuzz ', '').split(': ');
      return { boundary: name ?? line, ran: rest.join(': ') };
    }),
  };
}
if (only === 'all' || only === 'storage') {
  const storage = run({}, 'test/reliability/storage-faults');
  failed ||= storage.status !== 0;
  const summary = `${storage.passed.length} fault scenarios passed${storage.skipped > 0 ? `, ${storage.skipped} skipped (no small tmpfs could be mounted)` : ''}, ${storage.seconds} s`;
  mkdirSync(RESULTS_DIR, { recursive: true });
  if (storage.status === 0)
    writeFileSync(
      `${RESULTS_DIR}/storage-faults.json`,
      `${JSON.stringify({ command: storage.command.trim(), date, seconds: storage.seconds, summary: [summary], held: storage.passed, fixed: [] }, null, 1)}\n`,
    );
}
if (failed) {
  process.stderr.write('campaign: a test failed; nothing written\n');
  process.exit(1);
}
mkdirSync(RESULTS_DIR, { recursive: true });
if (only !== 'storage') writeFileSync(path, `${JSON.stringify(campaign, null, 1)}\n`);
writeReport();
process.stderr.write('campaign: wrote its results and RELIABILITY.md\n');
