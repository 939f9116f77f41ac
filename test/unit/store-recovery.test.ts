// Restart recovery: what a crashed host left unfinished is closed out, in the log and the projections.
// Unfinished runs → interrupted (host_restart), pending approvals → expired, running subagents → lost,
// live sessions → ended; settled things stay as they were; a second recovery finds nothing to do.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';

import type { EventDraft } from '../../src/store/index.js';
import { recoverAfterCrash } from '../../src/supervisor/durable/closeout.js';
import { Supervisor } from '../../src/supervisor/index.js';
import { describeEachStore } from '../helpers/store-backends.js';

const thread: EventDraft = {
  type: 'thread.created',
  data: { cwd: '/w', mode: 'supervised', model: null, rules: { allow: [], deny: [] } },
};
const run = (runId: string, status: 'queued' | 'running'): EventDraft => ({
  type: 'run.created',
  data: { runId, status, trigger: 'human', prompt: runId, userMessageId: `u-${runId}`, generation: 1 },
});
const approval = (approvalId: string, runId: string): EventDraft => ({
  type: 'approval.requested',
  data: {
    approvalId,
    runId,
    subagentId: null,
    toolName: 'Bash',
    input: {},
    toolUseId: approvalId,
    requestId: approvalId,
    suggestions: [],
    alwaysAllowRules: [],
    blockedPath: null,
    decisionReason: null,
    generation: 1,
  },
});

describeEachStore('store recovery after a crash', (backend) => {
  it('closes out every unfinished thing, once, and leaves settled ones alone', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-store-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const { options, release } = await backend.acquire();
    t.after(release);
    const store = backend.reopen(dir, options);
    store.commit('live', [
      thread,
      { type: 'session.started', data: { generation: 1, resume: null } },
      run('done', 'running'),
      {
        type: 'subagent.started',
        data: {
          subagentId: 'sub',
          runId: 'done',
          toolUseId: null,
          description: null,
          taskType: null,
          generation: 1,
        },
      },
      {
        type: 'run.ended',
        data: { runId: 'done', status: 'completed', reason: null, result: null, origin: null },
      },
      approval('asked', 'done'),
      approval('answered', 'done'),
      {
        type: 'approval.decided',
        data: {
          approvalId: 'answered',
          behavior: 'deny',
          message: 'no',
          interrupt: false,
          updatedPermissions: null,
          by: 'user',
        },
      },
      run('busy', 'running'),
      run('waiting', 'queued'),
    ]);
    store.commit('quiet', [thread]);
    const before = store.lastSeq();
    store.close();

    // Through the Supervisor, as a restarted host would.
    const sup = await Supervisor.open({ dataDir: dir, ...options });
    assert.deepEqual(sup.recovered, {
      threads: 1,
      runsInterrupted: 2,
      approvalsExpired: 1,
      subagentsLost: 1,
      processesStopped: 0,
      processesReattached: 0,
      threadsParked: 0,
    });
    const view = sup.getThread('live');
    assert.equal(view.thread.status, 'idle');
    assert.deepEqual(
      view.runs.map((r) => [r.id, r.status, r.reason, r.releasedAt !== null]),
      [
        ['done', 'completed', null, true],
        ['busy', 'interrupted', 'host_restart', true],
        ['waiting', 'interrupted', 'host_restart', true],
      ],
    );
    assert.deepEqual(
      view.approvals.map((a) => [a.id, a.status, a.reason]),
      [
        ['asked', 'expired', 'host_restart'],
        ['answered', 'denied', null],
      ],
    );
    assert.deepEqual(
      view.subagents.map((s) => [s.id, s.status, s.reason]),
      [['sub', 'lost', 'host_restart']],
    );
    assert.equal(sup.getThread('quiet').runs.length, 0);
    const recovery: string[] = [];
    for await (const event of sup.events({ since: before })) {
      recovery.push(event.type);
      if (event.type === 'session.ended') break;
    }
    assert.deepEqual(recovery, [
      'approval.expired',
      'subagent.ended',
      'run.released',
      'run.ended',
      'run.released',
      'run.ended',
      'run.released',
      'session.ended',
    ]);
    await sup.close();

    const again = backend.reopen(dir, options);
    const seq = again.lastSeq();
    assert.deepEqual(recoverAfterCrash(again), {
      threads: 0,
      runsInterrupted: 0,
      approvalsExpired: 0,
      subagentsLost: 0,
    });
    assert.equal(again.lastSeq(), seq, 'a second recovery writes nothing');
    again.close();
  });
});
