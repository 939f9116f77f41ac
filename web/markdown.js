// @ts-check
// Model text as Markdown, drawn inert. `marked` turns it into HTML with rules of our own — raw HTML in
// the text is shown as text, task-list boxes become ☑/☐ marks, images become a plain "image: alt
// (address)" note (nothing is fetched), links keep only http(s) and mailto addresses — and DOMPurify then
// keeps only a short list of tags and attributes, so no script, handler, style, form control, frame, SVG
// or data: URL reaches the page whatever the text says. Links open in a new tab without an opener or a
// referrer. Invisible and control characters are shown as markers (visible-text.js), as everywhere agent
// text is drawn.

import { Marked } from '/vendor/marked.js';
import DOMPurify from '/vendor/purify.js';

import { h } from './dom.js';
import { visibleText } from './visible-text.js';

const ALLOWED_TAGS = [
  'p',
  'br',
  'strong',
  'em',
  'del',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'a',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'span',
];
const ALLOWED_ATTR = ['href', 'title', 'start', 'align', 'class'];
const SAFE_URL = /^(?:https?:|mailto:)/iu;

/** @param {string} text */
function escapeHtml(text) {
  return text.replace(/[&<>"']/gu, (c) => `&#${c.charCodeAt(0)};`);
}

const marked = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    // Raw HTML in the model's text is text, not markup.
    html: ({ text }) => escapeHtml(text),
    // Never fetched: the page loads nothing the model points at.
    // A task list's box is a mark, not a form control the page would let anyone type into or tick.
    checkbox: ({ checked }) => (checked ? '☑ ' : '☐ '),
    image: ({ href, text }) =>
      `<span class="md-image">image: ${escapeHtml(text || 'no description')} (${escapeHtml(href)})</span>`,
  },
});

const purify = DOMPurify(window);
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    const href = node.getAttribute('href');
    if (href === null || !SAFE_URL.test(href.trim())) node.removeAttribute('href');
    else {
      node.setAttribute('rel', 'noopener noreferrer');
      node.setAttribute('target', '_blank');
    }
  }
  if (node.hasAttribute('class') && !/^(?:md-image|language-[\w-]+)$/u.test(node.getAttribute('class') ?? ''))
    node.removeAttribute('class');
});

/**
 * The text rendered as Markdown, sanitized, in a `div.markdown`.
 * @param {string} text
 * @param {string} [className] more classes for the box
 */
export function markdown(text, className = '') {
  const html = /** @type {string} */ (marked.parse(text, { async: false }));
  const fragment = purify.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOWED_URI_REGEXP: SAFE_URL,
    ALLOW_DATA_ATTR: false,
    ADD_ATTR: ['target', 'rel'],
    RETURN_DOM_FRAGMENT: true,
  });
  showInvisible(fragment);
  const box = h('div', { class: `markdown ${className}`.trim() });
  box.append(fragment);
  return box;
}

/**
 * Replaces invisible characters in the text nodes with visible markers.
 * @param {Node} root
 */
function showInvisible(root) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  /** @type {Text[]} */
  const texts = [];
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode())
    texts.push(/** @type {Text} */ (node));
  for (const node of texts) {
    const parts = visibleText(node.data);
    if (parts.length === 1 && typeof parts[0] === 'string') continue;
    node.replaceWith(...parts);
  }
}
