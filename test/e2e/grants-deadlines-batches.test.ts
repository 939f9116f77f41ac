// Scopes, deadlines and batches against the real CLI through the mock model:
// - a rule granted for the thread is applied after a stop + send and after the host is reopened;
// - the project's settings file is written only when that scope is chosen;
// - a deadline denies (the model reads why), also one that passed while no host was running;
// - a batch over a subagent's requests, raced over HTTP by a second client, decides each exactly once.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { Supervisor } from '../../src/supervisor/index.js';
import { scenario } from '../../src/testing/index.js';
import { openDurableScene } from './helpers/durable-host.js';
import { clockPasses } from './helpers/wall-clock.js';
import { signal } from './helpers/sdk-session.js';
import { startServerSession } from './helpers/server-session.js';
import { allEvents, startSupervisorSession, waitForEvent } from './helpers/supervisor-session.js';

const HOSTNAME = { file_path: '/etc/hostname' };

describe('always-allow scopes, real CLI', { timeout: 180_000 }, () => {
  it('a thread rule holds after stop + send and after the host is reopened', async (t) => {
    const script = scenario()
      .on('first')
      .callTool('Read', HOSTNAME)
      .thenAnswer('read it once')
      .on('second')
      .callTool('Read', HOSTNAME)
      .thenAnswer('read it again')
      .on('third')
      .callTool('Read', HOSTNAME)
      .thenAnswer('read it a third time')
      .build();
    const session = await startSupervisorSession(t, script);
    const { sup, thread, mock, options } = session;
    await sup.send(thread.id, '[[first]] read the host name');
    const asked = await waitForEvent(sup, 'approval.requested');
    assert.deepEqual(asked.data.alwaysAllowRules, ['Read(//etc/hostname)']);
    await sup.decide(asked.data.approvalId, { behavior: 'allow_always', scope: 'thread' });
    await waitForEvent(sup, 'run.ended');

    await sup.stop(thread.id);
    await sup.send(thread.id, '[[second]] and again');
    const byRule = await waitForEvent(sup, 'permission.decided');
    assert.deepEqual([byRule.data.behavior, byRule.data.rule], ['allow', 'Read(//etc/hostname)']);
    let ended = 0;
    await waitForEvent(sup, 'run.ended', () => ++ended === 2);

    await sup.close({ stopAgents: true });
    const reopened = await Supervisor.open(options);
    t.after(() => reopened.close({ stopAgents: true }));
    assert.deepEqual(
      reopened.getThread(thread.id).thread.grants.map((g) => [g.rule, g.scope]),
      [['Read(//etc/hostname)', 'thread']],
    );
    await reopened.send(thread.id, '[[third]] once more');
    let decided = 0;
    await waitForEvent(reopened, 'permission.decided', () => ++decided === 2);
    ended = 0;
    await waitForEvent(reopened, 'run.ended', () => ++ended === 3);
    const approvals = reopened.listApprovals();
    assert.equal(approvals.length, 1, 'asked once, in the first CLI process only');
    const reads = mock.requests.filter((r) => r.kind === 'main' && (r.toolResults?.length ?? 0) > 0);
    assert.equal(reads.length, 3);
    for (const request of reads) assert.equal(request.toolResults?.[0]?.isError, false, 'the read ran');
  });

  it("writes the project's settings file only when the project scope is chosen", async (t) => {
    const script = scenario()
      .on('session')
      .callTool('Bash', { command: 'touch session.txt', description: 'Create a file' })
      .thenAnswer('made session.txt')
      .on('project')
      .callTool('Bash', { command: 'touch project.txt', description: 'Create a file' })
      .thenAnswer('made project.txt')
      .build();
    const { sup, thread, scratch } = await startSupervisorSession(t, script);
    const settings = join(scratch.cwd, '.claude', 'settings.local.json');

    await sup.send(thread.id, '[[session]] make a file');
    const first = await waitForEvent(sup, 'approval.requested');
    assert.deepEqual(first.data.alwaysAllowRules, ['Bash(touch session.txt)']);
    await sup.decide(first.data.approvalId, { behavior: 'allow_always' });
    await waitForEvent(sup, 'run.ended');
    assert.equal(existsSync(join(scratch.cwd, 'session.txt')), true);
    assert.equal(existsSync(settings), false, 'a session rule writes no file');

    await sup.send(thread.id, '[[project]] make another');
    const second = await waitForEvent(
      sup,
      'approval.requested',
      (e) => e.data.approvalId !== first.data.approvalId,
    );
    await sup.decide(second.data.approvalId, { behavior: 'allow_always', scope: 'project' });
    let ended = 0;
    await waitForEvent(sup, 'run.ended', () => ++ended === 2);
    assert.equal(existsSync(join(scratch.cwd, 'project.txt')), true);
    const written = JSON.parse(readFileSync(settings, 'utf8')) as { permissions?: { allow?: string[] } };
    assert.deepEqual(written.permissions?.allow, ['Bash(touch project.txt)'], 'exactly the rule shown');
  });
});

