// @ts-check
// The audit view (#/audit): the decisions of every thread, newest first, a page at a time — filtered on
// the server by thread, decider and outcome (the filters sit in the address, `#/audit?outcome=deny`, so
// a filtered view can be linked and survives a reload); a Verify button that asks the server to check
// the hash chain from its first record and says intact (how many records, the last hash) or where it
// breaks; and an Export link to the CSV of the same records, downloaded through the logged-in session.

import { ApiError } from './api.js';
import { exportUrl, filterParams, readAuditPage, verifyAudit } from './audit-api.js';
import { auditRow, COLUMNS, OUTCOME_WORDS } from './audit-rows.js';
import { h, replace } from './dom.js';
import { folderName } from './format.js';

/** @import { State } from './state.js' */
/** @import { AuditFilters } from './audit-api.js' */
/** @import { AuditOutcome } from '../src/store/audit-record.js' */

/** Names Warden decides under besides the deciders' own, offered as the decider field's suggestions. */
const BUILT_IN_DECIDERS = ['owner', 'policy', 'deadline', 'warden', 'webhook link'];

export class AuditView {
  /** Each load gets a number; a page that arrives after a newer load started is dropped. */
  #load = 0;
  /** @type {number | undefined} the seq the last page ended at: where "Show older" goes on */
  #oldest;
  /** @type {Set<string>} */ #deciders = new Set(BUILT_IN_DECIDERS);
  /** @type {AuditFilters} the filters of the records shown (and of their next page) */
  #filters = {};

