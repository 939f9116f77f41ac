// @ts-check
// Text from agents as DOM nodes. What is shown as a marker, and how commands fold, is decided once for the
// browser, the terminal and notifications (src/view/visible-text.js, served at /view/); this file only
// turns those segments into nodes.

import { segments } from '/view/visible-text.js';
import { h } from './dom.js';

export { hasInvisible, lineCount, segments } from '/view/visible-text.js';

/**
 * The text as nodes: plain runs as text, markers as badges (the code point in data-code-point).
 * @param {string} text
 * @param {{ fold?: boolean }} [options]
 */
export function visibleText(text, options) {
  return segments(text, options).map((segment) =>
    typeof segment === 'string'
      ? segment
      : h(
          'span',
          {
            class: 'ctl',
            title: segment.hint,
            'data-code-point': segment.codePoint?.toString(16).toUpperCase(),
          },
          segment.mark,
        ),
  );
}
