// @ts-check
// The sidebar's list of threads, newest first: title (a name given, or the first line of the first
// prompt), folder, live dot and how many approvals wait in it; in a fleet, a marker on the threads whose
// host's lease has run out.

import { h, replace } from './dom.js';
import { folderName } from './format.js';
import { unreachableSince } from './host-status.js';
import { visibleText } from './visible-text.js';

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
            const host = state.hostOf(thread.id, thread.host);
            const hostDown = host !== undefined && !host.reachable;
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
                h('span', { class: 'name' }, visibleText(thread.title ?? folderName(thread.cwd))),
                count > 0
                  ? h('span', { class: 'count', 'aria-label': `${count} waiting` }, String(count))
                  : null,
                h('span', { class: 'folder' }, folderName(thread.cwd)),
                // Started outside Warden (a terminal, an IDE, claude -p): answered here, driven there.
                thread.kind === 'external'
                  ? h(
                      'span',
                      { class: 'external', title: 'A Claude Code session started outside Warden' },
                      'external',
                    )
                  : null,
                thread.agent === 'codex'
                  ? h('span', { class: 'agent', title: 'The agent is the Codex app-server' }, 'Codex')
                  : null,
                hostDown
                  ? h(
                      'span',
                      {
                        class: 'host-down',
                        title: `Host ${host.name} unreachable ${unreachableSince(host)}`,
                      },
                      'Host ',
                      visibleText(host.name),
                      ' unreachable',
                    )
                  : null,
              ),
            );
          }),
        ),
  );
}
