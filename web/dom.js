// @ts-check
// A tiny element builder. Every string goes in as a text node or an attribute value, never as markup,
// so text from agents (commands, file contents, model output) can never inject HTML.

/**
 * @typedef {string | number | Node | null | undefined | false} Child
 * @typedef {Child | Array<Child | Array<Child | Array<Child>>>} Children nested arrays are flattened, so
 *   views can return fragments
 * @typedef {Record<string, string | number | boolean | null | undefined | EventListener>} Props
 */

/**
 * Creates an element. Props starting with `on` become listeners; `true` sets an empty attribute, and
 * `false`, `null` and `undefined` leave it out. `class` and `for` are ordinary attributes here.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Props} [props]
 * @param {...Children} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value);
    else if (value === true) element.setAttribute(name, '');
    else if (value !== false && value !== null && value !== undefined)
      element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

/**
 * @param {Node} parent
 * @param {Children[]} children
 */
export function append(parent, children) {
  for (const child of /** @type {Child[]} */ (children.flat(Infinity))) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/**
 * Replaces an element's children.
 * @param {Element} parent
 * @param {...Children} children
 */
export function replace(parent, ...children) {
  parent.replaceChildren();
  append(parent, children);
}

/**
 * The element with this id, typed; throws when the page lacks it (a bug in index.html, not a user error).
 * @template {HTMLElement} T
 * @param {string} id
 * @param {new () => T} type
 * @returns {T}
 */
export function byId(id, type) {
  const element = document.getElementById(id);
  if (!(element instanceof type)) throw new Error(`#${id} is missing from the page`);
  return element;
}
