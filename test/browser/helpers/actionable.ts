// The inbox only takes an answer for a card that has been on screen and in place for a moment (see
// web/arming.js). Tests that answer by keyboard, or at a moment of their choosing, wait for that state
// instead of sleeping: the card says so with data-actionable="true".
import type { Locator } from 'playwright-core';

/** Resolves once `card` (an approval card, or a thread's inline approval) accepts answers. */
export async function whenActionable(card: Locator): Promise<void> {
  await card.scrollIntoViewIfNeeded();
  await card.and(card.page().locator('[data-actionable="true"]')).waitFor();
}

/** What the inbox says when an answer came before the person could have seen what it answers. */
const NOT_SENT = /had only just appeared or (moved|changed)/;

/**
 * Answers through `button` once `holder` (a card, a thread's pending call, a batch preview) takes answers,
 * as a person does: if the page moved under the click (a re-render, a card sliding up) the inbox refuses
 * it and says so, and the person looks again and answers again. The refusal is synchronous (the click
 * handler shows it), so a click that sent nothing is known when click() returns; it never sends twice.
 * `tap` answers with a touch, as on a phone.
 */
export async function clickAnswer(
  holder: Locator,
  button: Locator,
  { tap = false }: { tap?: boolean } = {},
): Promise<void> {
  const page = holder.page();
  for (let attempt = 1; ; attempt += 1) {
    await whenActionable(holder);
    await page.evaluate(`document.querySelectorAll('.toast').forEach((t) => { t.dataset.seen = '1'; })`);
    await (tap ? button.tap() : button.click());
    const refused = await page.locator('.toast:not([data-seen])', { hasText: NOT_SENT }).count();
    if (refused === 0) return;
    if (attempt === 3) throw new Error('The inbox refused the answer three times: the page kept moving');
  }
}
