// The inbox as a phone app, checked the way an install prompt and an audit would: the manifest is served
// as a manifest, names the app, starts inside its scope, opens standalone and has 192 and 512 pixel PNG
// icons that are what they claim; Chromium's own installability check finds nothing missing; a service
// worker controls the page. Then 390×844 pictures of the inbox, a card, a thread and the notification
// settings, for the docs (docs/screenshots/phone-*.png, refreshed with WARDEN_UPDATE_SCREENSHOTS=1).
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { createServer } from '../../src/server/index.js';
import { openBrowser, PHONE, PICTURE_STYLE, SCREENSHOTS } from './helpers/browser.js';
import { DEMO_PROMPT, EDIT_PROMPT, NOTES, demoScript } from './helpers/scenarios.js';
import { threadWaitingForApproval } from './helpers/threads.js';
import { pagePoll } from './helpers/pwa-page.js';
import { startWarden, WEB_ROOT } from './helpers/warden.js';

interface Manifest {
  name?: string;
  short_name?: string;
  start_url?: string;
  scope?: string;
  display?: string;
  icons?: { src: string; sizes: string; type: string; purpose?: string }[];
}

test('the inbox installs as a phone app, under a service worker', { timeout: 180_000 }, async (t) => {
  const warden = await startWarden(t, (scratch) => demoScript(Promise.resolve(), scratch.cwd));
  // Web Push on, so the settings show what a person can choose.
  const server = await createServer({
    supervisor: warden.supervisor,
    dataDir: warden.dataDir,
    webRoot: WEB_ROOT,
    defaultCwd: warden.scratch.cwd,
    notify: { push: true },
    onError: () => {},
  });
  warden.beforeClose(() => server.close());
  writeFileSync(join(warden.scratch.cwd, 'NOTES.md'), NOTES);
  await threadWaitingForApproval(warden, DEMO_PROMPT);
  const edit = await threadWaitingForApproval(warden, EDIT_PROMPT);
  const { context, page } = await openBrowser({ ...warden, server }, { viewport: PHONE, mobile: true });

  // The manifest, as served and as Chromium reads it.
  const manifestUrl = `${server.url}/manifest.webmanifest`;
  const response = await page.request.get(manifestUrl);
  assert.equal(response.status(), 200);
  assert.equal(response.headers()['content-type'], 'application/manifest+json');
  const manifest = (await response.json()) as Manifest;
  assert.equal(manifest.name, 'Warden');
  assert.equal(manifest.short_name, 'Warden');
  assert.equal(manifest.display, 'standalone');
  const scope = new URL(manifest.scope ?? '.', manifestUrl).href;
  const start = new URL(manifest.start_url ?? '', manifestUrl).href;
  assert.ok(start.startsWith(scope), `start_url ${start} is inside the scope ${scope}`);
  for (const size of [192, 512]) {
    const icon = manifest.icons?.find((i) => i.sizes === `${size}x${size}` && i.type === 'image/png');
    assert.ok(icon !== undefined, `a ${size}×${size} PNG icon`);
    const image = await page.request.get(new URL(icon.src, manifestUrl).href);
    assert.equal(image.status(), 200);
    assert.equal(image.headers()['content-type'], 'image/png');
    assert.deepEqual(pngSize(await image.body()), [size, size], `${icon.src} is ${size}×${size}`);
  }
  assert.ok(
    manifest.icons?.some((i) => i.purpose === 'maskable'),
    'a maskable icon',
  );
  const cdp = await context.newCDPSession(page);
  const parsed = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
  assert.equal(parsed.url, manifestUrl);
  assert.deepEqual(parsed.errors, [], 'Chromium reads the manifest without errors');

  // A service worker controls the page, and then nothing stands in the way of installing it.
  await pagePoll(page, 'navigator.serviceWorker.controller !== null');
  assert.equal(
    await page.evaluate<string>('navigator.serviceWorker.controller.scriptURL'),
    `${server.url}/sw.js`,
  );
  const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
    installabilityErrors: { errorId: string }[];
  };
  assert.deepEqual(installabilityErrors, [], 'Chromium finds the app installable');

  // Pictures at phone size: the inbox, a card, a thread, the notification settings.
  const card = page.locator('.approval', { hasText: 'NOTES.md' });
  await card.waitFor();
  await page.locator('.approval', { hasText: '/etc/hostname' }).waitFor();
  await keep(page, 'phone-inbox');
  // The card on its own screen, just under the bar that stays at the top.
  await card.scrollIntoViewIfNeeded();
  const box = await card.boundingBox();
  assert.ok(box !== null);
  await page.evaluate(`window.scrollBy(0, ${Math.round(box.y - 64)})`);
  assert.ok(await page.evaluate<boolean>('window.scrollY > 0'), 'the page scrolled to the card');
  await keep(page, 'phone-card', false);
  await page.locator(`.thread-list a[data-thread-id="${edit.threadId}"]`).click();
  await page.locator('.timeline').waitFor();
  await keep(page, 'phone-thread');
  await page.getByRole('button', { name: 'Notifications' }).click();
  await page.getByRole('button', { name: 'Turn on push for this device' }).waitFor();
  await keep(page, 'phone-notifications');
  await page.getByRole('button', { name: 'Close' }).click();
});

/**
 * A 390×844 picture of what the screen shows now, in test-results; copied to docs/screenshots with
 * WARDEN_UPDATE_SCREENSHOTS=1.
 */
async function keep(page: import('playwright-core').Page, name: string, fromTop = true): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  if (fromTop) await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path, style: PICTURE_STYLE });
  if (process.env.WARDEN_UPDATE_SCREENSHOTS === '1')
    copyFileSync(path, join('docs/screenshots', `${name}.png`));
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Buffer): [number, number] {
  assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG', 'a PNG file');
  return [png.readUInt32BE(16), png.readUInt32BE(20)];
}
