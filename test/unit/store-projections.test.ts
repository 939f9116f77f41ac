// The store's contract: contiguous global and per-thread sequence numbers, projections folded from the
// events (and rebuilt identically from the log), compare-and-set on approvals, all-or-nothing commits.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';

import { ConflictError, NotFoundError } from '../../src/protocol/errors.js';
import type { EventDraft, Store } from '../../src/store/index.js';
import { storeBackends } from '../helpers/store-backends.js';

const created: EventDraft = {
  type: 'thread.created',
  data: { cwd: '/w', mode: 'supervised', model: null, rules: { allow: [], deny: [] } },
};
const runCreated = (runId: string): EventDraft => ({
  type: 'run.created',
  data: { runId, status: 'running', trigger: 'human', prompt: 'hi', userMessageId: 'u1', generation: 1 },
});
const requested = (approvalId: string, runId: string): EventDraft => ({
  type: 'approval.requested',
  data: {
    approvalId,
    runId,
    subagentId: null,
    toolName: 'Bash',
    input: { command: 'ls' },
    toolUseId: 't1',
    requestId: 'r1',
    suggestions: [],
    alwaysAllowRules: [],
    blockedPath: null,
    decisionReason: null,
    generation: 1,
  },
});
const decided = (approvalId: string, behavior: 'allow' | 'deny'): EventDraft => ({
  type: 'approval.decided',
  data: { approvalId, behavior, message: null, interrupt: false, updatedPermissions: null, by: 'user' },
});

function snapshot(store: Store) {
  return store.listThreads().map((thread) => ({
    thread,
    runs: store.listRuns(thread.id),
    subagents: store.listSubagents(thread.id),
    approvals: store.listApprovals({ threadId: thread.id }),
  }));
}

for (const backend of storeBackends())
  describe(`store projections and the event log (${backend.name})`, () => {
    const openStore = (t: TestContext) => backend.open(t);
    it('numbers events globally and per thread without gaps, and folds them into projections', async (t) => {
      const store = await openStore(t);
      store.commit('a', [created, { type: 'session.started', data: { generation: 1, resume: null } }]);
      store.commit('b', [created]);
      store.commit('a', [runCreated('r1'), requested('p1', 'r1')]);
      store.commit('a', [
        {
          type: 'subagent.started',
          data: {
            subagentId: 's1',
            runId: 'r1',
            toolUseId: 't0',
            description: 'd',
            taskType: 'local_agent',
            generation: 1,
          },
        },
        {
          type: 'run.ended',
          data: { runId: 'r1', status: 'completed', reason: null, result: null, origin: { kind: 'human' } },
        },
      ]);
      const events = store.readEvents();
      assert.deepEqual(
        events.map((e) => [e.seq, e.threadId, e.threadSeq]),
        [
          [1, 'a', 1],
          [2, 'a', 2],
          [3, 'b', 1],
          [4, 'a', 3],
          [5, 'a', 4],
          [6, 'a', 5],
          [7, 'a', 6],
        ],
      );
      assert.deepEqual(
        store.readEvents({ threadId: 'b' }).map((e) => e.type),
        ['thread.created'],
      );
      assert.deepEqual(
        store.readEvents({ after: 5, limit: 1 }).map((e) => e.seq),
        [6],
      );
      const thread = store.getThread('a');
      assert.deepEqual([thread?.status, thread?.generation, thread?.lastThreadSeq], ['live', 1, 6]);
      const run = store.getRun('r1');
      assert.deepEqual([run?.status, run?.releasedAt, run?.origin], ['completed', null, { kind: 'human' }]);
      assert.equal(store.getSubagent('s1')?.status, 'running');
      assert.equal(store.getApproval('p1')?.status, 'pending');
      assert.deepEqual(
        store.listApprovals({ status: 'pending' }).map((a) => a.id),
        ['p1'],
      );

      const before = snapshot(store);
      store.rebuildProjections();
      assert.deepEqual(snapshot(store), before, 'the projections are exactly the fold of the log');
    });

    it('settles an approval once (compare-and-set); the loser writes nothing', async (t) => {
      const store = await openStore(t);
      store.commit('a', [created, runCreated('r1'), requested('p1', 'r1')]);
      store.commit('a', [decided('p1', 'allow')]);
      const seq = store.lastSeq();
      assert.throws(
        () => store.commit('a', [decided('p1', 'deny')]),
        (e: unknown) => e instanceof ConflictError && e.code === 'CONFLICT',
      );
      assert.throws(
        () => store.commit('a', [{ type: 'approval.cancelled', data: { approvalId: 'p1', reason: 'late' } }]),
        ConflictError,
      );
      assert.throws(
        () => store.commit('a', [decided('nope', 'allow')]),
        (e: unknown) => e instanceof NotFoundError && e.code === 'NOT_FOUND',
      );
      assert.equal(store.lastSeq(), seq);
      const approval = store.getApproval('p1');
      assert.deepEqual([approval?.status, approval?.decision?.behavior], ['allowed', 'allow']);
    });

    it('a commit is all or nothing: one bad draft and none of them is written', async (t) => {
      const store = await openStore(t);
      store.commit('a', [created, runCreated('r1')]);
      const before = { seq: store.lastSeq(), snap: snapshot(store) };
      assert.throws(
        () =>
          store.commit('a', [
            requested('p1', 'r1'),
            {
              type: 'run.ended',
              data: { runId: 'r1', status: 'completed', reason: null, result: null, origin: null },
            },
            {
              type: 'run.ended',
              data: { runId: 'r1', status: 'failed', reason: 'twice', result: null, origin: null },
            },
          ]),
        ConflictError,
      );
      assert.deepEqual({ seq: store.lastSeq(), snap: snapshot(store) }, before);
      assert.throws(() => store.commit('ghost', [runCreated('r2')]), NotFoundError);
      assert.throws(() => store.commit('a', [created]), ConflictError, 'a thread is created once');
      assert.throws(
        () => store.commit('a', [{ type: 'run.released', data: { runId: 'r1' } }]),
        ConflictError,
        'a running run is not released',
      );
      assert.throws(
        () => store.commit('a', [{ type: 'nope', data: {} } as unknown as EventDraft]),
        TypeError,
      );
      assert.equal(store.lastSeq(), before.seq);
    });
  });
