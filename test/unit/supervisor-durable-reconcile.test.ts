// Re-attaching to a detached CLI an earlier host left, with the CLI played by a scripted stand-in: the
// store says three approvals were pending; the CLI re-delivers two of them and one request the store never
// saw. The two stay pending under their ids and are answered through decide(); the one the CLI no longer
// waits on is cancelled (`not_pending_after_restart`); the new one becomes a new approval. A decide() that
// comes before the CLI said what it waits on waits for it instead of cancelling.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';

import { ConflictError } from '../../src/protocol/errors.js';
import { runningDetachedThread } from '../fixtures/detached-thread.js';
import type { EventDraft } from '../../src/store/event-types.js';
import { Supervisor, type QueryFunction } from '../../src/supervisor/index.js';
import { startTicksOf } from '../../src/transport/process-tree.js';
import { FakeQuery } from '../fixtures/supervisor-fake-query.js';
import { describeEachStore } from '../helpers/store-backends.js';

function approvalRequested(approvalId: string, requestId: string, runId: string): EventDraft {
  return {
    type: 'approval.requested',
    data: {
      approvalId,
      runId,
      subagentId: null,
      toolName: 'Bash',
      input: { command: `echo ${approvalId}` },
      toolUseId: `toolu_${requestId}`,
      requestId,
      suggestions: [],
      alwaysAllowRules: [],
      blockedPath: null,
      decisionReason: null,
      generation: 1,
    },
  };
}

describeEachStore('supervisor: reconciling the approvals of a re-attached CLI', (backend) => {
  it('keeps the re-delivered ones, cancels the others, asks anew for what the store never saw', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-durable-unit-'));
    const children: ChildProcess[] = [];
    t.after(() => {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    });
    // Stands in for the CLI process: alive, with the recorded start time, in its own group.
    const cli = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
    children.push(cli);
    const pid = cli.pid ?? 0;
    const startTime = startTicksOf(pid) ?? null;
    const dataDir = join(dir, 'data');
    const cwd = join(dir, 'work');
    mkdirSync(cwd);
    const spoolDir = join(dataDir, 'cli', 't1.1');
    mkdirSync(spoolDir, { recursive: true });
    writeFileSync(join(spoolDir, 'output'), '');
    mkdirSync(join(dataDir, 'cli', 'stray.3'));

    const { options, release } = await backend.acquire();
    t.after(() => release());
    // Written by the earlier host, in the store the next one opens (SQLite in the dataDir, or PostgreSQL).
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const store = backend.reopen(dataDir, options);
    store.commit('t1', [
      ...runningDetachedThread(cwd, { pid, startTime, spoolDir, marker: 'm' }),
      approvalRequested('a1', 'req-1', 'r1'),
      approvalRequested('a2', 'req-2', 'r1'),
      approvalRequested('a3', 'req-9', 'r1'),
    ]);
    store.commit('t1', [], { spoolOffset: 1234 });
    store.close();

    let redeliver!: (ids: string[]) => void;
    const redelivered = new Promise<string[]>((resolve) => (redeliver = resolve));
    const made: FakeQuery[] = [];
    const query: QueryFunction = ({ prompt, options }) => {
      const fake = Object.assign(new FakeQuery(prompt, options), {
        redeliveredRequests: () => redelivered,
      });
      made.push(fake);
      return fake;
    };
    const sup = await Supervisor.open({ dataDir, ...options, query });
    t.after(() => sup.close({ stopAgents: true }));
    assert.equal(sup.recovered.processesReattached, 1);
    assert.equal(sup.getThread('t1').thread.cliProcess?.spoolOffset, 1234);
    assert.deepEqual(
      readdirSync(join(dataDir, 'cli')),
      ['t1.1'],
      'a stray spool is removed, the live one kept',
    );
    const [fake] = made;
    assert.ok(fake !== undefined);

    // Before the CLI said what it waits on, a decision waits; it does not cancel.
    const early = sup.decide('a1', { behavior: 'allow' });
    const doomed = sup.decide('a3', { behavior: 'allow' });
    const first = fake.ask('Bash', { command: 'echo a1' }); // req-1: approval a1
    const second = fake.ask('Bash', { command: 'echo a2' }); // req-2: approval a2
    const fresh = fake.ask('Bash', { command: 'echo new' }); // req-3: the store never saw it
    redeliver(['req-1', 'req-2', 'req-3']);
    await sup.reattached;

    assert.equal((await early).status, 'allowed');
    assert.deepEqual(await first.result, { behavior: 'allow', updatedInput: { command: 'echo a1' } });
    await assert.rejects(doomed, (error: unknown) => error instanceof ConflictError);
    const stale = sup.getApproval('a3');
    assert.deepEqual([stale.status, stale.reason], ['cancelled', 'not_pending_after_restart']);
    assert.equal(sup.getApproval('a2').status, 'pending', 'still pending, under its id');
    await sup.decide('a2', { behavior: 'deny', message: 'no' });
    assert.deepEqual(await second.result, { behavior: 'deny', message: 'no' });

    const created = sup.listApprovals({ threadId: 't1' }).filter((a) => !['a1', 'a2', 'a3'].includes(a.id));
    assert.deepEqual(
      created.map((a) => [a.requestId, a.runId, a.status]),
      [['req-3', 'r1', 'pending']],
      'a request the store never saw becomes a new approval, routed to the running run',
    );
    await sup.decide(created[0]?.id ?? '', { behavior: 'allow' });
    assert.equal((await fresh.result).behavior, 'allow');
    const events = sup.readEvents({ threadId: 't1' });
    assert.deepEqual(
      events.filter((e) => e.type === 'session.reattached').map((e) => e.data),
      [{ generation: 1, pid, spoolOffset: 1234 }],
    );
    assert.equal(events.filter((e) => e.type === 'session.started').length, 1, 'no new session');
  });
});

describeEachStore('store: the spool offset is committed with the events of its frame', (backend) => {
  it('moves with a commit that succeeds, not with one that fails, and goes with the process', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-durable-unit-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const store = await backend.open(t);
    const created: EventDraft = {
      type: 'thread.created',
      data: { cwd: dir, mode: 'supervised', model: null, rules: { allow: [], deny: [] } },
    };
    store.commit('t', [
      created,
      { type: 'session.started', data: { generation: 1, resume: null } },
      {
        type: 'session.process_started',
        data: { generation: 1, pid: 4242, startTime: 7, spoolDir: join(dir, 's'), marker: 'm' },
      },
    ]);
    const offset = (): number | undefined => store.getThread('t')?.cliProcess?.spoolOffset;
    assert.equal(offset(), 0);
    store.commit(
      't',
      [
        {
          type: 'run.api_retry',
          data: { runId: null, attempt: 1, maxRetries: 2, errorStatus: 529, error: null },
        },
      ],
      {
        spoolOffset: 100,
      },
    );
    assert.equal(offset(), 100);
    // A frame whose events do not fit (a second thread.created): nothing is written, the offset stays.
    assert.throws(() => store.commit('t', [created], { spoolOffset: 200 }), ConflictError);
    assert.equal(offset(), 100);
    assert.throws(() => store.commit('t', [], { spoolOffset: -1 }), TypeError);
    store.commit('t', [{ type: 'session.process_exited', data: { generation: 1, pid: 4242 } }]);
    assert.equal(store.getThread('t')?.cliProcess, null);
    // No detached process on record: the offset is not kept.
    store.commit('t', [], { spoolOffset: 300 });
    assert.equal(store.getThread('t')?.cliProcess, null);
  });
});
