// Store throughput: events per second and approval decisions per second through SqliteStore, each change
// its own transaction, as the supervisor writes them. A commit writes the WAL without an fsync; durable()
// makes every commit before it durable with one fsync (group commit). Decisions are timed durable: one at
// a time (commit, then wait for its fsync) and `--group` at a time (as that many concurrent requests do:
// each commits, all wait on the same fsync).
// Usage: node --import tsx bench/store.ts [--events N] [--decisions N] [--group N] [--dir PATH]
// --dir chooses where the database lives (default: the OS temp dir); fsync cost depends on that disk.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { SqliteStore, type EventDraft } from '../src/store/index.js';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '5000' },
    decisions: { type: 'string', default: '2000' },
    group: { type: 'string', default: '8' },
    dir: { type: 'string', default: tmpdir() },
  },
});
const EVENTS = Number(values.events);
const DECISIONS = Number(values.decisions);
const GROUP = Number(values.group);

/** The filesystem type under `path`, from /proc/mounts (the longest matching mount point). */
function filesystemOf(path: string): string {
  try {
    const mounts = readFileSync('/proc/mounts', 'utf8')
      .split('\n')
      .map((line) => line.split(' '))
      .filter((fields) => fields.length > 2 && path.startsWith(fields[1] ?? '\0'));
    mounts.sort((a, b) => (b[1]?.length ?? 0) - (a[1]?.length ?? 0));
    return mounts[0]?.[2] ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

function rate(count: number, started: bigint): number {
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return Math.round(count / seconds);
}

const dir = mkdtempSync(join(values.dir, 'warden-bench-'));
const store = SqliteStore.open(join(dir, 'warden.db'));
try {
  store.commit('t', [
    {
      type: 'thread.created',
      data: { cwd: dir, mode: 'supervised', model: null, rules: { allow: [], deny: [] } },
    },
    {
      type: 'run.created',
      data: {
        runId: 'r',
        status: 'running',
        trigger: 'human',
        prompt: 'p',
        userMessageId: 'u',
        generation: 1,
      },
    },
  ]);
  const assistant: EventDraft = {
    type: 'message.assistant',
    data: {
      runId: 'r',
      agentId: null,
      parentToolUseId: null,
      messageId: 'msg',
      blocks: [
        { type: 'text', text: 'A typical assistant message of a couple of hundred bytes. '.repeat(4) },
      ],
    },
  };

  let started = process.hrtime.bigint();
  // Events as a CLI's frames come: committed one by one, durable by the fsync after the burst.
  for (let i = 0; i < EVENTS; i++) store.commit('t', [assistant]);
  await store.durable();
  const eventsPerSecond = rate(EVENTS, started);

  started = process.hrtime.bigint();
  for (let i = 0; i < EVENTS; i += 100)
    store.commit(
      't',
      Array.from({ length: 100 }, () => assistant),
    );
  const batchedEventsPerSecond = rate(EVENTS, started);

  // Approvals to decide, created in batches (not timed).
  for (let i = 0; i < DECISIONS; i += 100)
    store.commit(
      't',
      Array.from({ length: Math.min(100, DECISIONS - i) }, (_, j) => ({
        type: 'approval.requested' as const,
        data: {
          approvalId: `a${i + j}`,
          runId: 'r',
          subagentId: null,
          toolName: 'Bash',
          input: { command: 'cat /etc/os-release' },
          toolUseId: `t${i + j}`,
          requestId: `q${i + j}`,
          suggestions: [],
          alwaysAllowRules: [],
          blockedPath: null,
          decisionReason: null,
          generation: 1,
        },
      })),
    );
  const decide = (i: number): void =>
    void store.commit('t', [
      {
        type: 'approval.decided',
        data: {
          approvalId: `a${i}`,
          behavior: 'allow',
          message: null,
          interrupt: false,
          updatedPermissions: null,
          by: 'user',
        },
      },
    ]);
  const half = Math.floor(DECISIONS / 2);
  started = process.hrtime.bigint();
  for (let i = 0; i < half; i++) {
    decide(i);
    await store.durable();
  }
  const decisionsPerSecond = rate(half, started);
  started = process.hrtime.bigint();
  for (let i = half; i < DECISIONS; i += GROUP) {
    const waits: Promise<void>[] = [];
    for (let j = i; j < Math.min(i + GROUP, DECISIONS); j++) {
      decide(j);
      waits.push(store.durable());
    }
    await Promise.all(waits);
  }
  const groupedDecisionsPerSecond = rate(DECISIONS - half, started);

  // A second decision on a settled approval: the compare-and-set refuses it and writes nothing.
  started = process.hrtime.bigint();
  let conflicts = 0;
  for (let i = 0; i < DECISIONS; i++) {
    try {
      store.commit('t', [
        {
          type: 'approval.decided',
          data: {
            approvalId: `a${i}`,
            behavior: 'deny',
            message: null,
            interrupt: false,
            updatedPermissions: null,
            by: 'user',
          },
        },
      ]);
    } catch {
      conflicts += 1;
    }
  }
  const conflictsPerSecond = rate(DECISIONS, started);
  if (conflicts !== DECISIONS) throw new Error(`expected ${DECISIONS} conflicts, got ${conflicts}`);

  const result = {
    node: process.version,
    filesystem: filesystemOf(dir),
    events: EVENTS,
    decisions: DECISIONS,
    eventsPerSecond,
    batchedEventsPerSecond,
    decisionsPerSecond,
    group: GROUP,
    groupedDecisionsPerSecond,
    conflictsPerSecond,
  };
  console.log(JSON.stringify(result, null, 2));
} finally {
  store.close();
  rmSync(dir, { recursive: true, force: true });
}
