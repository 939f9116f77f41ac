// How long a policy simulation takes over a large history, end to end: N recorded permission requests in
// a real SQLite store (each behind the assistant message that asked for it, as a log holds them; across
// 20 threads), read back from the event log and put to the policy with a change, as
// `Supervisor.simulatePolicy` does (`simulateOverLog`). The mix: Bash commands through the parse (with
// pipes, `&&` and redirections), file writes and edits with real-path checks, reads outside the cwd, web
// fetches and MCP calls; a third answered by the policy, the rest asked and answered by a person.
// `--unique`: no two requests share a command or a path (the worst case for what is looked up once).
// Usage: npx tsx bench/policy-simulate.ts [--requests 100000] [--runs 5] [--unique]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import type { PolicyChange } from '../src/policy/simulate.js';
import { SqliteStore, type EventDraft } from '../src/store/index.js';
import { recordedRequests, simulateOverLog } from '../src/supervisor/approvals/simulation.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '5' },
    unique: { type: 'boolean', default: false },
    keep: { type: 'string' },
  },
});
/** `i % m`, or `i` itself when every request is to be unique. */
const mod = (i: number, m: number): number => (values.unique ? i : i % m);
const N = Number(values.requests);
const RUNS = Number(values.runs);
const THREADS = 20;

interface Kind {
  readonly label: string;
  readonly request: (i: number) => { toolName: string; input: Record<string, unknown> };
}
const KINDS: readonly Kind[] = [
  {
    label: 'Bash git status',
    request: (i) => ({ toolName: 'Bash', input: { command: `git status --short dir${mod(i, 50)}` } }),
  },
  {
    label: 'Bash npm run … && git diff',
    request: (i) => ({
      toolName: 'Bash',
      input: { command: `npm run build -- --filter pkg${mod(i, 7)} && git diff --stat` },
    }),
  },
  {
    label: 'Bash rm … | tee (a write)',
    request: (i) => ({
      toolName: 'Bash',
      input: { command: `rm -rf build/${mod(i, 13)} | tee log${mod(i, 3)}.txt` },
    }),
  },
  {
    label: 'Write src/…',
    request: (i) => ({ toolName: 'Write', input: { file_path: `src/module${mod(i, 97)}.ts`, content: 'x' } }),
  },
  {
    label: 'Edit .github/workflows/… (protected)',
    request: (i) => ({
      toolName: 'Edit',
      input: { file_path: `.github/workflows/ci${mod(i, 3)}.yml`, old_string: 'a', new_string: 'b' },
    }),
  },
  {
    label: 'Read /etc/…',
    request: (i) => ({ toolName: 'Read', input: { file_path: `/etc/file${mod(i, 11)}` } }),
  },
  {
    label: 'WebFetch',
    request: (i) => ({
      toolName: 'WebFetch',
      input: { url: `https://docs.example.com/${mod(i, 17)}`, prompt: 'p' },
    }),
  },
  {
    label: 'mcp__db__query',
    request: (i) => ({ toolName: 'mcp__db__query', input: { sql: `select ${i}` } }),
  },
];

const dir = mkdtempSync(join(tmpdir(), 'warden-bench-sim-'));
const cwd = values.keep === undefined ? join(dir, 'project') : `${values.keep}.project`;
// The project the threads work in, with some of the files the requests name (most are new files).
for (const folder of ['src', '.github/workflows', 'build']) mkdirSync(join(cwd, folder), { recursive: true });
for (let i = 0; i < 20; i++) writeFileSync(join(cwd, 'src', `module${i}.ts`), '');
writeFileSync(join(cwd, 'package.json'), '{}');
const store = SqliteStore.open(values.keep ?? join(dir, 'warden.db'));

