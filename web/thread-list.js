// @ts-check
// The sidebar's list of threads, newest first: folder, first message, live dot and how many approvals
// wait in it.

import { h, replace } from './dom.js';
import { folderName } from './format.js';

/** @import { State } from './state.js' */

/**
 * @param {HTMLElement} root
 * @param {State} state
 * @param {string | undefined} currentId the thread on screen, marked for the reader
 */
export function renderThreadList(root, state, currentId) {
  const pending = new Map();
  for (const approval of state.pending())
    pending.set(approval.threadId, (pending.get(approval.threadId) ?? 0) + 1);
  const threads = [...state.threads.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  replace(
    root,
    threads.length === 0
      ? h('p', { class: 'muted' }, 'No threads yet.')
      : h(
          'ul',
          { class: 'thread-list' },
          threads.map((thread) => {
            const count = pending.get(thread.id) ?? 0;
            return h(
              'li',
              {},
              h(
                'a',
                {
                  href: `#/threads/${encodeURIComponent(thread.id)}`,
                  'aria-current': thread.id === currentId ? 'page' : null,
                  'data-thread-id': thread.id,
                },
                h('span', { class: `dot ${thread.status}`, title: thread.status, 'aria-hidden': 'true' }),
                h('span', { class: 'name' }, folderName(thread.cwd)),
                count > 0
                  ? h('span', { class: 'count', 'aria-label': `${count} waiting` }, String(count))
                  : null,
                thread.title ? h('span', { class: 'first-message' }, thread.title) : null,
              ),
            );
          }),
        ),
  );
}
