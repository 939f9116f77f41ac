// An fsync of the log that fails (EIO), injected where the store calls it (wal-barrier.ts `walSync`, the
// only fsync on the commit path): a real disk that fails fsync on demand needs a device-mapper target
// (dm-error, dm-flakey), and the kernel these tests run on may have no device-mapper driver. After a
// failed fsync nothing committed since the last good one can be trusted to be on disk, so the store stops
// taking writes until it is opened again: every change is refused with a StoreError, no decision reaches
// the CLI, no CLI request is allowed or denied because of it, and a new open finds a log that folds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { StoreError } from '../../src/protocol/errors.js';
import { walSync } from '../../src/store/wal-barrier.js';
import { Supervisor } from '../../src/supervisor/index.js';
import { startTurn } from '../fixtures/supervisor-fake-query.js';
import { approvalOf, assertLogSettled, hostOnTmp, track } from './storage-faults/host-on-disk.js';
import { readAll } from './supervisor-invariants.js';
import { until } from './supervisor-model.js';

const LONG = 20_000;

describe('storage faults: an fsync of the log fails', () => {
  it('a decision whose fsync fails is a 503 and never reaches the CLI; the store refuses writes until it is opened again, and then folds', async (t) => {
    const host = await hostOnTmp(t);
    const { sup, thread, made, api } = host;
    const { fake } = await startTurn(sup, made, thread.id, 'run the tests');
    const ask = track(fake.ask('Bash', { command: 'npm test' }));
    assert.ok(await until(() => readAll(sup).some((e) => e.type === 'approval.requested'), LONG));
    const approvalId = approvalOf(sup, thread.id, ask)!;
    const visibleBefore = readAll(sup).length;

    const sync = walSync.sync;
    t.after(() => {
      walSync.sync = sync;
    });
    let failed = 0;
    walSync.sync = () => {
      failed += 1;
      return Promise.reject(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
    };
    const refused = await api(`/api/approvals/${approvalId}/decision`, { behavior: 'allow' });
    assert.ok(failed > 0, 'the fsync was attempted');
    assert.equal(refused.status, 503);
    assert.equal(refused.json.error?.code, 'STORE_UNAVAILABLE');
    assert.match(refused.json.error?.message ?? '', /fsync .*failed.*opened again/);
    assert.equal(ask.answers, 0, 'the CLI heard nothing');
    assert.equal(readAll(sup).length, visibleBefore, 'no reader sees what may not be on disk');

    // The disk answers again, but what the failed fsync covered cannot be trusted: still refused.
    walSync.sync = sync;
    const again = await api(`/api/approvals/${approvalId}/decision`, { behavior: 'deny' });
    assert.equal(again.status, 503);
    const later = track(fake.ask('Bash', { command: 'npm run lint' }));
    assert.ok(
      await until(() => host.warnings.some((w) => w instanceof StoreError && /fsync/.test(w.message)), LONG),
    );
    assert.equal(later.answers, 0, 'a later request is neither allowed nor denied');
    assert.equal(ask.answers, 0);

    // Opened again (a host restart): the log opens and folds.
    await host.server.close();
    await sup.close();
    assert.ok(
      made[0]?.calls.includes('close'),
      'the CLI was stopped although the store refused to record it',
    );
    const reopened = await Supervisor.open({ dataDir: host.dataDir, detached: false });
    try {
      await assertLogSettled(reopened);
    } finally {
      await reopened.close();
    }
  });
});
