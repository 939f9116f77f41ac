// Chromium for browser tests: Debian's build (no browser download), headless, a fresh profile in the
// test's scratch directory, logged in through a login link of the server (the login page trades it for the
// session cookie and moves on to the app). Screenshots are kept under
// test-results/screenshots/ as artifacts.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { chromium, type BrowserContext, type Page } from 'playwright-core';

import type { Warden } from './warden.js';

export const CHROMIUM = process.env.WARDEN_CHROMIUM ?? '/usr/bin/chromium';
export const SCREENSHOTS = 'test-results/screenshots';

export const LAPTOP = { width: 1366, height: 860 };

/**
 * The style a picture for the docs is taken with: notices come and go with timing, so they are left out;
 * taking a picture may resize or scroll the page, which starts the answer buttons' moment of waiting to be
 * seen again (web/arming.js), so their waiting ring is left out too: the picture shows them as a person
 * sees them.
 */
export const PICTURE_STYLE =
  ".toasts { display: none !important; } [data-actionable='false'] button::after { display: none !important; }";
export const PHONE = { width: 390, height: 844 };

export interface Browser {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Saves a full-page screenshot as test-results/screenshots/<name>.png (and returns the path). */
  screenshot: (name: string, page?: Page) => Promise<string>;
}

/** What openBrowser needs of a Warden: an in-process one, or a `warden serve` child process. */
export type BrowserHost = Pick<Warden, 'scratch' | 'beforeClose'> & { server: { loginLink(): string } };

export async function openBrowser(
  warden: BrowserHost,
  options: {
    viewport?: { width: number; height: number };
    mobile?: boolean;
    /** Runs before the page loads, e.g. to route its WebSocket. */
    setup?: (context: BrowserContext) => Promise<void>;
    /** The login link to open (default: a fresh one). */
    link?: string;
  } = {},
): Promise<Browser> {
  const profile = join(warden.scratch.dir, 'chromium-profile');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: options.viewport ?? LAPTOP,
    ...(options.mobile === true ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
    colorScheme: 'light',
    reducedMotion: 'reduce',
  });
  const pageErrors: Error[] = [];
  // The page goes before its server, so no reconnect attempt outlives the test; an uncaught error in the
  // page (a script bug, an unhandled rejection) fails the test even when the screen looked right.
  warden.beforeClose(async () => {
    await context.close();
    assert.deepEqual(pageErrors.map(String), [], 'the page threw nothing');
  });
  await options.setup?.(context);
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => pageErrors.push(error));
  page.setDefaultTimeout(30_000);
  await page.goto(options.link ?? warden.server.loginLink());
  await page.waitForSelector('#connection[data-state="live"]');
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    context,
    page,
    screenshot: async (name, target = page) => {
      const path = join(SCREENSHOTS, `${name}.png`);
      // From the top, so the sticky bar sits where it belongs.
      await target.evaluate('window.scrollTo(0, 0)');
      await target.screenshot({ path, fullPage: true, style: PICTURE_STYLE });
      return path;
    },
  };
}
