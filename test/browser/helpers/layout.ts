// Measuring what a person sees of the page's layout: whether it scrolls sideways, whether an element lies
// inside the window, whether a text is cut. Boxes are in window coordinates (getBoundingClientRect). The
// tests compile without the DOM's types: code run in the page reaches the window through its element.
import assert from 'node:assert/strict';

import type { Locator, Page } from 'playwright-core';

/** Fails when the page is wider than the window (it would scroll sideways). */
export async function assertNoSidewaysScroll(page: Page, where: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate<{ scrollWidth: number; innerWidth: number }>(
    '({ scrollWidth: document.scrollingElement.scrollWidth, innerWidth: window.innerWidth })',
  );
  assert.ok(scrollWidth <= innerWidth, `${where}: no sideways scrolling (${scrollWidth} > ${innerWidth})`);
}

/** Fails when any part of `element` is left or right of the window. */
export async function assertInsideWidth(element: Locator, what: string): Promise<void> {
  const { left, right, innerWidth } = await element.evaluate((e) => {
    const box = e.getBoundingClientRect();
    return { left: box.left, right: box.right, innerWidth: e.ownerDocument.defaultView.innerWidth };
  });
  assert.ok(
    left >= 0 && right <= innerWidth,
    `${what} lies inside the window (${left}–${right} of ${innerWidth})`,
  );
}

/**
 * The element and every element in it that sticks out of the window on the left or right, as
 * "tag.class 1234–1500" lines; none is what a layout that fits gives.
 */
export async function outOfWidth(element: Locator): Promise<string[]> {
  return element.evaluate((root) => {
    const out: string[] = [];
    for (const e of [root, ...root.querySelectorAll('*')]) {
      const box = e.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      if (box.left < 0 || box.right > root.ownerDocument.defaultView.innerWidth)
        out.push(
          `${e.tagName.toLowerCase()}.${e.className} ${Math.round(box.left)}–${Math.round(box.right)}`,
        );
    }
    return out;
  });
}

/** Whether an element's text is shown whole: not cut with an ellipsis nor clipped. */
export async function textIsWhole(
  element: Locator,
): Promise<{ whole: boolean; scrollWidth: number; clientWidth: number }> {
  return element.evaluate((e) => ({
    whole: e.scrollWidth <= e.clientWidth,
    scrollWidth: e.scrollWidth,
    clientWidth: e.clientWidth,
  }));
}
