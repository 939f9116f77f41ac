// @ts-check
// The form that starts a thread: working folder, agent (Claude Code or Codex), mode, optional model, plan mode, a deadline for
// approvals nobody answers ("if unanswered after 30 minutes, deny") and the first message.

import * as api from './api.js';
import { deadlineField } from './deadline-input.js';
import { h } from './dom.js';
import { MODES } from './format.js';
import { toast } from './toast.js';

/** @import { State } from './state.js' */
/** @import { ThreadMode } from './types.js' */

/**
 * @param {HTMLElement} root
 * @param {State} state
 * @param {(threadId: string) => void} opened called with the new thread's id
 */
export function renderNewThread(root, state, opened) {
  const cwd = h('input', {
    id: 'new-cwd',
    name: 'cwd',
    required: true,
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: '/path/to/project',
  });
  const mode = h(
    'select',
    { id: 'new-mode', name: 'mode' },
    Object.entries(MODES).map(([value, { label, hint }]) =>
      h('option', { value, title: hint }, `${label} — ${hint}`),
    ),
  );
  const agent = h(
    'select',
    { id: 'new-agent', name: 'agent' },
    h('option', { value: 'claude' }, 'Claude Code'),
    h('option', { value: 'codex' }, 'Codex'),
  );
  const model = h('input', {
    id: 'new-model',
    name: 'model',
    autocomplete: 'off',
    placeholder: 'the CLI’s default',
  });
  const plan = /** @type {HTMLInputElement} */ (
    h('input', { id: 'new-plan', name: 'plan', type: 'checkbox' })
  );
  const prompt = h('textarea', {
    id: 'new-prompt',
    name: 'prompt',
    rows: '4',
    placeholder: 'What should the agent do?',
  });
  const deadline = deadlineField('new-deadline', 'If unanswered after (optional)');
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Start thread');
  void api.info().then((server) => {
    if (server?.defaultCwd && cwd.value === '') cwd.value = server.defaultCwd;
  });
  root.append(
    h(
      'section',
      { class: 'new-thread', 'aria-labelledby': 'new-heading' },
      h('h1', { id: 'new-heading' }, 'New thread'),
      h(
        'form',
        {
          class: 'stack',
          onsubmit: async (event) => {
            event.preventDefault();
            const afterMs = deadline.value();
            if (afterMs instanceof Error) {
              toast(`Could not start the thread: ${afterMs.message}`, 'error');
              return;
            }
            submit.disabled = true;
            try {
              const thread = await api.createThread({
                cwd: cwd.value.trim(),
                mode: /** @type {ThreadMode} */ (mode.value),
                ...(agent.value === 'codex' ? { agent: 'codex' } : {}),
                ...(model.value.trim() ? { model: model.value.trim() } : {}),
                ...(plan.checked ? { plan: true } : {}),
                ...(afterMs === null ? {} : { deadlines: { afterMs } }),
                ...(prompt.value.trim() ? { prompt: prompt.value.trim() } : {}),
              });
              state.addThread(thread);
              opened(thread.id);
            } catch (error) {
              toast(
                `Could not start the thread: ${error instanceof Error ? error.message : String(error)}`,
                'error',
              );
            } finally {
              submit.disabled = false;
            }
          },
        },
        h('label', { for: 'new-cwd' }, 'Working folder'),
        cwd,
        h('label', { for: 'new-agent' }, 'Agent'),
        agent,
        h('label', { for: 'new-mode' }, 'Mode'),
        mode,
        h('label', { for: 'new-model' }, 'Model (optional)'),
        model,
        h(
          'label',
          { class: 'check' },
          plan,
          h(
            'span',
            {},
            h('strong', {}, 'Start in plan mode'),
            ': the agent plans and changes nothing until you approve its plan',
          ),
        ),
        deadline.element,
        h('label', { for: 'new-prompt' }, 'First message (optional)'),
        prompt,
        h('div', {}, submit),
      ),
    ),
  );
  cwd.focus();
}
