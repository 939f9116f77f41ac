// @ts-check
// An answer only counts for an approval a person could have seen. Every element that offers answers
// (an inbox card, a pending call in a thread) is watched: it becomes actionable once it has been on
// screen and in the same place for SETTLE_MS, and whenever one of them leaves the page — the card just
// answered slides away and the next slides up under the pointer — nothing is actionable for LOCK_MS.
// So the second click of a double-click, a held key, or a click on a card that has just appeared answers
// nothing. The element carries data-actionable="true" while it takes answers (for styling and tests); its
// answer buttons then look as always, with a ring that fills up while they wait (inbox.css), never pale as
// if disabled: they are only waiting for the person to have seen what they answer.

/** How long an element must have been visible and unmoved before an answer counts. */
export const SETTLE_MS = 500;
/** After an answerable element leaves, how long no answer counts (longer than a double-click). */
export const LOCK_MS = 600;
/**
 * How often positions are sampled to see a card become ready. A change of the page (nodes, text, size,
 * scroll) is sampled at once, and so is every answer, so a move is never missed.
 */
const SAMPLE_MS = 100;

/**
 * The buttons that send an answer: each names its approval (a card's, a thread's pending call's), or
 * applies a batch. Other buttons in a card (the rule editor's) work at any time.
 */
export const ANSWER_BUTTONS = 'button[data-approval-id], button.batch-apply';

/** @typedef {{ where: string, since: number }} Watch */

class Arming {
  /** @type {Map<HTMLElement, Watch>} */ #watched = new Map();
  #lockedUntil = 0;
  /** @type {ReturnType<typeof setInterval> | undefined} */ #timer;
  /** @type {MutationObserver | undefined} */ #observer;
  #resizes = new ResizeObserver(() => this.#tick());

  constructor() {
    // A page that comes back to the foreground is looked at again before it takes answers; a scroll or
    // a resized window moves what is under the pointer.
    const tick = () => {
      if (this.#watched.size > 0) this.#tick();
    };
    document.addEventListener('visibilitychange', tick);
    addEventListener('scroll', tick, { passive: true, capture: true });
    addEventListener('resize', tick, { passive: true });
  }

  /**
   * Starts watching an element that offers answers.
   * @param {HTMLElement} element
   */
  watch(element) {
    if (this.#watched.has(element)) return;
    this.#watched.set(element, { where: 'new', since: performance.now() });
    this.#mark(element, false);
    this.#resizes.observe(element);
    this.#start();
  }

  /**
   * Whether an answer given through `element` now counts. Samples the element first, so one that moved
   * since the last sample (a card that slid up a moment ago) does not.
   * @param {HTMLElement} element
   */
  allows(element) {
    this.#sweep();
    const watch = this.#watched.get(element);
    if (watch === undefined) return false;
    this.#sample(element, watch, performance.now());
    return this.#ready(watch, performance.now());
  }

  #start() {
    this.#timer ??= setInterval(() => this.#tick(), SAMPLE_MS);
    // A change of the page is seen as it happens (a microtask after it), before the next input event:
    // a removal locks at once, a card pushed down is marked not ready at once.
    if (this.#observer === undefined) {
      this.#observer = new MutationObserver(() => this.#tick());
      this.#observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    }
  }

  #tick() {
    this.#sweep();
    const now = performance.now();
    for (const [element, watch] of this.#watched) {
      this.#sample(element, watch, now);
      this.#mark(element, this.#ready(watch, now));
    }
    if (this.#watched.size === 0) {
      clearInterval(this.#timer);
      this.#timer = undefined;
      this.#observer?.disconnect();
      this.#observer = undefined;
    }
  }

  /** Forgets elements that left the page, and locks every answer for a moment if any did. */
  #sweep() {
    for (const element of this.#watched.keys())
      if (!element.isConnected) {
        this.#watched.delete(element);
        this.#resizes.unobserve(element);
        this.#lockedUntil = performance.now() + LOCK_MS;
      }
  }

  /**
   * @param {HTMLElement} element
   * @param {Watch} watch
   * @param {number} now
   */
  #sample(element, watch, now) {
    const where = position(element);
    if (where !== watch.where) {
      watch.where = where;
      watch.since = now;
    }
  }

  /**
   * @param {Watch} watch
   * @param {number} now
   */
  #ready(watch, now) {
    return watch.where !== 'hidden' && now - watch.since >= SETTLE_MS && now >= this.#lockedUntil;
  }

  /**
   * @param {HTMLElement} element
   * @param {boolean} ready
   */
  #mark(element, ready) {
    if (element.dataset.actionable === String(ready)) return;
    element.dataset.actionable = String(ready);
    // Assistive technology and automation see the same: the answers are not available yet.
    for (const control of element.querySelectorAll(ANSWER_BUTTONS))
      if (ready) control.removeAttribute('aria-disabled');
      else control.setAttribute('aria-disabled', 'true');
  }
}

/**
 * Where the element is on screen, or 'hidden' when the page is in the background, the element has no
 * box, or none of it is in the viewport. Viewport coordinates: scrolling moves it, as it moves what is
 * under the pointer.
 * @param {HTMLElement} element
 */
function position(element) {
  if (document.visibilityState !== 'visible') return 'hidden';
  const r = element.getBoundingClientRect();
  const onScreen = r.width > 0 && r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth;
  return onScreen ? [r.left, r.top, r.width, r.height].map(Math.round).join(',') : 'hidden';
}

export const arming = new Arming();
