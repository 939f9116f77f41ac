// The Supervisor's public surface with a scripted CLI: typed errors for bad input (and nothing written),
// compare-and-set decisions, events() replay-then-live, queued and CLI-started runs, the timeline.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { it } from 'node:test';

import {
  ConflictError,
  NotFoundError,
  Supervisor,
  ValidationError,
  type StoredEvent,
} from '../../src/supervisor/index.js';
import { frames, openFakeSupervisor, startTurn } from '../fixtures/supervisor-fake-query.js';
import { waitForEvent } from '../e2e/helpers/supervisor-session.js';
import { describeEachStore } from '../helpers/store-backends.js';

function lastSeq(sup: Supervisor): number {
  return sup.listThreads().reduce((n, t) => n + t.lastThreadSeq, 0);
}

describeEachStore('Supervisor API', () => {
  it('rejects bad input with typed errors and writes nothing', async (t) => {
    const { sup, thread, cwd } = await openFakeSupervisor(t);
    const before = lastSeq(sup);
    const cases: [Promise<unknown>, new (...args: never[]) => Error, string][] = [
      [sup.createThread({ cwd, mode: 'yolo' as never }), ValidationError, 'VALIDATION'],
      [sup.createThread({ cwd: join(cwd, 'missing'), mode: 'supervised' }), ValidationError, 'VALIDATION'],
      [
        sup.createThread({ cwd, mode: 'supervised', rules: { allow: ['Bash('] } }),
        ValidationError,
        'VALIDATION',
      ],
      [sup.send(thread.id, '   '), ValidationError, 'VALIDATION'],
      [sup.send('no-such-thread', 'hi'), NotFoundError, 'NOT_FOUND'],
      [sup.setMode(thread.id, 'auto' as never), ValidationError, 'VALIDATION'],
      [sup.decide('no-such-approval', { behavior: 'allow' }), NotFoundError, 'NOT_FOUND'],
      [sup.decide('x', { behavior: 'maybe' as never }), ValidationError, 'VALIDATION'],
      [sup.decide('x', { behavior: 'allow', interrupt: true }), ValidationError, 'VALIDATION'],
      [sup.stopSubagent('no-such-subagent'), NotFoundError, 'NOT_FOUND'],
    ];
    for (const [promise, type, code] of cases)
      await assert.rejects(
        promise,
        (e: unknown) => e instanceof type && (e as { code?: string }).code === code,
      );
    assert.throws(() => sup.getThread('nope'), NotFoundError);
    assert.equal(lastSeq(sup), before, 'nothing was written');
    assert.deepEqual(sup.getThread(thread.id).runs, []);
  });

  it('decisions are compare-and-set: the first wins, a second conflicts', async (t) => {
    const { sup, made, thread } = await openFakeSupervisor(t);
    const { fake } = await startTurn(sup, made, thread.id, 'work');
    const asked = fake.ask(
      'Bash',
      { command: 'make' },
      {
        suggestions: [
          { type: 'setMode', mode: 'acceptEdits', destination: 'session' },
          {
            type: 'addRules',
            rules: [{ toolName: 'Bash', ruleContent: 'make' }],
            behavior: 'allow',
            destination: 'session',
          },
        ],
      },
    );
    const { data } = await waitForEvent(sup, 'approval.requested');
    const decided = await sup.decide(data.approvalId, { behavior: 'allow_always' });
    assert.equal(decided.status, 'allowed');
    await assert.rejects(sup.decide(data.approvalId, { behavior: 'deny' }), ConflictError);
    const result = await asked.result;
    assert.equal(result.behavior, 'allow');
    assert.deepEqual(
      result.behavior === 'allow' ? result.updatedPermissions : [],
      [
        {
          type: 'addRules',
          rules: [{ toolName: 'Bash', ruleContent: 'make' }],
          behavior: 'allow',
          destination: 'session',
        },
      ],
      'allow_always sends the exact rule the approval shows, for the session; never setMode',
    );
    assert.equal(sup.getApproval(data.approvalId).decision?.behavior, 'allow_always');
  });

  it('events(): replays after `since`, follows live, filters by thread, and ends on close', async (t) => {
    const { sup, thread, cwd } = await openFakeSupervisor(t);
    const other = await sup.createThread({ cwd, mode: 'full-access' });
    const seen: StoredEvent[] = [];
    const following = (async () => {
      for await (const event of sup.events({ since: 1 })) seen.push(event);
    })();
    const mine: StoredEvent[] = [];
    const controller = new AbortController();
    const filtered = (async () => {
      for await (const event of sup.events({ threadId: other.id, signal: controller.signal }))
        mine.push(event);
    })();
    await sup.setMode(thread.id, 'auto-edits');
    await waitForEvent(sup, 'thread.mode_changed');
    controller.abort();
    await filtered;
    assert.deepEqual(
      sup.readEvents({ after: 1, limit: 1 }).map((e) => e.seq),
      [2],
      'a page, without waiting',
    );
    assert.equal(sup.lastSeq(), 3);
    await sup.close();
    await following;
    assert.deepEqual(
      seen.map((e) => [e.seq, e.type]),
      [
        [2, 'thread.created'],
        [3, 'thread.mode_changed'],
      ],
    );
    assert.deepEqual(
      mine.map((e) => e.threadId),
      [other.id],
    );
    await assert.rejects(sup.send(thread.id, 'hi'), ConflictError);
  });

  it('a message sent during a turn is queued; a CLI-started turn becomes its own run', async (t) => {
    const { sup, made, thread } = await openFakeSupervisor(t);
    const first = await startTurn(sup, made, thread.id, 'one');
    const second = await sup.send(thread.id, 'two');
    assert.equal(second.status, 'queued');
    first.fake.emit(frames.result([first.uuid]));
    await first.fake.received(String(second.userMessageId));
    first.fake.emit(frames.init([String(second.userMessageId)]));
    await waitForEvent(sup, 'run.started', (e) => e.data.runId === second.id);
    first.fake.emit(frames.result([String(second.userMessageId)], { origin: { kind: 'human' } }));
    first.fake.emit(frames.init([]));
    first.fake.emit({
      type: 'assistant',
      parent_tool_use_id: null,
      message: { content: [{ type: 'text', text: 'noticed' }] },
    });
    first.fake.emit(frames.result([], { origin: { kind: 'task-notification', runId: 'r1' } }));
    const cli = await waitForEvent(sup, 'run.ended', (e) => e.data.origin?.kind === 'task-notification');

    const runs = sup.getThread(thread.id).runs;
    assert.deepEqual(
      runs.map((r) => [r.id, r.trigger, r.status]),
      [
        [first.runId, 'human', 'completed'],
        [second.id, 'human', 'completed'],
        [cli.data.runId, 'task-notification', 'completed'],
      ],
    );
    const timeline = sup.timeline(thread.id);
    assert.deepEqual(
      timeline.map((i) =>
        i.kind === 'user' || i.kind === 'assistant' ? `${i.kind}:${i.text}` : `${i.kind}`,
      ),
      ['run', 'user:one', 'run', 'user:two', 'run', 'assistant:noticed'],
    );
  });
});
