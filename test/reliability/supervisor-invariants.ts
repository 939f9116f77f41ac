// What must hold after every step of the model-based test, whatever the history: the real supervisor agrees
// with the model, every pending approval has a CLI request still waiting, every request was answered at
// most once and as the log says, the log is contiguous, the projections are exactly a fresh fold of the
// log, and no run is running without a live process.
import assert from 'node:assert/strict';

import Database from 'better-sqlite3';

import type { StoredEvent } from '../../src/store/event-types.js';
import { migrate } from '../../src/store/migrations.js';
import { Projector } from '../../src/store/projector.js';
import {
  approvalFromRow,
  runFromRow,
  subagentFromRow,
  threadFromRow,
  type Row,
} from '../../src/store/rows.js';
import type { EventDraft } from '../../src/store/event-types.js';
import type { Supervisor } from '../../src/supervisor/index.js';
import { titleFromPrompt } from '../../src/supervisor/runtime/thread-title.js';
import { assertContiguous } from '../e2e/helpers/supervisor-session.js';
import { until, type AskStatus, type Model, type Real, type RealAsk } from './supervisor-model.js';

function realStatus(ask: RealAsk): AskStatus {
  if (ask.answers === 0) return 'pending';
  return ask.answer?.behavior === 'allow' ? 'allow' : 'deny';
}

function threadStatuses(model: Model, real: Real): { expected: unknown; actual: unknown } {
  return {
    expected: model.threads.map((t) => ({ mode: t.mode, status: t.live ? 'live' : 'idle' })),
    actual: real.threads.map((t) => {
      const record = real.sup.getThread(t.id).thread;
      return { mode: record.mode, status: record.status };
    }),
  };
}

/** Waits (bounded) for the real side to reach the model's state, then compares them. */
export async function assertMatchesModel(model: Model, real: Real): Promise<void> {
  const expected = (): AskStatus[] => model.asks.map((a) => a.status);
  const actual = (): AskStatus[] => real.asks.map(realStatus);
  const same = (): boolean => {
    const threads = threadStatuses(model, real);
    return (
      JSON.stringify(expected()) === JSON.stringify(actual()) &&
      JSON.stringify(threads.expected) === JSON.stringify(threads.actual)
    );
  };
  await until(same);
  assert.deepEqual(actual(), expected(), 'every CLI request got the answer the model expects');
  const threads = threadStatuses(model, real);
  assert.deepEqual(threads.actual, threads.expected, 'thread modes and liveness match the model');
}

/** Every invariant, on the real side alone. */
export function assertInvariants(real: Real): void {
  const sup = real.sup;
  const pending = sup.listApprovals({ status: 'pending' });
  for (const approval of pending) {
    const ask = real.asks.find((a) => a.approvalId === approval.id);
    assert.ok(ask !== undefined, `pending approval ${approval.id} belongs to a CLI request`);
    assert.equal(ask.answers, 0, `pending approval ${approval.id} has a live requester`);
  }
  for (const ask of real.asks) {
    assert.ok(ask.answers <= 1, 'a request is answered at most once');
    if (ask.approvalId === undefined) continue;
    const approval = sup.getApproval(ask.approvalId);
    if (approval.status === 'pending') {
      assert.equal(ask.answers, 0, `approval ${approval.id} is pending, so its request is unanswered`);
      continue;
    }
    assert.equal(ask.answers, 1, `settled approval ${approval.id} (${approval.status}) was answered`);
    const expected = approval.status === 'allowed' ? 'allow' : 'deny';
    assert.equal(ask.answer?.behavior, expected, `the CLI heard what the log says of ${approval.id}`);
  }

  assertLogInvariants(sup);

  for (const thread of sup.listThreads()) {
    if (thread.status === 'live') continue;
    const view = sup.getThread(thread.id);
    for (const run of view.runs)
      assert.ok(
        run.status !== 'running' && run.status !== 'queued',
        `run ${run.id} is ${run.status} while thread ${thread.id} has no process`,
      );
    for (const subagent of view.subagents)
      assert.notEqual(
        subagent.status,
        'running',
        `subagent ${subagent.id} runs while its thread has no process`,
      );
  }
}

/** The log's own invariants: contiguous numbering, one settlement per approval, projections = fold. */
export function assertLogInvariants(sup: Supervisor): void {
  const events = readAll(sup);
  assertContiguous(events);
  assert.deepEqual(
    events.filter(
      (e) =>
        e.type === 'approval.decided' || e.type === 'approval.cancelled' || e.type === 'approval.expired',
    ).length,
    new Set(
      events.flatMap((e) =>
        e.type === 'approval.decided' || e.type === 'approval.cancelled' || e.type === 'approval.expired'
          ? [e.data.approvalId]
          : [],
      ),
    ).size,
    'each approval is settled at most once in the log',
  );
  assertProjectionsAreFold(sup, events);
}

export function readAll(sup: Supervisor): StoredEvent[] {
  const events: StoredEvent[] = [];
  for (;;) {
    const page = sup.readEvents({ after: events.at(-1)?.seq ?? 0, limit: 1000 });
    if (page.length === 0) return events;
    events.push(...page);
  }
}

/** Folds the log into a fresh in-memory database through the same Projector and compares every record. */
function assertProjectionsAreFold(sup: Supervisor, events: readonly StoredEvent[]): void {
  const db = new Database(':memory:');
  try {
    migrate(db);
    const projector = new Projector(db);
    const setLastSeq = db.prepare('UPDATE threads SET last_seq = ? WHERE id = ?');
    db.transaction(() => {
      for (const event of events) {
        projector.apply(event.threadId, event.at, { type: event.type, data: event.data } as EventDraft);
        setLastSeq.run(event.threadSeq, event.threadId);
      }
    })();
    const rows = (sql: string, ...values: unknown[]): Row[] => db.prepare(sql).all(...values) as Row[];
    const folded = rows('SELECT * FROM threads ORDER BY rowid').map((row) => {
      const thread = threadFromRow(row);
      const runs = rows('SELECT * FROM runs WHERE thread_id = ? ORDER BY rowid', thread.id).map(runFromRow);
      const prompt = runs.find((run) => run.prompt !== null)?.prompt;
      // An untitled thread is shown under its first prompt (the supervisor's read does the same).
      const title =
        thread.title ?? (prompt === undefined || prompt === null ? null : titleFromPrompt(prompt));
      return {
        thread: { ...thread, title },
        runs,
        subagents: rows('SELECT * FROM subagents WHERE thread_id = ? ORDER BY rowid', thread.id).map(
          subagentFromRow,
        ),
        approvals: rows('SELECT * FROM approvals WHERE thread_id = ? ORDER BY rowid', thread.id).map(
          approvalFromRow,
        ),
      };
    });
    const live = sup.listThreads().map((thread) => sup.getThread(thread.id));
    assert.deepEqual(live, folded, 'the projections equal a fresh fold of the log');
  } finally {
    db.close();
  }
}
