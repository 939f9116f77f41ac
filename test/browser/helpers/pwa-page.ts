// Waiting on the page for the PWA and notification tests.
import type { Page } from 'playwright-core';

/**
 * Polls a condition in the page until it holds (at most 30 s). The page's policy forbids eval, so
 * waitForFunction with an expression cannot be used; evaluate (through DevTools) can.
 */
export async function pagePoll(page: Page, expression: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await page.evaluate<boolean>(expression))) {
    if (Date.now() > deadline) throw new Error(`still not ${expression} after 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