describe('deadlines, real CLI', { timeout: 180_000 }, () => {
  it('denies when the deadline passes, and applies one that passed while no host ran', async (t) => {
    const scene = await openDurableScene(t, () =>
      scenario()
        .on('live')
        .callTool('Read', HOSTNAME)
        .thenAnswer((ctx) => `live: ${ctx.toolResults[0]?.text ?? ''}`)
        .on('restart')
        .callTool('Bash', { command: 'touch late.txt', description: 'Create a file' })
        .thenAnswer((ctx) => `restart: ${ctx.toolResults[0]?.text ?? ''}`)
        .build(),
    );
    const { scratch, config, mock } = scene;
    const first = await Supervisor.open(config);
    const thread = await first.createThread({
      cwd: scratch.cwd,
      mode: 'supervised',
      deadlines: { afterMs: 1500 },
    });
    await first.send(thread.id, '[[live]] read the host name');
    const live = await waitForEvent(first, 'approval.requested');
    assert.ok(live.data.deadline !== undefined && live.data.deadline !== null);
    const decided = await waitForEvent(first, 'approval.decided');
    assert.deepEqual([decided.data.behavior, decided.data.by], ['deny', 'timeout']);
    await waitForEvent(first, 'run.ended');
    const liveResult = mock.requests.find((r) => r.turnMarker === 'live' && (r.toolResults?.length ?? 0) > 0);
    assert.equal(liveResult?.toolResults?.[0]?.isError, true);
    assert.match(liveResult?.toolResults?.[0]?.text ?? '', /No one answered in time/);

    // The host closes (the CLI lives on, its request pending); the deadline passes while none runs.
    await first.send(thread.id, '[[restart]] make a file');
    const late = await waitForEvent(first, 'approval.requested', (e) => e.data.toolName === 'Bash');
    await first.close();
    await clockPasses(String(late.data.deadline?.at));
    const second = await Supervisor.open(config);
    scene.sup = second;
    assert.equal(second.recovered.processesReattached, 1);
    const applied = await waitForEvent(
      second,
      'approval.decided',
      (e) => e.data.approvalId === late.data.approvalId,
    );
    assert.deepEqual([applied.data.behavior, applied.data.by], ['deny', 'timeout']);
    let ended = 0;
    await waitForEvent(second, 'run.ended', () => ++ended === 2);
    assert.equal(existsSync(join(scratch.cwd, 'late.txt')), false, 'the denied command did not run');
    const lateResult = mock.requests.find(
      (r) => r.turnMarker === 'restart' && (r.toolResults?.length ?? 0) > 0,
    );
    assert.match(lateResult?.toolResults?.[0]?.text ?? '', /No one answered in time/);
  });
});

