// A fleet host that went away, in Chromium: the page is served by host B; host A (in this process, the
// real CLI) waits on an approval and then leaves without answering it (its lease ends, its detached CLI
// keeps running). B's inbox card says "Host host-a unreachable since …" instead of silently pending.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { Supervisor } from '../../src/supervisor/index.js';
import { offlineClaudeEnv, pinnedClaudePath, scenario } from '../../src/testing/index.js';
import { postgresAvailable } from '../../src/testing/postgres-cluster.js';
import { freshDatabase } from '../helpers/store-backends.js';
import { openBrowser } from './helpers/browser.js';
import { startWarden } from './helpers/warden.js';

const skip = postgresAvailable() ? false : 'PostgreSQL is not available';

describe('a fleet host that went away, in the inbox', { timeout: 180_000, skip }, () => {
  it("shows the approval's host as unreachable on another host's page", async (t) => {
    const store = await freshDatabase(t);
    const script = scenario()
      .on('ask')
      .callTool('Bash', { command: 'touch away.txt', description: 'Create a file' })
      .thenAnswer('The file is there.')
      .build();
    const warden = await startWarden(t, () => script, { fleet: { store, hostName: 'host-b' } });
    const hostA = await Supervisor.open({
      dataDir: join(warden.scratch.dir, 'data-a'),
      store,
      host: { name: 'host-a' },
      claudePath: pinnedClaudePath(),
      env: offlineClaudeEnv({
        mockUrl: warden.mock.url,
        home: warden.scratch.home,
        tmpdir: warden.scratch.tmpdir,
      }),
    });
    const opened = { hostA };
    warden.beforeClose(() => opened.hostA.close({ stopAgents: true }));
    const thread = await hostA.createThread({ cwd: warden.scratch.cwd, mode: 'supervised' });
    await hostA.send(thread.id, '[[ask]] make a file');
    await warden.waitForEvent((e) => e.type === 'approval.requested' && e.threadId === thread.id);
    const { page } = await openBrowser(warden);
    const card = page.locator('.approval.card');
    await card.waitFor();
    assert.equal(await card.locator('.host-unreachable').count(), 0, 'host-a is live: nothing to say');

    // A leaves without answering: its lease ends at once, the approval stays pending, its CLI runs on.
    await hostA.close();
    const note = card.locator('.host-unreachable');
    await note.waitFor({ timeout: 30_000 });
    assert.match((await note.textContent()) ?? '', /^Host host-a unreachable since .+: a decision waits/);
    assert.equal(warden.supervisor.listApprovals({ status: 'pending' }).length, 1);

    // Back again: it re-attaches its CLI and the note goes.
    opened.hostA = await Supervisor.open({
      dataDir: join(warden.scratch.dir, 'data-a'),
      store,
      host: { name: 'host-a' },
      claudePath: pinnedClaudePath(),
      env: offlineClaudeEnv({
        mockUrl: warden.mock.url,
        home: warden.scratch.home,
        tmpdir: warden.scratch.tmpdir,
      }),
    });
    await note.waitFor({ state: 'detached', timeout: 30_000 });
  });
});
