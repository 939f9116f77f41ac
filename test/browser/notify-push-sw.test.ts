// Web Push, browser half: the real service worker in Chromium. The server pushes to a local RFC 8030
// stand-in (a push service Chromium cannot reach offline); the test decrypts what arrived, as the browser
// would, and hands the plaintext to the service worker through the DevTools protocol
// (ServiceWorker.deliverPushMessage). The worker shows the notification with Approve / Deny; its Approve
// handler decides the approval once (the same token again is a 409), and an approval settled in the inbox
// replaces its notification with "answered elsewhere". Without push, the page itself notifies while the
// tab is hidden, and replaces that too. Code run in the worker or the page is passed as text: it is
// browser code, not Node's.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { BrowserContext, CDPSession, Page, Worker } from 'playwright-core';

import { createServer } from '../../src/server/index.js';
import { poll, until } from '../../src/testing/index.js';
import { decryptPush, deviceKeys, startPushService } from '../integration/helpers/notify-push-service.js';
import { openBrowser } from './helpers/browser.js';
import { writeScript } from './helpers/scenarios.js';
import { pagePoll } from './helpers/pwa-page.js';
import { startWarden, WEB_ROOT } from './helpers/warden.js';
import { clickAnswer } from './helpers/actionable.js';

interface Shown {
  title: string;
  body: string;
  tag: string;
  actions: string[];
}

test(
  'the service worker shows a pushed approval, its Approve decides once, and "answered elsewhere" replaces it',
  { timeout: 180_000 },
  async (t) => {
    const warden = await startWarden(t, () => writeScript(['one', 'two', 'three']));
    const service = await startPushService(t);
    // A server of this Warden with Web Push on, accepting the local stand-in as a push service.
    const server = await createServer({
      supervisor: warden.supervisor,
      dataDir: warden.dataDir,
      webRoot: WEB_ROOT,
      defaultCwd: warden.scratch.cwd,
      notify: { push: { allowLocalEndpoints: true } },
      onError: () => {},
    });
    warden.beforeClose(() => server.close());
    const origin = server.url;

    const { context, page } = await openBrowser({ ...warden, server });
    await context.grantPermissions(['notifications'], { origin });
    const worker = await serviceWorkerOf(context, page);
    const cdp = await context.newCDPSession(page);
    const registrationId = await registrationOf(cdp, origin);

    // The device's subscription, as pushManager.subscribe would give it, but with keys the test holds.
    const device = deviceKeys();
    const subscription = { endpoint: service.endpoint('chromium'), keys: device.keys };
    const subscribed = await page.evaluate<number>(`fetch('/api/push/subscriptions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ subscription: ${JSON.stringify(subscription)}, show: 'preview' }),
    }).then((response) => response.status)`);
    assert.equal(subscribed, 201);
    const deliver = async (n: number) => {
      const pushes = await service.waitFor(n, 60_000);
      const data = decryptPush(pushes[n - 1]!.body, device);
      const payload = JSON.parse(data) as { tag: string; approvalId: string };
      // DevTools' delivery is not acknowledged, and under load Chromium has dropped one: a push that
      // shows nothing for its tag within a few seconds is delivered again (a push for a tag replaces the
      // notification with that tag, so a second delivery cannot show two).
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId, data });
        if ((await shownUntil(worker, payload.tag, (shown) => shown.length > 0, 5000)).length > 0) break;
      }
      return payload;
    };
    /** Runs the worker's click handler on its notification with this tag (or the one held before). */
    const click = (tag: string | null, action: string, hold = false) =>
      worker.evaluate<number | string>(`(async () => {
        const notification = ${JSON.stringify(tag)} === null
          ? self.held
          : (await self.registration.getNotifications({ tag: ${JSON.stringify(tag)} }))[0];
        if (notification === undefined) throw new Error('no notification');
        if (${String(hold)}) self.held = notification;
        return (await self.warden.handleClick(notification, ${JSON.stringify(action)})).status;
      })()`);

    // 1. An approval arrives: pushed, shown with Approve and Deny.
    const thread = await warden.supervisor.createThread({ cwd: warden.scratch.cwd, mode: 'supervised' });
    await warden.supervisor.send(thread.id, '[[one]] Create one.txt');
    const first = await deliver(1);
    const shown = await shownUntil(worker, first.tag, (n) => n.length === 1);
    assert.deepEqual(shown, [
      { title: 'Bash wants approval', body: 'touch one.txt', tag: first.tag, actions: ['approve', 'deny'] },
    ]);

    // 2. Approve, as a tap on the button does: decided, and the notification says so.
    assert.equal(await click(first.tag, 'approve', true), 200);
    const decided = warden.supervisor.getApproval(first.approvalId);
    assert.equal(decided.status, 'allowed');
    assert.equal(decided.decision?.by, 'webhook');
    const approvedHere = [['Approved', 'From this device. Open Warden to follow the run.']];
    assert.deepEqual(await titles(worker, first.tag), approvedHere);
    // The "resolved" push that follows leaves this device's own answer in place.
    await deliver(2);
    assert.deepEqual(await titles(worker, first.tag), approvedHere);

    // 3. The same token again (the notification as it was before the tap): 409, nothing decided twice.
    assert.equal(await click(null, 'approve'), 409);
    assert.equal(
      warden.supervisor.listApprovals({}).filter((a) => a.decision?.by === 'webhook').length,
      1,
      'one decision through the notification',
    );

    // 4. Another approval, answered in the inbox: its notification becomes "Answered elsewhere".
    await warden.waitForEvent((e) => e.type === 'run.ended');
    await warden.supervisor.send(thread.id, '[[two]] Create two.txt');
    const second = await deliver(3);
    await shownUntil(worker, second.tag, (n) => n[0]?.actions.length === 2);
    const card = page.locator('.approval', { hasText: 'two.txt' });
    await clickAnswer(card, card.getByRole('button', { name: /Approve once/ }));
    await card.waitFor({ state: 'detached' });
    await deliver(4);
    const replaced = await shownUntil(worker, second.tag, (n) => n[0]?.title === 'Answered elsewhere');
    assert.deepEqual(replaced, [
      { title: 'Answered elsewhere', body: 'Bash: allowed by user', tag: second.tag, actions: [] },
    ]);

    // 5. A plain click on a notification brings the inbox forward.
    await page.evaluate(`location.hash = '#/threads/${thread.id}'`);
    assert.equal(await click(second.tag, ''), 'opened');
    await pagePoll(page, `location.hash === '#/'`);

    // 6. The page's own notifications: turned on in this browser, for a tab in the background.
    await page.evaluate(`localStorage.setItem('warden.notify.browser', '1');
      Object.defineProperty(document, 'visibilityState', { get: () => 'hidden' })`);
    await untilTrue(() => warden.supervisor.getThread(thread.id).runs.every((r) => r.status !== 'running'));
    await warden.supervisor.send(thread.id, '[[three]] Create three.txt');
    await untilTrue(() => warden.supervisor.listApprovals({ status: 'pending' }).length === 1);
    const [waiting] = warden.supervisor.listApprovals({ status: 'pending' }).map((a) => a.id);
    assert.ok(waiting !== undefined);
    const tag = `warden-approval-${waiting}`;
    assert.deepEqual(await shownUntil(worker, tag, (n) => n.length === 1), [
      { title: 'Bash wants approval', body: 'touch three.txt', tag, actions: [] },
    ]);
    await warden.supervisor.decide(waiting, { behavior: 'deny', message: 'not now' });
    assert.deepEqual(
      (await shownUntil(worker, tag, (n) => n[0]?.title === 'Answered elsewhere')).map((n) => [
        n.title,
        n.body,
      ]),
      [['Answered elsewhere', 'Bash: denied']],
    );
  },
);