  /**
   * @param {HTMLElement} root
   * @param {State} state
   * @param {string} query the address's query (`threadId=…&decider=…&outcome=…`), possibly empty
   */
  constructor(root, state, query) {
    this.state = state;
    const initial = new URLSearchParams(query);
    this.thread = h('select', { id: 'audit-thread', name: 'threadId' });
    this.decider = h('input', {
      id: 'audit-decider',
      name: 'decider',
      list: 'audit-deciders',
      autocomplete: 'off',
      spellcheck: 'false',
      placeholder: 'anyone',
    });
    this.decider.value = initial.get('decider') ?? '';
    this.deciderList = h('datalist', { id: 'audit-deciders' });
    this.outcome = h(
      'select',
      { id: 'audit-outcome', name: 'outcome' },
      h('option', { value: '' }, 'any'),
      Object.entries(OUTCOME_WORDS).map(([value, words]) => h('option', { value }, words)),
    );
    this.outcome.value = initial.get('outcome') ?? '';
    this.#fillThreads(initial.get('threadId') ?? '');
    this.exportLink = h('a', { class: 'button export', download: 'warden-audit.csv' }, 'Export CSV');
    this.verifyButton = h(
      'button',
      { type: 'button', class: 'verify', onclick: () => void this.#verify() },
      'Verify',
    );
    this.verdict = h('p', { class: 'verdict', role: 'status', hidden: true });
    this.problem = h('p', { class: 'audit-error', role: 'alert', hidden: true });
    this.body = h('tbody', {});
    this.table = h(
      'table',
      { class: 'audit-table' },
      h('caption', { class: 'visually-hidden' }, 'Audit records, newest first'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          COLUMNS.map((name) => h('th', { scope: 'col' }, name)),
        ),
      ),
      this.body,
    );
    this.empty = h('p', { class: 'empty', hidden: true }, 'No record matches these filters.');
    this.more = h(
      'button',
      {
        type: 'button',
        class: 'more',
        hidden: true,
        onclick: () => void this.#page(this.#load, this.#oldest),
      },
      'Show older records',
    );
    const form = h(
      'form',
      {
        class: 'audit-filters',
        'aria-label': 'Filter the records',
        onsubmit: (event) => {
          event.preventDefault();
          this.reload();
        },
      },
      field('audit-thread', 'Thread', this.thread),
      field('audit-decider', 'Decider', [this.decider, this.deciderList]),
      field('audit-outcome', 'Outcome', this.outcome),
      h(
        'div',
        { class: 'filter-actions' },
        h('button', { type: 'submit', class: 'primary' }, 'Filter'),
        h('button', { type: 'button', onclick: () => this.#clear() }, 'Clear'),
      ),
    );
    this.thread.addEventListener('change', () => this.reload());
    this.outcome.addEventListener('change', () => this.reload());
    root.append(
      h(
        'section',
        { class: 'audit', 'aria-labelledby': 'audit-heading' },
        h(
          'div',
          { class: 'view-head' },
          h('h1', { id: 'audit-heading' }, 'Audit trail'),
          h('div', { class: 'audit-actions' }, this.verifyButton, this.exportLink),
        ),
        h(
          'p',
          { class: 'muted hint' },
          'Every decision on a tool call, who made it and through what; each record is chained to the one before it by its hash.',
        ),
        this.verdict,
        form,
        this.problem,
        h('div', { class: 'audit-scroll' }, this.table),
        this.empty,
        this.more,
      ),
    );
    this.reload();
  }

  /** @returns {AuditFilters} */
  filters() {
    const decider = this.decider.value.trim();
    return {
      ...(this.thread.value === '' ? {} : { threadId: this.thread.value }),
      ...(decider === '' ? {} : { decider }),
      ...(this.outcome.value === '' ? {} : { outcome: /** @type {AuditOutcome} */ (this.outcome.value) }),
    };
  }

  /** Loads the first page for the filters shown, and keeps them in the address. */
  reload() {
    const filters = this.filters();
    this.#filters = filters;
    const query = filterParams(filters).toString();
    history.replaceState(null, '', query === '' ? '#/audit' : `#/audit?${query}`);
    this.exportLink.setAttribute('href', exportUrl(filters));
    this.#load += 1;
    this.#oldest = undefined;
    this.body.replaceChildren();
    // Which filters the rows shown answer, set once they have arrived (tests wait for it too).
    delete this.table.dataset.query;
    void this.#page(this.#load, undefined);
  }

  /**
   * @param {number} load
   * @param {number | undefined} before
   */
  async #page(load, before) {
    this.table.setAttribute('aria-busy', 'true');
    this.more.disabled = true;
    try {
      const { records, more } = await readAuditPage(this.#filters, before);
      if (load !== this.#load) return;
      this.problem.hidden = true;
      for (const record of records) {
        this.body.append(auditRow(record, this.state));
        if ('decidedBy' in record && record.decidedBy !== null) this.#deciders.add(record.decidedBy.name);
      }
      this.#oldest = records.at(-1)?.seq ?? this.#oldest;
      this.more.hidden = !more;
      this.empty.hidden = this.body.childElementCount > 0;
      replace(
        this.deciderList,
        [...this.#deciders].sort().map((name) => h('option', { value: name })),
      );
    } catch (error) {
      if (load !== this.#load) return;
      this.problem.hidden = false;
      this.problem.textContent = `Could not load the records: ${message(error)}`;
      this.empty.hidden = true;
      this.more.hidden = true;
    } finally {
      if (load === this.#load) {
        this.table.dataset.query = filterParams(this.#filters).toString();
        this.table.setAttribute('aria-busy', 'false');
        this.more.disabled = false;
      }
    }
  }

  async #verify() {
    this.verifyButton.disabled = true;
    this.verdict.hidden = false;
    this.verdict.className = 'verdict checking';
    this.verdict.textContent = 'Checking the chain from its first record…';
    try {
      const result = await verifyAudit();
      this.verdict.className = `verdict ${result.ok ? 'intact' : 'broken'}`;
      replace(
        this.verdict,
        result.ok
          ? [
              h('strong', {}, 'Intact'),
              `: ${result.records} records, each chained to the one before it. The last one's hash is `,
              h('code', { class: 'head' }, result.head),
              ' — keep it elsewhere to notice a rewritten tail.',
            ]
          : [
              h('strong', {}, `Broken at record ${result.seq}`),
              `: ${result.problem}. Records 1 to ${result.records} are intact.`,
            ],
      );
    } catch (error) {
      this.verdict.className = 'verdict broken';
      this.verdict.textContent = `Could not verify: ${message(error)}`;
    } finally {
      this.verifyButton.disabled = false;
    }
  }

  #clear() {
    this.thread.value = '';
    this.decider.value = '';
    this.outcome.value = '';
    this.reload();
  }

  /**
   * The threads the page knows, by name; one the address names that the page does not know is kept.
   * @param {string} selected
   */
  #fillThreads(selected) {
    const threads = [...this.state.threads.values()]
      .map((thread) => ({ id: thread.id, name: thread.title ?? folderName(thread.cwd) }))
      .sort((a, b) => a.name.localeCompare(b.name));
    if (selected !== '' && !threads.some((thread) => thread.id === selected))
      threads.unshift({ id: selected, name: selected });
    replace(
      this.thread,
      h('option', { value: '' }, 'all threads'),
      threads.map(({ id, name }) => h('option', { value: id }, name)),
    );
    this.thread.value = selected;
  }
}

/**
 * @param {string} id
 * @param {string} label
 * @param {import('./dom.js').Children} control
 */
function field(id, label, control) {
  return h('div', { class: 'filter' }, h('label', { for: id }, label), control);
}

/** @param {unknown} error */
function message(error) {
  return error instanceof ApiError || error instanceof Error ? error.message : String(error);
}
