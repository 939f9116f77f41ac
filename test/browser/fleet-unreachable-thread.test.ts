// A fleet host that went away, in Chromium's thread view and sidebar: the page is served by host B; host
// A (in this process) owns two threads, one created before the page loaded and one after (whose host the
// page learns from the thread's view). While A holds its lease the header says where the thread runs and
// the sidebar marks nothing; once A leaves, the header says the host is unreachable and what that means,
// and both threads carry a marker in the sidebar; when A is back, the marks go.
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

describe(
  'a fleet host that went away, in the thread view and the sidebar',
  { timeout: 180_000, skip },
  () => {
    it("marks the host's threads unreachable on another host's page, and clears the marks when it is back", async (t) => {
      const store = await freshDatabase(t);
      const warden = await startWarden(t, () => scenario().on('never').thenAnswer('-').build(), {
        fleet: { store, hostName: 'host-b' },
      });
      const openHostA = () =>
        Supervisor.open({
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
      const opened = { hostA: await openHostA() };
      warden.beforeClose(() => opened.hostA.close({ stopAgents: true }));
      const early = await opened.hostA.createThread({
        cwd: warden.scratch.cwd,
        mode: 'supervised',
        title: 'Early',
      });
      await warden.waitForEvent((e) => e.type === 'thread.created' && e.threadId === early.id);

      const { page } = await openBrowser(warden);
      const link = (id: string) => page.locator(`.thread-list a[data-thread-id="${id}"]`);
      await link(early.id).waitFor();
      const late = await opened.hostA.createThread({
        cwd: warden.scratch.cwd,
        mode: 'supervised',
        title: 'Late',
      });
      await link(late.id).waitFor();
      await link(late.id).click();
      const header = page.locator('.thread-view .thread-host');
      await header.waitFor();
      assert.equal(await header.textContent(), 'Runs on host host-a');
      assert.equal(await header.getAttribute('data-reachable'), 'true');
      assert.equal(await page.locator('.thread-list .host-down').count(), 0, 'host-a is live: no marker');

      // A leaves: its lease ends at once; the page polls the leases and says so.
      await opened.hostA.close();
      await page.locator('.thread-view .thread-host[data-reachable="false"]').waitFor({ timeout: 30_000 });
      assert.match(
        (await header.textContent()) ?? '',
        /^Host host-a unreachable since .+: its approvals wait until it is back; a message sent now moves the thread to the host serving this page\.$/,
      );
      for (const id of [early.id, late.id]) {
        const marker = link(id).locator('.host-down');
        await marker.waitFor({ timeout: 30_000 });
        assert.equal(await marker.textContent(), 'Host host-a unreachable');
        assert.match((await marker.getAttribute('title')) ?? '', /^Host host-a unreachable since /);
      }

      // Back again: the header says where the thread runs, and the markers go.
      opened.hostA = await openHostA();
      await page.locator('.thread-view .thread-host[data-reachable="true"]').waitFor({ timeout: 30_000 });
      await page.locator('.thread-list .host-down').first().waitFor({ state: 'detached', timeout: 30_000 });
      assert.equal(await page.locator('.thread-list .host-down').count(), 0);
    });
  },
);
