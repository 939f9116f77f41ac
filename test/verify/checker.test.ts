// The history checker on hand-made histories: a clean one passes, and each anomaly it knows is found in a
// history made to have it (and only that one).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { checkHistory, type AnomalyKind } from './checker.js';
import type { History, LogEvent, Operation } from './history.js';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const iso = (ms: number): string => new Date(T0 + ms).toISOString();

/** A log of one approval asked at 0 ms with a deadline at 5000 ms, decided `behavior` at `decidedAt`. */
function logOf(behavior: 'allow' | 'deny', decidedAt = 1000, via = 'api'): LogEvent[] {
  return [
    { seq: 1, type: 'thread.created', at: iso(0), data: {} },
    {
      seq: 2,
      type: 'approval.requested',
      at: iso(0),
      data: { approvalId: 'ap1', deadline: { at: iso(5000), behavior: 'deny', rule: null } },
    },
    {
      seq: 3,
      type: 'approval.decided',
      at: iso(decidedAt),
      data: { approvalId: 'ap1', behavior, decidedBy: { name: via === 'timeout' ? 'deadline' : 'bob', via } },
    },
  ];
}

const decide = (
  client: string,
  host: string,
  behavior: 'allow' | 'deny',
  status: number,
  answered: string | undefined,
  at: number,
): Operation => ({
  kind: 'decide',
  client,
  host,
  threadId: 't1',
  approvalId: 'ap1',
  behavior,
  invokedAt: T0 + at,
  completedAt: T0 + at + 50,
  status,
  ...(answered === undefined ? {} : { answered }),
});

/** A clean race: bob wins on A, alice loses on B with a 409, the CLI got allow once, sockets saw it all. */
function clean(): History {
  return {
    log: logOf('allow'),
    operations: [
      decide('bob', 'host-a', 'allow', 200, 'allowed', 900),
      decide('alice', 'host-b', 'deny', 409, undefined, 900),
      {
        kind: 'cli-received',
        approvalId: 'ap1',
        toolUseId: 'tu1',
        behavior: 'allow',
        completedAt: T0 + 1200,
      },
      {
        kind: 'observe',
        client: 'carol',
        host: 'host-b',
        approvalId: 'ap1',
        status: 'pending',
        invokedAt: T0 + 100,
        completedAt: T0 + 120,
      },
      {
        kind: 'observe',
        client: 'carol',
        host: 'host-b',
        approvalId: 'ap1',
        status: 'allowed',
        invokedAt: T0 + 2000,
        completedAt: T0 + 2020,
      },
      ...[1, 2, 3].map((seq): Operation => ({
        kind: 'ws-event',
        connection: 'host-a#1',
        host: 'host-a',
        seq,
        type: logOf('allow')[seq - 1]!.type,
        completedAt: T0 + seq,
      })),
    ],
  };
}

const kinds = (history: History): AnomalyKind[] => [...new Set(checkHistory(history).map((a) => a.kind))];

describe('the history checker', () => {
  it('passes a clean history', () => {
    assert.deepEqual(checkHistory(clean()), []);
  });

  it('finds two decisions of one approval in the log (a broken compare-and-set)', () => {
    const h = clean();
    const log = [...h.log, { ...h.log[2]!, seq: 4, data: { ...h.log[2]!.data, behavior: 'deny' } }];
    assert.ok(kinds({ ...h, log }).includes('two-winners'));
  });

  it('finds two decides both answered with a final status', () => {
    const h = clean();
    const operations = h.operations.map((op) =>
      op.kind === 'decide' && op.client === 'alice'
        ? decide('alice', 'host-b', 'allow', 200, 'allowed', 900)
        : op,
    );
    assert.deepEqual(kinds({ ...h, operations }), ['two-winners']);
  });

  it('finds a decision applied twice to the CLI', () => {
    const h = clean();
    const again: Operation = {
      kind: 'cli-received',
      approvalId: 'ap1',
      toolUseId: 'tu1',
      behavior: 'allow',
      completedAt: T0 + 1300,
    };
    assert.deepEqual(kinds({ ...h, operations: [...h.operations, again] }), ['applied-twice']);
  });

  it('finds an acknowledged decision that never reached the CLI', () => {
    const h = clean();
    const operations = h.operations.filter((op) => op.kind !== 'cli-received');
    assert.deepEqual(kinds({ ...h, operations }), ['acknowledged-lost']);
  });

  it('finds an acknowledged decision the log does not hold (and a CLI answer that is not in it)', () => {
    const h = clean();
    assert.deepEqual(kinds({ ...h, log: logOf('deny') }), ['acknowledged-lost', 'cli-not-in-log']);
  });

  it('finds a status that went back from final to pending on one host', () => {
    const h = clean();
    const late: Operation = {
      kind: 'observe',
      client: 'dave',
      host: 'host-b',
      approvalId: 'ap1',
      status: 'pending',
      invokedAt: T0 + 3000,
      completedAt: T0 + 3010,
    };
    assert.deepEqual(kinds({ ...h, operations: [...h.operations, late] }), ['status-regressed']);
  });

  it('finds an event a socket delivered that the log does not hold, and one out of order', () => {
    const h = clean();
    const wrong: Operation = {
      kind: 'ws-event',
      connection: 'host-a#1',
      host: 'host-a',
      seq: 2,
      type: 'approval.cancelled',
      completedAt: T0 + 9,
    };
    assert.deepEqual(kinds({ ...h, operations: [...h.operations, wrong] }), [
      'event-not-in-log',
      'event-out-of-order',
    ]);
  });

  it('finds a deadline that fired before its time, and passes one that fired on time', () => {
    const base = clean();
    const operations = base.operations.filter((op) => op.kind !== 'decide' && op.kind !== 'observe');
    const early = { log: logOf('allow', 4000, 'timeout'), operations };
    assert.deepEqual(kinds(early), ['deadline-early']);
    assert.deepEqual(checkHistory({ log: logOf('allow', 5000, 'timeout'), operations }), []);
  });
});
