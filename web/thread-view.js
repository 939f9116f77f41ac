// @ts-check
// One thread: its conversation (timeline), the runs and subagents with live status, the mode switch,
// interrupt and stop, and the box for the next message. The history comes from the thread's events;
// live events extend it through the shared state. On a wide screen the mode switch sits in the header and
// the runs, rules and deadline beside the conversation; on a narrow one (thread.css) the conversation
// comes first and those settings open from a button, so the thread does not open on a screen of panels.

import * as api from './api.js';
import { cliProcessLine } from './cli-process.js';
import { h, replace } from './dom.js';
import { MODES, folderName, threadActivity } from './format.js';
import { unreachableSince } from './host-status.js';
import { subagentTree } from './subagent-tree.js';
import { ThreadPolicyView } from './thread-rules.js';
import { buildTimeline } from '/view/timeline.js';
import { TimelineView } from './timeline-view.js';
import { toast } from './toast.js';
import { visibleText } from './visible-text.js';

/** @import { State } from './state.js' */
/** @import { ThreadMode } from './types.js' */

/** Where the settings fold behind their button: the same width as in thread.css. */
const NARROW = '(max-width: 1024px)';

export class ThreadView {
  /** @type {ThreadMode | undefined} the mode being sent, shown until the server confirms it */
  #modeSending;
  #loaded = false;

  /** @type {string | undefined} a tool call to scroll to and mark once it is on the page */
  #highlight;
  #renaming = false;
  #narrow = matchMedia(NARROW);
  #placeSettings = () => this.#placeSide();

