// Several sessions with pending approvals, the host SIGKILLed and reopened again and again, sometimes
// before the re-attached CLIs said what they still wait on, sometimes after. At the end every approval is
// still pending under its first id, none was made twice, none cancelled or expired, and every one is
// answerable: allowing them completes every run. 10 sessions × 10 restarts (about 15 s); WARDEN_DURABLE_LOOP=5x5
// runs a smaller one.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { Supervisor } from '../../src/supervisor/index.js';
import { scenario } from '../../src/testing/index.js';
import { isRunningPid, openDurableScene } from './helpers/durable-host.js';
import {
  allEvents,
  assertContiguous,
  assertNoProcessLeft,
  waitForEvent,
  waitForNoProcess,
} from './helpers/supervisor-session.js';

const [SESSIONS, RESTARTS] = (process.env.WARDEN_DURABLE_LOOP ?? '10x10').split('x').map(Number) as [
  number,
  number,
];

describe('supervisor: hosts killed and reopened in a loop', { timeout: 600_000 }, () => {
  it(`${SESSIONS} sessions, ${RESTARTS} restarts: nothing lost, nothing twice, all answerable`, async (t) => {
    const scene = await openDurableScene(
      t,
      () => {
        return scenario()
          .on('ask')
          .callTool('Bash', { command: 'touch loop.txt', description: 'Create a file' })
          .thenAnswer('done')
          .build();
      },
      { noProcessWaitMs: 30_000 },
    );
    const { scratch, dataDir, config, cliPids } = scene;
    const threads = Array.from({ length: SESSIONS }, (_, i) => {
      const cwd = join(scratch.cwd, `s${i}`);
      mkdirSync(cwd);
      return { cwd, prompt: `[[ask]] session ${i}` };
    });
    const first = scene.host({ threads });
    await first.waitFor(
      () => first.events.filter((e) => e.type === 'approval.requested').length === SESSIONS,
      'every session asking',
      120_000,
    );
    const approvalIds = first.events.flatMap((e) =>
      e.type === 'approval.requested' ? [String(e.data.approvalId)] : [],
    );
    await first.kill();
    assert.equal(cliPids.size, SESSIONS);

    let since = Math.max(...first.events.map((e) => e.seq));
    for (let round = 0; round < RESTARTS; round += 1) {
      const host = scene.host({ since });
      const opened = (await host.waitFor((line) => line.opened !== undefined, 'the host opening')).opened;
      assert.equal(opened?.recovered.processesReattached, SESSIONS, `round ${round}: all re-attached`);
      assert.equal(opened?.recovered.processesStopped, 0);
      // Every other round the host dies before the CLIs answered its initialize.
      if (round % 2 === 1) await host.waitFor((line) => line.reattached === true, 'the re-attach');
      await host.kill();
      since = Math.max(since, ...host.events.map((e) => e.seq));
      assert.deepEqual(
        host.events.filter((e) => e.type.startsWith('approval.')).map((e) => e.type),
        [],
        `round ${round}: no approval was made, cancelled or expired`,
      );
      assert.equal(cliPids.size, SESSIONS, 'no CLI was started again');
      for (const pid of cliPids) assert.ok(isRunningPid(pid), `round ${round}: CLI ${pid} runs on`);
    }

    const sup = await Supervisor.open(config);
    scene.sup = sup;
    await sup.reattached;
    assert.deepEqual(
      sup
        .listApprovals({ status: 'pending' })
        .map((a) => a.id)
        .sort(),
      [...approvalIds].sort(),
      'every approval is pending under its first id',
    );
    const events = await allEvents(sup);
    assertContiguous(events);
    assert.equal(events.filter((e) => e.type === 'approval.requested').length, SESSIONS);
    assert.equal(events.filter((e) => e.type === 'session.started').length, SESSIONS);
    assert.equal(events.filter((e) => e.type === 'session.reattached').length, SESSIONS * (RESTARTS + 1));
    await Promise.all(approvalIds.map((id) => sup.decide(id, { behavior: 'allow' })));
    for (const thread of sup.listThreads())
      await waitForEvent(sup, 'run.ended', (e) => e.threadId === thread.id && e.data.status === 'completed');
    for (const { cwd } of threads) assert.ok(existsSync(join(cwd, 'loop.txt')), `the tool ran in ${cwd}`);
    await sup.close({ stopAgents: true });
    await waitForNoProcess(scratch.home, 30_000);
    assertNoProcessLeft(scratch.home);
    assert.deepEqual(readdirSync(join(dataDir, 'cli')), []);
  });
});
