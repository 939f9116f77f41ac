// @ts-check
// The thread's runs, each with the subagents it launched and their live status. A run that completed
// while its subagent still works is the case Warden exists for, so it is spelled out.

import { h } from './dom.js';
import { triggerLabel } from './format.js';

/** @import { State } from './state.js' */

/**
 * @param {State} state
 * @param {string} threadId
 * @param {(subagentId: string) => void} onStop asked to stop a running subagent
 */
export function subagentTree(state, threadId, onStop) {
  const runs = state.runsOf(threadId);
  const subagents = state.subagentsOf(threadId);
  if (runs.length === 0) return h('p', { class: 'muted' }, 'No runs yet.');
  return h(
    'ol',
    { class: 'tree' },
    runs.map((run, index) => {
      const children = subagents.filter((s) => s.runId === run.id);
      const waiting =
        children.some((s) => s.status === 'running') && run.status !== 'running' && run.status !== 'queued';
      return h(
        'li',
        { class: 'tree-run', 'data-run-id': run.id },
        h(
          'p',
          {},
          h('strong', {}, `Run ${index + 1}`),
          ' ',
          h('span', { class: `status ${run.status}` }, run.status),
          h('span', { class: 'muted' }, ` · ${triggerLabel(run.trigger)}`),
        ),
        waiting
          ? h('p', { class: 'after-run' }, 'Turn ended; a background subagent still works for it.')
          : null,
        children.length > 0
          ? h(
              'ul',
              { class: 'tree-subagents' },
              children.map((s) =>
                h(
                  'li',
                  { class: `tree-subagent ${s.status}`, 'data-subagent-id': s.id },
                  h('span', { class: 'name' }, s.description ?? s.id),
                  ' ',
                  h('span', { class: `status ${s.status}` }, s.status),
                  s.status === 'running'
                    ? h(
                        'button',
                        {
                          type: 'button',
                          class: 'danger stop-subagent',
                          title: 'Stop this subagent; its pending approvals are cancelled',
                          'aria-label': `Stop subagent ${s.description ?? s.id}`,
                          onclick: () => onStop(s.id),
                        },
                        'Stop',
                      )
                    : null,
                  s.summary ? h('p', { class: 'muted' }, s.summary) : null,
                ),
              ),
            )
          : null,
      );
    }),
  );
}
