// The real Claude Code CLI (pinned, answered by the mock Messages API) asks for permission while the
// host's disk is full (a small tmpfs filled to the last byte): the request is neither allowed nor denied,
// no approval exists that the log lacks, and once there is room the approval appears, a person's decision
// over HTTP reaches the CLI once, the tool runs, and no process is left.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { StoreError, type WardenError } from '../../src/protocol/errors.js';
import { createServer } from '../../src/server/index.js';
import { Supervisor } from '../../src/supervisor/index.js';
import {
  createScratch,
  offlineClaudeEnv,
  pinnedClaudePath,
  scenario,
  startMockModel,
} from '../../src/testing/index.js';
import { processesUsingHome, signal } from '../e2e/helpers/sdk-session.js';
import { waitForEvent, waitForNoProcess } from '../e2e/helpers/supervisor-session.js';
import { assertLogSettled } from './storage-faults/host-on-disk.js';
import { mountSmallDisk, smallDiskUnavailable } from './storage-faults/small-disk.js';
import { until } from './supervisor-model.js';

const LONG = 60_000;

describe(
  'storage faults: the real CLI asks while the disk is full',
  { skip: smallDiskUnavailable, timeout: 180_000 },
  () => {
    it('its request waits for room, becomes an approval, and the decision made over HTTP reaches it once', async (t) => {
      const diskFull = signal();
      const script = scenario()
        .on('touch')
        // The model asks for the tool only once the disk is full: the CLI's request meets a full store.
        .after(diskFull.promise)
        .callTool('Bash', { command: 'touch made-after-room.txt', description: 'Create a file' })
        .thenAnswer((ctx) => (ctx.toolResults[0]?.isError === true ? 'not made' : 'made'))
        .build();
      const disk = mountSmallDisk(16 << 20);
      const scratch = createScratch('warden-faults-cli-');
      const opened: { sup?: Supervisor; close?: () => Promise<void> } = {};
      t.after(async () => {
        try {
          await opened.close?.();
          await opened.sup?.close({ stopAgents: true });
          await waitForNoProcess(scratch.home);
        } finally {
          disk.unmount();
          scratch.cleanup();
        }
      });
      const mock = await startMockModel({ script });
      const warnings: WardenError[] = [];
      const dataDir = join(disk.dir, 'data');
      const sup = await Supervisor.open({
        dataDir,
        claudePath: pinnedClaudePath(),
        env: offlineClaudeEnv({ mockUrl: mock.url, home: scratch.home, tmpdir: scratch.tmpdir }),
        onWarning: (w) => warnings.push(w),
        detached: false,
      });
      opened.sup = sup;
      const server = await createServer({ supervisor: sup, dataDir, onError: () => undefined });
      opened.close = async () => {
        await server.close();
        await mock.close();
      };
      const thread = await sup.createThread({ cwd: scratch.cwd, mode: 'supervised' });
      const run = await sup.send(thread.id, '[[touch]] make a file');
      await waitForEvent(sup, 'session.initialized');

      disk.fill();
      diskFull.fire();
      // The gate's own report (held CLI events are reported apart): the request reached a full store.
      const gateWaits = (): boolean =>
        warnings.some(
          (w) => w instanceof StoreError && w.code === 'STORE_FULL' && !/events of thread/.test(w.message),
        );
      assert.ok(await until(gateWaits, LONG), 'the permission request met the full disk');
      assert.deepEqual(sup.listApprovals({ threadId: thread.id }), [], 'no approval the log lacks');
      assert.equal(existsSync(join(scratch.cwd, 'made-after-room.txt')), false, 'the tool did not run');
      assert.equal(sup.getThread(thread.id).thread.status, 'live', 'the CLI waits');

      disk.makeRoom();
      const asked = await waitForEvent(sup, 'approval.requested', () => true, LONG);
      const response = await fetch(`${server.url}/api/approvals/${asked.data.approvalId}/decision`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ behavior: 'allow' }),
      });
      assert.equal(response.status, 200);
      const ended = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === run.id, LONG);
      assert.equal(ended.data.status, 'completed');
      assert.equal(existsSync(join(scratch.cwd, 'made-after-room.txt')), true, 'the tool ran once allowed');
      const results = sup
        .readEvents({ threadId: thread.id, limit: 1000 })
        .filter((e) => e.type === 'tool.result');
      assert.equal(results.length, 1, 'one answer, one tool run');
      await assertLogSettled(sup);

      await sup.stop(thread.id);
      await waitForNoProcess(scratch.home);
      assert.deepEqual(processesUsingHome(scratch.home), [], 'no CLI process is left');
    });
  },
);
