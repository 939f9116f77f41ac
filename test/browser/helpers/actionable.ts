// The inbox only takes an answer for a card that has been on screen and in place for a moment (see
// web/arming.js). Tests that answer by keyboard, or at a moment of their choosing, wait for that state
// instead of sleeping: the card says so with data-actionable="true".
import type { Locator } from 'playwright-core';

/** Resolves once `card` (an approval card, or a thread's inline approval) accepts answers. */
export async function whenActionable(card: Locator): Promise<void> {
  await card.scrollIntoViewIfNeeded();
  await card.and(card.page().locator('[data-actionable="true"]')).waitFor();
}