/** Resolves once `condition` holds; throws after 30 s. */
const untilTrue = (condition: () => boolean): Promise<true> =>
  until(condition, { what: 'the condition', timeoutMs: 30_000, intervalMs: 50 });

/** The page's service worker, once it controls the page. */
async function serviceWorkerOf(context: BrowserContext, page: Page): Promise<Worker> {
  await pagePoll(page, 'navigator.serviceWorker.controller !== null');
  return context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
}

/** The registration id DevTools knows the worker by. */
async function registrationOf(cdp: CDPSession, origin: string): Promise<string> {
  const found = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const mine = registrations.find((r) => r.scopeURL.startsWith(origin) && !r.isDeleted);
      if (mine !== undefined) resolve(mine.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  return found;
}

/** The worker's notifications with this tag, once `done` holds of them (bounded: `withinMs`). */
async function shownUntil(
  worker: Worker,
  tag: string,
  done: (shown: Shown[]) => boolean,
  withinMs = 30_000,
): Promise<Shown[]> {
  const read = (): Promise<Shown[]> =>
    worker.evaluate<Shown[]>(`self.registration
      .getNotifications({ tag: ${JSON.stringify(tag)} })
      .then((list) => list.map((n) => ({
        title: n.title, body: n.body, tag: n.tag, actions: (n.actions ?? []).map((a) => a.action),
      })))`);
  const settled = await poll(
    async () => {
      const shown = await read();
      return done(shown) ? shown : undefined;
    },
    { timeoutMs: withinMs, intervalMs: 100 },
  );
  // Out of time: what is shown now, for the caller's assertion to report.
  return settled ?? (await read());
}

async function titles(worker: Worker, tag: string): Promise<string[][]> {
  return (await shownUntil(worker, tag, () => true)).map((n) => [n.title, n.body]);
}
