// Deadlines in a policy simulation, over a real SQLite log written at chosen times (the clock is the
// test's): a past ask still asked under the change is answered by the deadline the live gate would have
// given it — when a person answered after that deadline, or never — and counted, which way it went and
// whether a person had answered otherwise. A protected write is never allowed by a deadline.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it, type TestContext } from 'node:test';

import { SqliteStore, type EventDraft } from '../../src/store/index.js';
import { simulateOverLog } from '../../src/supervisor/approvals/simulation.js';

const MINUTE = 60_000;
const START = Date.parse('2026-12-01T09:00:00Z');

interface Ask {
  readonly toolName: string;
  readonly input: Record<string, unknown>;
  /** Minutes after the ask that a person answered it; undefined: never. */
  readonly answeredAfter?: number;
  readonly answer?: 'allow' | 'deny';
}

/** A store with one thread whose asks were made a minute apart and answered as `asks` say. */
function recorded(t: TestContext, asks: readonly Ask[]): { store: SqliteStore; cwd: string; now: number } {
  const dir = mkdtempSync(join(tmpdir(), 'warden-sim-deadlines-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  t.mock.timers.enable({ apis: ['Date'], now: START });
  const store = SqliteStore.open(join(dir, 'warden.db'));
  t.after(() => store.close());
  const commitAt = (minutes: number, drafts: EventDraft[]) => {
    t.mock.timers.setTime(START + minutes * MINUTE);
    store.commit('thread', drafts);
  };
  commitAt(0, [
    {
      type: 'thread.created',
      data: { cwd: dir, mode: 'supervised', model: null, rules: { allow: [], deny: [] } },
    },
    {
      type: 'run.created',
      data: {
        runId: 'run',
        status: 'running',
        trigger: 'human',
        prompt: 'p',
        userMessageId: 'u',
        generation: 1,
      },
    },
  ]);
  // Every ask first, then the answers in time order, as they would have come.
  const answers: { at: number; draft: EventDraft }[] = [];
  asks.forEach((ask, i) => {
    const approvalId = `approval-${i}`;
    commitAt(i, [
      {
        type: 'approval.requested',
        data: {
          approvalId,
          runId: 'run',
          subagentId: null,
          toolName: ask.toolName,
          input: ask.input,
          toolUseId: `tool-${i}`,
          requestId: `request-${i}`,
          suggestions: [],
          alwaysAllowRules: [],
          blockedPath: null,
          decisionReason: null,
          generation: 1,
        },
      },
    ]);
    if (ask.answeredAfter !== undefined)
      answers.push({
        at: i + ask.answeredAfter,
        draft: {
          type: 'approval.decided',
          data: {
            approvalId,
            behavior: ask.answer ?? 'allow',
            message: null,
            interrupt: false,
            updatedPermissions: null,
            by: 'user',
          },
        },
      });
  });
  for (const { at, draft } of answers.sort((a, b) => a.at - b.at)) commitAt(at, [draft]);
  return { store, cwd: dir, now: START + 24 * 60 * MINUTE };
}

it('says which past asks a deadline would have answered, and which way', (t) => {
  const { store, now } = recorded(t, [
    // 0: npm test, answered after 20 minutes: the 10-minute allowing rule would have answered first.
    { toolName: 'Bash', input: { command: 'npm test -- a' }, answeredAfter: 20, answer: 'allow' },
    // 1: answered in 2 minutes: before any deadline.
    { toolName: 'Bash', input: { command: 'npm test -- b' }, answeredAfter: 2, answer: 'deny' },
    // 2: denied after 20 minutes, where the rule would have allowed: overturned.
    { toolName: 'Bash', input: { command: 'npm test -- c' }, answeredAfter: 20, answer: 'deny' },
    // 3: never answered: the thread's 30-minute default denies it.
    { toolName: 'WebFetch', input: { url: 'https://example.com/', prompt: 'p' } },
    // 4: a protected write never answered: the allowing rule is passed over, the default denies.
    { toolName: 'Write', input: { file_path: '.git/hooks/pre-commit', content: 'x' } },
    // 5: the change allows it outright: no deadline is needed.
    { toolName: 'Read', input: { file_path: '/etc/hostname' }, answeredAfter: 90, answer: 'allow' },
  ]);
  const simulation = simulateOverLog(
    store,
    {
      scope: 'all',
      change: {
        allow: ['Read(//etc/**)'],
        deadlines: {
          afterMs: 30 * MINUTE,
          rules: [
            { rule: 'Bash(npm test:*)', afterMs: 10 * MINUTE, behavior: 'allow' },
            { rule: 'Write', afterMs: 10 * MINUTE, behavior: 'allow' },
          ],
        },
      },
    },
    false,
    now,
  );
  const answered = simulation.requests.map((request) => request.deadline);
  assert.deepEqual(
    answered.map((deadline) => deadline && { behavior: deadline.behavior, rule: deadline.rule }),
    [
      { behavior: 'allow', rule: 'Bash(npm test:*)' },
      undefined,
      { behavior: 'allow', rule: 'Bash(npm test:*)' },
      { behavior: 'deny', rule: null },
      { behavior: 'deny', rule: null },
      undefined,
    ],
  );
  assert.equal(answered[0]?.at, new Date(START + 10 * MINUTE).toISOString(), 'due ten minutes after the ask');
  assert.deepEqual(simulation.summary.deadlines, {
    decided: 4,
    allowed: 2,
    denied: 2,
    overturned: 1,
    unanswered: 2,
  });
  assert.equal(simulation.requests[5]?.now, 'allow');
  assert.match(
    simulation.text,
    / With the deadlines, 4 asks would have been answered by a deadline \(2 allowed, 2 denied\): 1 answered the other way later, 2 never answered\.$/u,
  );
});

it('leaves an ask still waiting alone until its deadline has passed', (t) => {
  const { store } = recorded(t, [
    { toolName: 'WebFetch', input: { url: 'https://example.com/', prompt: 'p' } },
  ]);
  const change = { deadlines: { afterMs: 30 * MINUTE } };
  const early = simulateOverLog(store, { scope: 'all', change }, false, START + 10 * MINUTE);
  assert.equal(early.summary.deadlines?.decided, 0);
  assert.equal(early.requests[0]?.settledAt, null);
  const late = simulateOverLog(store, { scope: 'all', change }, false, START + 31 * MINUTE);
  assert.equal(late.summary.deadlines?.unanswered, 1);
});

it('says nothing of deadlines when the change has none', (t) => {
  const { store, now } = recorded(t, [{ toolName: 'Bash', input: { command: 'npm test' } }]);
  const simulation = simulateOverLog(
    store,
    { scope: 'all', change: { allow: ['Bash(make:*)'] } },
    false,
    now,
  );
  assert.equal(simulation.summary.deadlines, undefined);
  assert.equal(simulation.requests[0]?.deadline, undefined);
  assert.doesNotMatch(simulation.text, /deadline/u);
});
