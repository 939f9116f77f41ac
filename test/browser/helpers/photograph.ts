// Pictures of one element for the docs: taken as a person sees it (answers armed, notices hidden), kept
// under test-results/screenshots/, and copied to docs/screenshots/ when WARDEN_UPDATE_SCREENSHOTS=1.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { Locator } from 'playwright-core';

import { whenActionable } from './actionable.js';
import { PICTURE_STYLE, SCREENSHOTS } from './browser.js';

/**
 * `armed`: wait until the element takes answers (a card); false for a larger element whose answerable
 * part the test has waited for (a batch panel and its preview), which is then taken from the top of the
 * page, clear of the sticky bar.
 */
export async function photograph(element: Locator, name: string, armed = true): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  if (armed) await whenActionable(element);
  else await element.page().evaluate('window.scrollTo(0, 0)');
  await element.screenshot({ path, style: PICTURE_STYLE });
  if (process.env.WARDEN_UPDATE_SCREENSHOTS !== '1') return;
  mkdirSync('docs/screenshots', { recursive: true });
  copyFileSync(path, `docs/screenshots/${name}.png`);
}
