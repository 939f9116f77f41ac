// Pictures of one element for the docs: taken as a person sees it (answers armed, notices hidden), kept
// under test-results/screenshots/, and copied to docs/screenshots/ when WARDEN_UPDATE_SCREENSHOTS=1.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { Locator } from 'playwright-core';

import { whenActionable } from './actionable.js';
import { SCREENSHOTS } from './browser.js';

/** `armed`: wait until the element takes answers (a card, a batch preview); default true. */
export async function photograph(element: Locator, name: string, armed = true): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  if (armed) await whenActionable(element);
  else await element.scrollIntoViewIfNeeded();
  await element.screenshot({ path, style: '.toasts { display: none !important; }' });
  if (process.env.WARDEN_UPDATE_SCREENSHOTS !== '1') return;
  mkdirSync('docs/screenshots', { recursive: true });
  copyFileSync(path, `docs/screenshots/${name}.png`);
}
