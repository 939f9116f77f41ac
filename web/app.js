// @ts-check
// The page: loads the snapshots, follows the live stream, and shows one view at a time chosen by the
// URL's hash — the inbox (#/), a thread (#/threads/<id>), the new-thread form (#/new) or the audit
// trail (#/audit, with its filters after a `?`).

import * as api from './api.js';
import { AuditView } from './audit-view.js';
import { connectionIndicator } from './connection.js';
import { byId, h, replace } from './dom.js';
import { InboxView } from './inbox.js';
import { SHORTCUTS, installShortcuts } from './keys.js';
import { LiveStream } from './live.js';
import { renderNewThread } from './new-thread.js';
import { installNotifications } from './notifications.js';
import { State } from './state.js';
import { renderThreadList } from './thread-list.js';
import { ThreadView } from './thread-view.js';
import { startTicker, tickNow } from './ticker.js';

const state = new State();
const main = byId('main', HTMLElement);
const threadsBox = byId('threads', HTMLElement);
const inboxCount = byId('inbox-count', HTMLElement);
const help = byId('help', HTMLDialogElement);

/** @type {{ kind: 'inbox', view: InboxView } | { kind: 'thread', view: ThreadView } | { kind: 'new' } | { kind: 'audit', view: AuditView } | undefined} */
let current;
/** Threads whose records were asked for: the inbox asks once per thread, live events do the rest. */
const requested = new Set();

/** @param {string} threadId */
function needThread(threadId) {
  if (requested.has(threadId)) return;
  requested.add(threadId);
  api.getThread(threadId).then(
    (view) => state.addThreadView(view),
    () => requested.delete(threadId),
  );
}

function route() {
  if (current?.kind === 'thread') current.view.close();
  main.replaceChildren();
  const hash = location.hash;
  // `?call=<toolUseId>`: a card's link to its call, scrolled to and marked in the conversation.
  const threadMatch = /^#\/threads\/([^/?]+)(?:\?call=([^&]+))?$/.exec(hash);
  if (threadMatch?.[1] !== undefined) {
    const call = threadMatch[2] === undefined ? undefined : decodeURIComponent(threadMatch[2]);
    const view = new ThreadView(main, state, decodeURIComponent(threadMatch[1]), call);
    current = { kind: 'thread', view };
    void view.load();
  } else if (/^#\/audit(\?|$)/.test(hash)) {
    current = { kind: 'audit', view: new AuditView(main, state, hash.slice('#/audit?'.length)) };
  } else if (hash === '#/new') {
    current = { kind: 'new' };
    renderNewThread(main, state, (id) => go(`#/threads/${encodeURIComponent(id)}`));
  } else {
    current = { kind: 'inbox', view: new InboxView(main, state, needThread) };
  }
  render();
  // A view that put the cursor in a field of its own (the new-thread form) keeps it.
  if (!main.contains(document.activeElement)) main.focus({ preventScroll: true });
}

/** @param {string} hash */
function go(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

function render() {
  if (current?.kind === 'inbox' || current?.kind === 'thread') current.view.render();
  renderThreadList(threadsBox, state, current?.kind === 'thread' ? current.view.threadId : undefined);
  const count = state.pending().length;
  inboxCount.hidden = count === 0;
  inboxCount.textContent = String(count);
  document.title = count > 0 ? `(${count}) Warden` : 'Warden';
  tickNow();
}

function fillHelp() {
  replace(
    byId('help-list', HTMLElement),
    SHORTCUTS.map(([keys, what]) => [h('dt', {}, h('kbd', {}, keys)), h('dd', {}, what)]),
  );
}

/** How often the page asks for the fleet's leases. */
const HOST_POLL_MS = 2000;

async function start() {
  fillHelp();
  startTicker();
  installShortcuts({ inbox: () => (current?.kind === 'inbox' ? current.view : undefined), go, help });
  byId('help-button', HTMLButtonElement).addEventListener('click', () => help.showModal());
  let snapshot;
  try {
    snapshot = await Promise.all([api.listThreads(), api.pendingApprovals()]);
  } catch (error) {
    showStartError(error);
    return;
  }
  const [threads, approvals] = snapshot;
  for (const thread of threads.threads) state.addThread(thread);
  for (const approval of approvals.approvals) state.addApproval(approval);
  // The older of the two snapshots: events after it are replayed, and replays are harmless.
  state.lastSeq = Math.min(threads.lastSeq, approvals.lastSeq);
  installNotifications(state);
  // Who this page is: a card it may not answer says so. A page that cannot tell marks nothing.
  api.whoAmI().then(
    (me) => {
      state.me = me;
      state.changed();
    },
    () => undefined,
  );
  state.subscribe(render);
  window.addEventListener('hashchange', route);
  route();

  const live = new LiveStream({
    since: () => state.lastSeq,
    onEvent: (event) => {
      state.apply(event);
      // Who may answer a new or escalated approval is worked out by the server from the deciders' scopes.
      if (event.type === 'approval.requested' || event.type === 'approval.escalated')
        refreshApproval(event.data.approvalId);
    },
    onConnection: connectionIndicator(() => live.retryNow()),
    onSessionEnded: () => showStartError(new api.ApiError(401, 'SESSION_ENDED', 'The browser session ended')),
  });
  live.start();
  // In a fleet, a host whose lease runs out is shown as unreachable: its lease is polled, as no event says so.
  if ([...state.threads.values()].some((thread) => thread.host) || approvals.approvals.some((a) => a.host))
    setInterval(() => {
      api.listHosts().then(
        (hosts) => state.setHosts(hosts),
        () => undefined,
      );
    }, HOST_POLL_MS);
  // Come back at once when the network or the tab does, instead of waiting out the backoff.
  window.addEventListener('online', () => live.retryNow());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') live.retryNow();
  });
}

/** @param {string} approvalId */
function refreshApproval(approvalId) {
  api.approval(approvalId).then(
    (item) => {
      if (item !== undefined && state.approvals.get(approvalId)?.status === 'pending')
        state.addApproval(item);
    },
    () => undefined,
  );
}

/** @param {unknown} error */
function showStartError(error) {
  const unauthorized = error instanceof api.ApiError && error.status === 401;
  replace(
    main,
    h(
      'section',
      { class: 'start-error', role: 'alert' },
      h('h1', {}, unauthorized ? 'Not logged in' : 'Warden is not reachable'),
      unauthorized
        ? h(
            'p',
            {},
            'Open a login link: the one the warden command printed when it started, or a new one from “warden login”.',
          )
        : h(
            'p',
            {},
            `${error instanceof Error ? error.message : String(error)}. Reload the page to try again.`,
          ),
    ),
  );
}

void start();
