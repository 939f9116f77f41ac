// A full disk under a running host, for real (a small tmpfs filled to the last byte): the API answers 503
// with the reason and a stable code, no CLI request is allowed or denied because the store failed, the log
// stays contiguous and equal to a fresh fold, and everything goes on once there is room again. Each test
// is named after the bug it found.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { StoreError } from '../../src/protocol/errors.js';
import { Supervisor } from '../../src/supervisor/index.js';
import { frames, startTurn } from '../fixtures/supervisor-fake-query.js';
import { approvalOf, assertLogSettled, hostOnSmallDisk, track } from './storage-faults/host-on-disk.js';
import { startHost } from './storage-faults/host-process.js';
import { mountSmallDisk, smallDiskUnavailable } from './storage-faults/small-disk.js';
import { readAll } from './supervisor-invariants.js';
import { until } from './supervisor-model.js';

const LONG = 20_000;

/** The CLI's init frame is in the log as readers see it (on disk): what it sends next is the test's. */
function initialized(sup: Supervisor, threadId: string): boolean {
  return sup.readEvents({ threadId }).some((e) => e.type === 'session.initialized');
}

/** An event of this type is in the log as readers see it (committed and on disk). */
function visible(sup: Supervisor, type: string): boolean {
  return readAll(sup).some((e) => e.type === type);
}