describe('an allowing deadline and a protected write, real CLI', { timeout: 180_000 }, () => {
  it("never allows a write to the CLI's settings: the thread's denying default answers it", async (t) => {
    const settings = join('.claude', 'settings.local.json');
    const script = scenario()
      .on('protected')
      .callTool('Write', { file_path: settings, content: '{"permissions":{"allow":["Bash"]}}' })
      .thenAnswer((ctx) => `protected: ${ctx.toolResults[0]?.text ?? ''}`)
      .build();
    const session = await startSupervisorSession(t, script);
    const { sup, scratch, mock } = session;
    const thread = await sup.createThread({
      cwd: scratch.cwd,
      mode: 'supervised',
      deadlines: { afterMs: 1500, rules: [{ rule: 'Write(**)', afterMs: 1000, behavior: 'allow' }] },
    });
    await sup.send(thread.id, '[[protected]] loosen the settings');
    const asked = await waitForEvent(sup, 'approval.requested', (e) => e.threadId === thread.id);
    assert.deepEqual(
      [asked.data.deadline?.behavior, asked.data.deadline?.rule],
      ['deny', null],
      'the allowing deadline rule is passed over for a protected write',
    );
    const decided = await waitForEvent(sup, 'approval.decided', (e) => e.threadId === thread.id);
    assert.deepEqual([decided.data.behavior, decided.data.by], ['deny', 'timeout']);
    await waitForEvent(sup, 'run.ended', (e) => e.threadId === thread.id);
    assert.equal(existsSync(join(scratch.cwd, settings)), false, 'the settings file was not written');
    const result = mock.requests.find(
      (r) => r.turnMarker === 'protected' && (r.toolResults?.length ?? 0) > 0,
    );
    assert.match(result?.toolResults?.[0]?.text ?? '', /No one answered in time/);
  });
});

describe('batches, real CLI', { timeout: 180_000 }, () => {
  it("decides each of a subagent's requests once while a second client races the batch", async (t) => {
    const rootEnded = signal();
    const files = ['/etc/hostname', '/etc/os-release', '/etc/passwd'];
    const script = scenario()
      .on('bg')
      .launchBackgroundAgent({ prompt: '[[reader]] read three files', description: 'Read three files' })
      .thenAnswer('Launched a background agent.')
      .onTaskNotification()
      .thenAnswer('The background agent reported back.')
      .subagent('reader')
      .after(rootEnded.promise)
      .callTools(files.map((file_path) => ({ name: 'Read', input: { file_path } })))
      .thenReport(
        (ctx) => `results: ${ctx.toolResults.map((r) => (r.isError ? 'denied' : 'read')).join(',')}`,
      )
      .build();
    const { sup, api, mock, scratch } = await startServerSession(t, { script });
    const created = await api('/api/threads', {
      method: 'POST',
      body: { cwd: scratch.cwd, mode: 'supervised', prompt: '[[bg]] go' },
    });
    assert.equal(created.status, 201);
    await waitForEvent(sup, 'run.ended');
    rootEnded.fire();
    let asked = 0;
    await waitForEvent(sup, 'approval.requested', () => ++asked === files.length);
    const subagentId = sup.listApprovals({ status: 'pending' })[0]?.subagentId;
    assert.ok(typeof subagentId === 'string');

    const preview = await api('/api/approvals/batch/preview', {
      method: 'POST',
      body: { select: { subagentId }, behavior: 'deny' },
    });
    assert.equal(preview.status, 200);
    const ids = (preview.json.approvals as { id: string }[]).map((a) => a.id);
    assert.equal(ids.length, files.length);
    // The second client answers each of them at the same moment as the batch.
    const [batch, ...singles] = await Promise.all([
      api('/api/approvals/batch', {
        method: 'POST',
        body: { approvalIds: ids, behavior: 'deny', message: 'no' },
      }),
      ...ids.map((id) =>
        api(`/api/approvals/${id}/decision`, { method: 'POST', body: { behavior: 'allow' } }),
      ),
    ]);
    assert.equal(batch.status, 200);
    const byBatch = new Set((batch.json.decided as { id: string }[]).map((a) => a.id));
    const settled = new Set((batch.json.alreadySettled as { id: string }[]).map((a) => a.id));
    assert.equal(byBatch.size + settled.size, ids.length, 'the batch reports every approval it covered');
    singles.forEach((single, i) => {
      const id = ids[i] ?? '';
      assert.equal(single.status, byBatch.has(id) ? 409 : 200, `approval ${id}: exactly one winner`);
    });

    const ended = await waitForEvent(sup, 'subagent.ended');
    assert.equal(ended.data.status, 'completed');
    const events = await allEvents(sup);
    for (const id of ids)
      assert.equal(
        events.filter((e) => e.type === 'approval.decided' && e.data.approvalId === id).length,
        1,
        `approval ${id} decided once`,
      );
    assert.ok(mock !== undefined);
    const report = mock.requests.find(
      (r) => r.kind === 'subagent' && (r.toolResults?.length ?? 0) === files.length,
    );
    assert.ok(report !== undefined, 'the CLI answered each call once');
    assert.equal(report.toolResults?.filter((r) => r.isError).length, byBatch.size);
  });
});
