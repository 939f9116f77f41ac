// A graceful close, both ways. By default close() detaches: the CLI keeps running with its request
// pending, the log says `session.detached` and nothing is closed out; the next open() re-attaches and the
// approval is answered. With `stopAgents` the CLI is ended as before (approval cancelled `host_closed`).
// Either way no process and no spool is left once the agents are stopped.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { Supervisor } from '../../src/supervisor/index.js';
import { scenario } from '../../src/testing/index.js';
import { isRunningPid, openDurableScene } from './helpers/durable-host.js';
import { assertNoProcessLeft, waitForEvent, waitForNoProcess } from './helpers/supervisor-session.js';

describe('supervisor: close() with detached CLIs', { timeout: 180_000 }, () => {
  for (const stopAgents of [false, true])
    it(stopAgents ? 'stopAgents ends them' : 'detaches them by default', async (t) => {
      const scene = await openDurableScene(t, () => {
        return scenario()
          .on('ask')
          .callTool('Bash', { command: 'touch closed.txt', description: 'Create a file' })
          .thenAnswer('done')
          .build();
      });
      const { scratch, dataDir, config } = scene;
      const host = scene.host({ threads: [{ cwd: scratch.cwd, prompt: '[[ask]] go' }] });
      const started = await host.waitForEvent('session.process_started');
      const pid = Number(started.data.pid);
      const spoolDir = String(started.data.spoolDir);
      const asked = await host.waitForEvent('approval.requested');
      const approvalId = String(asked.data.approvalId);
      await host.close(stopAgents);

      if (stopAgents) {
        await waitForNoProcess(scratch.home);
        assert.equal(isRunningPid(pid), false, 'the CLI was ended');
        assert.equal(existsSync(spoolDir), false, 'its spool removed');
        assert.ok(host.events.some((e) => e.type === 'session.ended'));
        const sup = await Supervisor.open(config);
        scene.sup = sup;
        assert.equal(sup.recovered.processesReattached, 0);
        assert.equal(sup.recovered.threads, 0, 'nothing was left to recover');
        const approval = sup.getApproval(approvalId);
        assert.deepEqual([approval.status, approval.reason], ['cancelled', 'host_closed']);
        assert.deepEqual(readdirSync(join(dataDir, 'cli')), []);
        return;
      }

      assert.ok(isRunningPid(pid), 'the CLI keeps running after a default close');
      assert.ok(existsSync(spoolDir), 'with its spool');
      const detached = host.events.find((e) => e.type === 'session.detached');
      assert.equal(detached?.data.pid, pid);
      assert.equal(
        host.events.some((e) => e.type === 'approval.cancelled' || e.type === 'session.ended'),
        false,
        'nothing was closed out',
      );
      const sup = await Supervisor.open(config);
      scene.sup = sup;
      assert.equal(sup.recovered.processesReattached, 1);
      assert.equal(sup.getApproval(approvalId).status, 'pending', 'still pending after the reopen');
      await sup.decide(approvalId, { behavior: 'allow' });
      const ended = await waitForEvent(sup, 'run.ended');
      assert.equal(ended.data.status, 'completed');
      assert.ok(existsSync(join(scratch.cwd, 'closed.txt')), 'the tool ran');
      await sup.close({ stopAgents: true });
      await waitForNoProcess(scratch.home);
      assertNoProcessLeft(scratch.home);
      assert.deepEqual(readdirSync(join(dataDir, 'cli')), [], 'no stale spool');
    });
});