/** The log: threads with a run each, then per request its assistant message and how it was decided. */
function seed(): void {
  for (let t = 0; t < THREADS; t++)
    store.commit(`thread-${t}`, [
      {
        type: 'thread.created',
        data: {
          cwd,
          mode: 'supervised',
          model: null,
          rules: { allow: ['Bash(git status:*)', 'Read(//etc/**)'], deny: ['Bash(rm:*)'] },
        },
      },
      {
        type: 'run.created',
        data: {
          runId: `run-${t}`,
          status: 'running',
          trigger: 'human',
          prompt: 'p',
          userMessageId: 'u',
          generation: 1,
        },
      },
    ]);
  const batches = new Map<string, EventDraft[]>();
  const flush = (threadId: string, drafts: EventDraft[]) => {
    store.commit(threadId, drafts);
    drafts.length = 0;
  };
  for (let i = 0; i < N; i++) {
    const t = i % THREADS;
    const threadId = `thread-${t}`;
    const runId = `run-${t}`;
    const { toolName, input } = (KINDS[i % KINDS.length] as Kind).request(i);
    const toolUseId = `tool-${i}`;
    const drafts = batches.get(threadId) ?? [];
    batches.set(threadId, drafts);
    drafts.push({
      type: 'message.assistant',
      data: {
        runId,
        agentId: null,
        parentToolUseId: null,
        messageId: `msg-${i}`,
        blocks: [
          { type: 'text', text: 'I will run this next. '.repeat(6) },
          { type: 'tool_use', id: toolUseId, name: toolName, input },
        ],
      },
    });
    const base = { runId, subagentId: null, toolName, input, toolUseId };
    if (i % 3 === 0) {
      drafts.push({
        type: 'permission.decided',
        data: {
          ...base,
          behavior: 'allow',
          source: 'rule',
          rule: 'Bash(git status:*)',
          reason: 'allowed by rule',
        },
      });
    } else {
      const approvalId = `approval-${i}`;
      drafts.push(
        {
          type: 'approval.requested',
          data: {
            ...base,
            approvalId,
            requestId: `req-${i}`,
            suggestions: [],
            alwaysAllowRules: [],
            blockedPath: null,
            decisionReason: null,
            generation: 1,
          },
        },
        {
          type: 'approval.decided',
          data: {
            approvalId,
            behavior: i % 2 === 0 ? 'allow' : 'deny',
            message: null,
            interrupt: false,
            updatedPermissions: null,
            by: 'user',
          },
        },
      );
    }
    if (drafts.length >= 600) flush(threadId, drafts);
  }
  for (const [threadId, drafts] of batches) if (drafts.length > 0) flush(threadId, drafts);
}

const change: PolicyChange = {
  allow: ['Bash(npm run *)', 'Write(src/**)', 'mcp__db__*'],
  deny: ['WebFetch'],
  mode: 'auto-edits',
};

const times: number[] = [];
/** CPU time of each run (user + system): what the figure would be on an idle core. */
const cpuTimes: number[] = [];
let text = '';
let events = 0;
let readMs = NaN;
const seedStarted = performance.now();
try {
  seed();
  events = store.lastSeq();
  const seeded = performance.now() - seedStarted;
  console.log(`Seeded ${events.toLocaleString('en')} events in ${(seeded / 1000).toFixed(1)} s`);
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    text = simulateOverLog(store, { scope: 'all', change }, true).text;
    times.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    cpuTimes.push((used.user + used.system) / 1000);
  }
  // Where the time goes: the reading of the log alone, once more.
  const started = performance.now();
  recordedRequests(store, () => true);
  readMs = performance.now() - started;
} finally {
  store.close();
  rmSync(dir, { recursive: true, force: true });
}
times.sort((a, b) => a - b);
cpuTimes.sort((a, b) => a - b);
const [one, five, fifteen] = loadavg().map((load) => load.toFixed(2));
console.log(
  `Policy simulation over ${N.toLocaleString('en')} recorded requests${values.unique ? ', every one unique' : ''} ` +
    `(${events.toLocaleString('en')} events in SQLite, read from the log), ${RUNS} runs`,
);
console.log(
  `  median ${(times[Math.floor(RUNS / 2)] ?? NaN).toFixed(0)} ms, min ${(times[0] ?? NaN).toFixed(0)} ms, max ${(times.at(-1) ?? NaN).toFixed(0)} ms`,
);
console.log(
  `  CPU time median ${(cpuTimes[Math.floor(RUNS / 2)] ?? NaN).toFixed(0)} ms; reading the log alone ${readMs.toFixed(0)} ms`,
);
console.log(`  mix (in turn, ${THREADS} threads): ${KINDS.map((kind) => kind.label).join('; ')}`);
console.log(`  load average ${one} ${five} ${fifteen}`);
console.log(`  ${text}`);