  /**
   * @param {HTMLElement} root
   * @param {State} state
   * @param {string} threadId
   * @param {string} [callId] a tool call to show (a card's link to its call)
   */
  constructor(root, state, threadId, callId) {
    this.state = state;
    this.threadId = threadId;
    this.#highlight = callId;
    this.timeline = new TimelineView(state);
    this.title = h('h1', { id: 'thread-heading' }, 'Thread');
    this.renameButton = h(
      'button',
      { type: 'button', class: 'rename', onclick: () => this.#startRename() },
      'Rename',
    );
    this.titleInput = h('input', {
      id: 'thread-title-input',
      name: 'title',
      maxlength: '200',
      autocomplete: 'off',
      'aria-label': 'Thread title',
    });
    this.renameForm = h(
      'form',
      { class: 'rename-form', hidden: '', onsubmit: (event) => void this.#rename(event) },
      this.titleInput,
      h('button', { type: 'submit', class: 'primary' }, 'Save'),
      h('button', { type: 'button', onclick: () => this.#endRename() }, 'Cancel'),
    );
    this.titleInput.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') this.#endRename();
    });
    this.cwd = h('p', { class: 'muted cwd' });
    this.status = h('span', { class: 'thread-status' });
    this.process = h('p', { class: 'muted cli-process', hidden: '' });
    this.host = h('p', { class: 'thread-host', hidden: '' });
    // Where the OS does not hold the protected files for the agents' commands, the person reads it here.
    this.sandbox = h('p', { class: 'thread-sandbox', hidden: '' });
    void api.info().then((server) => {
      const sandbox = server?.sandbox;
      if (sandbox === undefined || sandbox.enforced) return;
      this.sandbox.textContent = `No sandbox (${sandbox.reason ?? 'unknown'}): only the policy guards the protected files, and allow rules cover fewer words.`;
      this.sandbox.hidden = false;
    });
    this.tree = h('div', { class: 'tree-box' });
    this.policy = new ThreadPolicyView(state, threadId);
    /** @type {Map<ThreadMode, HTMLInputElement>} */
    this.modeInputs = new Map();
    this.interruptButton = h(
      'button',
      { type: 'button', onclick: () => void this.#act('interrupt') },
      'Interrupt',
    );
    this.stopButton = h(
      'button',
      { type: 'button', class: 'danger', onclick: () => void this.#act('stop') },
      'Stop',
    );
    this.message = h('textarea', {
      id: 'composer',
      name: 'text',
      rows: '2',
      placeholder: 'Send the next message…',
    });
    this.sendButton = h('button', { type: 'submit', class: 'primary' }, 'Send');
    this.loading = h('p', { class: 'muted' }, 'Loading the conversation…');
    this.settingsMode = h('span', { class: 'settings-mode' });
    this.settingsToggle = h(
      'button',
      {
        type: 'button',
        class: 'settings-toggle',
        'aria-expanded': 'false',
        'aria-controls': 'thread-settings',
        onclick: () => this.#toggleSettings(),
      },
      'Settings',
      this.settingsMode,
    );

    this.message.addEventListener('keydown', (event) => {
      // Enter sends, Shift+Enter is a new line (as in most chat boxes).
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        this.composer.requestSubmit();
      }
    });
    this.composer = h(
      'form',
      { class: 'composer', onsubmit: (event) => void this.#send(event) },
      h('label', { for: 'composer', class: 'visually-hidden' }, 'Message'),
      this.message,
      this.sendButton,
    );
    this.conversation = h('div', { class: 'conversation' }, this.loading, this.timeline.list, this.composer);
    this.side = h(
      'aside',
      { id: 'thread-settings', class: 'side settings-part', 'aria-labelledby': 'tree-heading' },
      h('h2', { id: 'tree-heading' }, 'Runs and subagents'),
      this.tree,
      this.policy.element,
    );
    this.body = h('div', { class: 'thread-body' }, this.conversation, this.side);
    this.modeSwitch = this.#modeSwitch();
    this.controls = h(
      'div',
      { class: 'controls' },
      this.modeSwitch,
      h('div', { class: 'buttons' }, this.settingsToggle, this.interruptButton, this.stopButton),
    );
    this.view = h(
      'section',
      { class: 'thread-view', 'aria-labelledby': 'thread-heading', 'data-settings': 'closed' },
      h(
        'header',
        { class: 'thread-head' },
        h(
          'div',
          { class: 'thread-title' },
          h('p', { class: 'crumb' }, h('a', { href: '#/' }, '← Inbox')),
          h('div', { class: 'title-row' }, this.title, this.renameButton),
          this.renameForm,
          this.cwd,
          this.status,
          this.process,
          this.host,
          this.sandbox,
        ),
        this.controls,
      ),
      this.body,
    );
    root.append(this.view);
    this.#placeSide();
    this.#narrow.addEventListener('change', this.#placeSettings);
    state.logs.set(threadId, []);
  }

  /** Loads the thread and its whole history; live events that arrive meanwhile land in the same log. */
  async load() {
    try {
      const [view, events] = await Promise.all([
        api.getThread(this.threadId),
        api.threadEvents(this.threadId, 0),
      ]);
      this.state.addThreadView(view);
      for (const event of events) this.state.applyHistory(event);
      this.#loaded = true;
      this.loading.remove();
      this.render();
    } catch (error) {
      this.loading.textContent = `Could not load the thread: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  close() {
    this.#narrow.removeEventListener('change', this.#placeSettings);
    this.state.logs.delete(this.threadId);
  }

  /**
   * Where the settings are is where they are seen, so that reading and Tab follow the screen. On a wide
   * screen the mode switch is in the header and the side panel beside (after) the conversation; on a
   * narrow one both are in the panel the Settings button opens, above the conversation.
   */
  #placeSide() {
    if (this.#narrow.matches) {
      this.side.prepend(this.modeSwitch);
      this.body.prepend(this.side);
    } else {
      this.controls.prepend(this.modeSwitch);
      this.body.append(this.side);
    }
  }

  render() {
    const thread = this.state.threads.get(this.threadId);
    if (thread !== undefined) {
      replace(this.title, visibleText(thread.title ?? folderName(thread.cwd)));
      this.cwd.textContent = thread.cwd;
      const activity = threadActivity(
        thread,
        this.state.runsOf(this.threadId),
        this.state.subagentsOf(this.threadId),
      );
      this.status.dataset.activity = activity.key;
      replace(
        this.status,
        h('span', { class: `dot ${activity.key}`, 'aria-hidden': 'true' }),
        activity.words,
      );
      const mode = this.#modeSending ?? thread.mode;
      for (const [value, input] of this.modeInputs) input.checked = value === mode;
      this.settingsMode.textContent = MODES[mode].label;
      this.interruptButton.disabled = thread.status !== 'live';
      this.stopButton.disabled = thread.status !== 'live';
      this.#renderHost();
    }
    this.policy.render();
    replace(
      this.tree,
      subagentTree(this.state, this.threadId, (subagentId) => void this.#stopSubagent(subagentId)),
    );
    const processLine = cliProcessLine(this.state.logs.get(this.threadId) ?? []);
    this.process.hidden = processLine === null;
    this.process.textContent = processLine ?? '';
    if (this.#loaded) {
      this.timeline.render(buildTimeline(this.state.logs.get(this.threadId) ?? []));
      if (this.#highlight !== undefined && this.timeline.highlight(this.#highlight))
        this.#highlight = undefined;
    }
  }

  /**
   * In a fleet, the host that runs the thread's CLI; once its lease has run out (polled, as no event says
   * so), what that means for the approvals and the next message.
   */
  #renderHost() {
    const host = this.state.hostOf(this.threadId, undefined);
    this.host.hidden = host === undefined;
    if (host === undefined) return;
    this.host.dataset.reachable = String(host.reachable);
    replace(
      this.host,
      host.reachable
        ? h('span', { class: 'muted' }, 'Runs on host ', visibleText(host.name))
        : h(
            'strong',
            { class: 'host-unreachable' },
            'Host ',
            visibleText(host.name),
            ` unreachable ${unreachableSince(host)}: its approvals wait until it is back; a message sent now moves the thread to the host serving this page.`,
          ),
    );
  }

  /** Opens or closes the settings on a narrow screen (a wide one always shows them, thread.css). */
  #toggleSettings() {
    const open = this.settingsToggle.getAttribute('aria-expanded') !== 'true';
    this.settingsToggle.setAttribute('aria-expanded', String(open));
    this.view.dataset.settings = open ? 'open' : 'closed';
  }

  #startRename() {
    const thread = this.state.threads.get(this.threadId);
    this.titleInput.value = thread?.title ?? '';
    this.#renaming = true;
    this.renameForm.hidden = false;
    this.title.hidden = true;
    this.renameButton.hidden = true;
    this.titleInput.focus();
    this.titleInput.select();
  }

  #endRename() {
    this.#renaming = false;
    this.renameForm.hidden = true;
    this.title.hidden = false;
    this.renameButton.hidden = false;
    this.renameButton.focus();
  }

  /** @param {Event} event */
  async #rename(event) {
    event.preventDefault();
    const title = this.titleInput.value.trim();
    if (title === '' || !this.#renaming) return;
    try {
      this.state.addThread(await api.renameThread(this.threadId, title));
      this.#endRename();
      toast('Renamed');
    } catch (error) {
      toast(`Could not rename: ${error instanceof Error ? error.message : String(error)}`, 'error');
    }
  }

  #modeSwitch() {
    const name = `mode-${this.threadId}`;
    return h(
      'fieldset',
      { class: 'mode-switch' },
      h('legend', {}, 'Mode'),
      Object.entries(MODES).map(([value, { label, hint }]) => {
        const mode = /** @type {ThreadMode} */ (value);
        const id = `${name}-${value}`;
        const input = h('input', {
          type: 'radio',
          name,
          id,
          value,
          onchange: () => void this.#setMode(mode),
        });
        this.modeInputs.set(mode, input);
        return h('span', { class: 'segment' }, input, h('label', { for: id, title: hint }, label));
      }),
    );
  }

  /** @param {ThreadMode} mode */
  async #setMode(mode) {
    this.#modeSending = mode;
    try {
      this.state.addThread(await api.setMode(this.threadId, mode));
      toast(`Mode: ${MODES[mode].label}`);
    } catch (error) {
      toast(`Could not change the mode: ${error instanceof Error ? error.message : String(error)}`, 'error');
    } finally {
      this.#modeSending = undefined;
      this.render();
    }
  }

  /** @param {string} subagentId */
  async #stopSubagent(subagentId) {
    try {
      await api.stopSubagent(this.threadId, subagentId);
      toast('Subagent stopped');
    } catch (error) {
      toast(
        `Could not stop the subagent: ${error instanceof Error ? error.message : String(error)}`,
        'error',
      );
    }
  }

  /** @param {'interrupt' | 'stop'} action */
  async #act(action) {
    const button = action === 'interrupt' ? this.interruptButton : this.stopButton;
    button.disabled = true;
    try {
      await (action === 'interrupt' ? api.interruptThread(this.threadId) : api.stopThread(this.threadId));
      toast(action === 'interrupt' ? 'Interrupted' : 'Stopped');
    } catch (error) {
      toast(`Could not ${action}: ${error instanceof Error ? error.message : String(error)}`, 'error');
    } finally {
      this.render();
    }
  }

  /** @param {Event} event */
  async #send(event) {
    event.preventDefault();
    const text = this.message.value.trim();
    if (text === '') return;
    this.sendButton.disabled = true;
    try {
      await api.sendMessage(this.threadId, text);
      this.message.value = '';
    } catch (error) {
      toast(`Could not send: ${error instanceof Error ? error.message : String(error)}`, 'error');
    } finally {
      this.sendButton.disabled = false;
      this.message.focus();
    }
  }
}