describe('storage faults: the disk fills under a running host', { skip: smallDiskUnavailable }, () => {
  it('a decision the store cannot record is a 503 with STORE_FULL and Retry-After, not sent to the CLI, and succeeds once there is room', async (t) => {
    const host = await hostOnSmallDisk(t);
    const { sup, thread, made, disk, api } = host;
    const { fake } = await startTurn(sup, made, thread.id, 'run the tests');
    assert.ok(await until(() => initialized(sup, thread.id), LONG));
    const ask = track(fake.ask('Bash', { command: 'npm test' }));
    assert.ok(await until(() => visible(sup, 'approval.requested'), LONG), 'asked');
    const approvalId = approvalOf(sup, thread.id, ask)!;
    const seq = sup.lastSeq();

    disk.fill();
    const refused = await api(`/api/approvals/${approvalId}/decision`, { behavior: 'allow' });
    assert.equal(refused.status, 503);
    assert.equal(refused.json.error?.code, 'STORE_FULL');
    assert.match(refused.json.error?.message ?? '', /disk is full/);
    assert.equal(refused.headers.get('retry-after'), '5');
    assert.ok(host.serverErrors.some((e) => e instanceof StoreError && e.code === 'STORE_FULL'));
    // Reads still work, and nothing was written or sent.
    assert.equal((await api('/api/threads')).status, 200);
    assert.equal(sup.getApproval(approvalId).status, 'pending');
    assert.equal(sup.lastSeq(), seq);
    assert.equal(ask.answers, 0, 'the CLI heard nothing');

    disk.makeRoom();
    const accepted = await api(`/api/approvals/${approvalId}/decision`, { behavior: 'allow' });
    assert.equal(accepted.status, 200);
    assert.ok(await until(() => ask.answers > 0, LONG));
    assert.equal(ask.answer?.behavior, 'allow');
    const again = await api(`/api/approvals/${approvalId}/decision`, { behavior: 'deny' });
    assert.equal(again.status, 409, 'settled once');
    assert.equal(ask.answers, 1, 'the CLI got exactly one answer');
    await assertLogSettled(sup);
  });

  it('a permission request made while the disk is full is not denied: it waits, and becomes an approval once there is room', async (t) => {
    const host = await hostOnSmallDisk(t);
    const { sup, thread, made, disk, api } = host;
    const { fake } = await startTurn(sup, made, thread.id, 'build it');
    assert.ok(await until(() => initialized(sup, thread.id), LONG));

    disk.fill();
    const ask = track(fake.ask('Bash', { command: 'npm run build' }));
    assert.ok(
      await until(() => host.warnings.some((w) => w.code === 'STORE_FULL'), LONG),
      'the failure is reported through onWarning',
    );
    const warning = host.warnings.find((w) => w.code === 'STORE_FULL');
    assert.ok(warning instanceof StoreError);
    assert.match(warning.message, /approval\.requested.*disk is full/);
    assert.equal(ask.answers, 0, 'neither allowed nor denied because the store failed');
    assert.equal(approvalOf(sup, thread.id, ask), undefined, 'no approval exists that the log lacks');
    assert.deepEqual((await api('/api/approvals?status=pending')).json.approvals, []);

    const roomAt = Date.now();
    disk.makeRoom();
    assert.ok(await until(() => approvalOf(sup, thread.id, ask) !== undefined, LONG), 'recorded');
    console.log(
      `[reliability] storage faults: a request held by a full disk became an approval ${Date.now() - roomAt} ms after room came back`,
    );
    assert.equal(ask.answers, 0, 'still waiting for a person');
    const approvalId = approvalOf(sup, thread.id, ask)!;
    assert.equal((await api(`/api/approvals/${approvalId}/decision`, { behavior: 'deny' })).status, 200);
    assert.ok(await until(() => ask.answers > 0, LONG));
    assert.equal(ask.answer?.behavior, 'deny');
    assert.equal(ask.answers, 1);
    await assertLogSettled(sup);
  });

  it('a policy verdict reaches the CLI only once it is recorded, never while the disk is full', async (t) => {
    const host = await hostOnSmallDisk(t, { mode: 'full-access' });
    const { sup, thread, made, disk } = host;
    const { fake } = await startTurn(sup, made, thread.id, 'list files');
    assert.ok(await until(() => initialized(sup, thread.id), LONG));

    disk.fill();
    const ask = track(fake.ask('Bash', { command: 'ls' }));
    assert.ok(await until(() => host.warnings.some((w) => w.code === 'STORE_FULL'), LONG));
    assert.equal(ask.answers, 0, 'an allow that is not in the log is not given');

    disk.makeRoom();
    assert.ok(await until(() => ask.answers > 0, LONG));
    assert.equal(ask.answer?.behavior, 'allow');
    const decided = readAll(sup).filter((e) => e.type === 'permission.decided');
    assert.equal(decided.length, 1, 'the verdict is in the log once');
    await assertLogSettled(sup);
  });

  it('events the CLI sends while the disk is full are kept and recorded in order once there is room, not dropped', async (t) => {
    const host = await hostOnSmallDisk(t);
    const { sup, thread, made, disk } = host;
    const { fake, uuid, runId } = await startTurn(sup, made, thread.id, 'explain');
    assert.ok(await until(() => initialized(sup, thread.id), LONG));
    const before = sup.lastSeq();

    disk.fill();
    const texts = ['first', 'second', 'third'];
    for (const [i, text] of texts.entries())
      fake.emit({
        type: 'assistant',
        parent_tool_use_id: null,
        message: { id: `msg_${i}`, content: [{ type: 'text', text }] },
      });
    fake.emit(frames.result([uuid]));
    assert.ok(await until(() => host.warnings.some((w) => w.code === 'STORE_FULL'), LONG));
    assert.equal(sup.lastSeq(), before, 'nothing half written');
    assert.equal(sup.getThread(thread.id).runs.find((r) => r.id === runId)?.status, 'running');
    const warned = host.warnings.filter((w) => w.code === 'STORE_FULL').length;
    assert.equal(warned, 1, 'said once, not once per frame');

    disk.makeRoom();
    assert.ok(await until(() => visible(sup, 'run.released'), LONG), 'the held result is recorded');
    assert.equal(sup.getThread(thread.id).runs[0]?.status, 'completed');
    const recorded = readAll(sup).filter((e) => e.seq > before);
    const said = recorded.flatMap((e) =>
      e.type === 'message.assistant' ? e.data.blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])) : [],
    );
    assert.deepEqual(said, texts, 'every message, in the order the CLI sent them');
    assert.equal(recorded.at(-1)?.type, 'run.released');
    await assertLogSettled(sup);
  });

  it('a deadline that falls due while the disk is full is applied once there is room, not forgotten', async (t) => {
    const host = await hostOnSmallDisk(t, { deadlines: { afterMs: 1000, rules: [] } });
    const { sup, thread, made, disk } = host;
    const { fake } = await startTurn(sup, made, thread.id, 'deploy');
    assert.ok(await until(() => initialized(sup, thread.id), LONG));
    const ask = track(fake.ask('Bash', { command: 'make deploy' }));
    assert.ok(await until(() => approvalOf(sup, thread.id, ask) !== undefined, LONG));
    disk.fill();
    const approvalId = approvalOf(sup, thread.id, ask)!;
    assert.ok(await until(() => host.warnings.some((w) => w.code === 'STORE_FULL'), LONG), 'it fell due');
    assert.equal(ask.answers, 0);
    assert.equal(sup.getApproval(approvalId).status, 'pending');

    disk.makeRoom();
    assert.ok(await until(() => ask.answers > 0, LONG));
    assert.equal(ask.answer?.behavior, 'deny');
    assert.equal(sup.getApproval(approvalId).decision?.by, 'timeout');
    await assertLogSettled(sup);
  });

  it('close() while the disk is full stops the CLI and resolves, instead of throwing and leaving the CLI running', async (t) => {
    const host = await hostOnSmallDisk(t);
    const { sup, thread, made, disk } = host;
    const { fake } = await startTurn(sup, made, thread.id, 'wait');
    assert.ok(await until(() => initialized(sup, thread.id), LONG));
    const ask = track(fake.ask('Bash', { command: 'sleep 1' }));
    assert.ok(await until(() => visible(sup, 'approval.requested'), LONG));
    disk.fill();
    await host.server.close();
    await sup.close();
    assert.ok(fake.calls.includes('close'), 'the CLI was told to end');
    assert.ok(await until(() => ask.answers > 0, LONG), 'its request ended with it');
    assert.notEqual(ask.answer?.behavior, 'allow');
    assert.ok(
      host.warnings.some((w) => w instanceof StoreError && /never recorded/.test(w.message)),
      'what could not be recorded is reported',
    );
  });

  it('a host killed while the disk is full under a stream of CLI events leaves a log that opens and folds', async (t) => {
    const disk = mountSmallDisk(8 << 20);
    const project = mkdtempSync(join(tmpdir(), 'warden-faults-'));
    const dataDir = join(disk.dir, 'data');
    const host = startHost(['supervisor', dataDir, project]);
    const reopened: Supervisor[] = [];
    t.after(async () => {
      try {
        await host.kill();
        for (const sup of reopened) await sup.close();
      } finally {
        disk.unmount();
        rmSync(project, { recursive: true, force: true });
      }
    });
    await host.line((line) => Number(/recorded (\d+)/.exec(line)?.[1] ?? 0) >= 50);
    disk.fill();
    // Killed once the full disk has refused its writes for a while.
    await host.line((line) => Number(/full (\d+)/.exec(line)?.[1] ?? 0) >= 1);
    const last = await host.line(() => true);
    await host.kill();
    console.log(`[reliability] storage faults: supervisor host killed under a full disk at "${last}"`);
    disk.makeRoom();
    const sup = await Supervisor.open({ dataDir, detached: false });
    reopened.push(sup);
    assert.ok(sup.lastSeq() >= 50);
    assert.deepEqual(sup.listApprovals({ status: 'pending' }), [], 'what the dead host asked is closed out');
    await assertLogSettled(sup);
  });
});
