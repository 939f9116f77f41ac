// @ts-check
// Under an "always allow", what those rules would have done in this thread so far: the server replays
// them over the thread's recorded requests (POST /api/policy/simulate, docs/decisions.md) before anything
// is saved. One answer per thread and set of rules is kept for the page's life, so a card drawn again
// does not ask again. A caller who may not simulate (a decide-only token) or a server that cannot answer
// gets no line: the card is the same without it.

import * as api from './api.js';
import { replace } from './dom.js';

/** @type {Map<string, Promise<string | null>>} */
const answers = new Map();
/** A rule being typed asks once the typing pauses. @type {WeakMap<HTMLElement, ReturnType<typeof setTimeout>>} */
const typing = new WeakMap();
const PAUSE_MS = 300;

/**
 * @param {string} threadId
 * @param {string[]} rules
 * @param {boolean} fromCard the line is on an approval's card (its request is among those recorded)
 * @returns {Promise<string | null>}
 */
function wouldHave(threadId, rules, fromCard) {
  const key = JSON.stringify([threadId, rules, fromCard]);
  let answer = answers.get(key);
  if (answer === undefined) {
    answer = api.simulatePolicy({ scope: { threadId }, change: { allow: rules } }).then(
      ({ summary }) => {
        const asks = summary.asksAllowed;
        const denied = summary.deniedAsksAllowed;
        const of = `${summary.requests} recorded ${summary.requests === 1 ? 'request' : 'requests'}${fromCard ? ', this one included' : ''}`;
        const then = denied > 0 ? `; ${denied} of them had been denied` : '';
        return `In this thread so far (${of}), ${rules.length === 1 ? 'this rule' : 'these rules'} would have allowed ${asks} ${asks === 1 ? 'ask' : 'asks'}${then}.`;
      },
      () => null,
    );
    answers.set(key, answer);
  }
  return answer;
}

/**
 * Fills `line` with what `rules` would have done in the thread, once the server says (hidden meanwhile,
 * and if it cannot). A later call for other rules wins over an earlier one still under way. `typed`: the
 * rules are being typed (a rules panel): every call waits for the typing to pause, the first one too.
 * @param {HTMLElement} line
 * @param {string} threadId
 * @param {string[]} rules
 * @param {{ typed?: boolean }} [options]
 */
export function showSimulation(line, threadId, rules, { typed = false } = {}) {
  const fromCard = !typed;
  const key = JSON.stringify(rules);
  line.dataset.rules = key;
  line.hidden = true;
  clearTimeout(typing.get(line));
  if (rules.length === 0 || rules.some((rule) => rule.trim() === '')) return;
  const ask = () =>
    void wouldHave(threadId, rules, fromCard).then((text) => {
      if (line.dataset.rules !== key || text === null) return;
      replace(line, text);
      line.hidden = false;
    });
  // The rules offered are asked about at once; an edit, when the typing pauses.
  if (answers.has(JSON.stringify([threadId, rules, fromCard])) || (!typed && line.dataset.asked !== 'yes')) {
    line.dataset.asked = 'yes';
    ask();
  } else typing.set(line, setTimeout(ask, PAUSE_MS));
}
