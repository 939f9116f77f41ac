// @ts-check
// Notifications, set per browser from the bell in the top bar (every one is off until the person turns it
// on). Two kinds:
// - System notifications from this page: while the tab is in the background, a new approval shows one
//   (nothing leaves the machine); when it is settled, the notification is replaced by "answered elsewhere".
// - Web Push: the service worker subscribes this device with the server's VAPID key, so a phone hears of
//   approvals with the app closed. The person chooses what a notification shows (it can sit on a lock
//   screen); the server sends nothing more than that (src/server/notify/push-payload.ts).
// Both use the approval's tag, so a push and a page notification for one approval are one notification.

/** @import { ApprovalItem } from './types.js' */
/** @import { State } from './state.js' */

import { byId, h, replace } from './dom.js';
import { summary } from './preview.js';
import { segments } from './visible-text.js';

const KEY_BROWSER = 'warden.notify.browser';
const KEY_SHOW = 'warden.notify.show';
const KEY_PUSH_ID = 'warden.notify.pushId';
const BODY_MAX = 120;
// The page's field styles are for text fields: a box to tick stays box-sized, its label a row to tap.
const TICK_STYLE = 'width: 1.25em; height: 1.25em; min-height: 0; margin: 2px 0 0; padding: 0; flex: none';
const ROW_STYLE = 'display: flex; gap: 10px; align-items: flex-start; min-height: 44px; margin: 4px 0';

/** @typedef {'preview' | 'tool' | 'none'} Show */
/** @type {[Show, string][]} */
const SHOW_CHOICES = [
  ['preview', 'The tool and a short preview of what it wants to do, with Approve and Deny'],
  ['tool', 'The tool’s name only, with Deny (open Warden to approve)'],
  ['none', 'Only that an approval waits'],
];

/** @type {Promise<ServiceWorkerRegistration | undefined> | undefined} */
let registering;

/** Registers the service worker (it makes the inbox installable and shows pushes). */
export function registerServiceWorker() {
  registering ??=
    'serviceWorker' in navigator
      ? navigator.serviceWorker.register('sw.js', { scope: './' }).catch(() => undefined)
      : Promise.resolve(undefined);
  return registering;
}

/** @returns {Show} */
function chosenShow() {
  const value = localStorage.getItem(KEY_SHOW);
  return value === 'tool' || value === 'none' ? value : 'preview';
}

/**
 * Starts watching for approvals to notify about and adds the bell to the top bar. Call it once the
 * snapshot is in `state`: what is pending then is not news.
 * @param {State} state
 */
export function installNotifications(state) {
  void registerServiceWorker();
  const notifier = new BackgroundNotifier(state);
  state.subscribe(() => notifier.update());
  navigator.serviceWorker?.addEventListener('message', (event) => {
    if (event.data?.type === 'warden.open-inbox') location.hash = '#/';
  });
  const dialog = h('dialog', { id: 'notify-dialog', 'aria-labelledby': 'notify-heading' });
  document.body.append(dialog);
  const button = h(
    'button',
    {
      id: 'notify-button',
      class: 'icon',
      type: 'button',
      'aria-label': 'Notifications',
      title: 'Notifications',
      onclick: () => {
        void renderSettings(dialog, notifier);
        dialog.showModal();
      },
    },
    h('img', { src: 'icons/bell-48.png', alt: '', width: 20, height: 20, style: 'vertical-align: middle' }),
  );
  byId('help-button', HTMLElement).before(button);
}

/** System notifications from this page for approvals that arrive while it is in the background. */
class BackgroundNotifier {
  /** @type {Set<string>} */ seen = new Set();
  /** Shown by this page and not yet settled: approval id → tool name. */
  /** @type {Map<string, string>} */ shown = new Map();
  /** Push is on for this device: the push will say it, the page stays quiet. */
  pushOn = localStorage.getItem(KEY_PUSH_ID) !== null;

  /** @param {State} state */
  constructor(state) {
    this.state = state;
    for (const approval of state.pending()) this.seen.add(approval.id);
  }

  get enabled() {
    return (
      localStorage.getItem(KEY_BROWSER) === '1' &&
      typeof Notification !== 'undefined' &&
      Notification.permission === 'granted'
    );
  }

  update() {
    for (const approval of this.state.pending()) {
      if (this.seen.has(approval.id)) continue;
      this.seen.add(approval.id);
      if (this.enabled && !this.pushOn && document.visibilityState === 'hidden') void this.#show(approval);
    }
    for (const [id, toolName] of this.shown) {
      const approval = this.state.approvals.get(id);
      if (approval === undefined || approval.status === 'pending') continue;
      this.shown.delete(id);
      void notify('Answered elsewhere', {
        body: `${toolName}: ${approval.status}`,
        tag: tagOf(id),
        silent: true,
        data: { approvalId: id, threadId: approval.threadId, actions: {} },
      });
    }
  }

  /** @param {ApprovalItem} approval */
  async #show(approval) {
    this.shown.set(approval.id, approval.toolName);
    const show = chosenShow();
    await notify(show === 'none' ? 'Warden: an approval is waiting' : `${approval.toolName} wants approval`, {
      body: show === 'preview' ? shortPreview(approval) : 'Open Warden to answer it.',
      tag: tagOf(approval.id),
      requireInteraction: true,
      data: { approvalId: approval.id, threadId: approval.threadId, actions: {} },
    });
  }
}

/** @param {string} approvalId the tag pushes use too (src/server/notify/push-payload.ts) */
function tagOf(approvalId) {
  return `warden-approval-${approvalId}`;
}

/**
 * The command or path, markers for invisible characters, at most three lines and BODY_MAX characters.
 * @param {ApprovalItem} approval
 */
function shortPreview(approval) {
  const text = segments(summary(approval.toolName, approval.input), { fold: true })
    .map((segment) => (typeof segment === 'string' ? segment : segment.mark))
    .join('');
  const lines = text.split('\n').slice(0, 3).join('\n');
  return lines.length > BODY_MAX ? `${lines.slice(0, BODY_MAX)}…` : lines || 'Open Warden to see it.';
}

/**
 * Through the service worker where there is one (Android shows no page-made notifications), else the page.
 * @param {string} title
 * @param {NotificationOptions} options
 */
async function notify(title, options) {
  const registration = await registerServiceWorker();
  const full = { icon: 'icons/icon-192.png', badge: 'icons/badge-96.png', ...options };
  if (registration !== undefined) await registration.showNotification(title, full);
  else new Notification(title, full);
}

// ---- The settings dialog ----

/**
 * @param {HTMLDialogElement} dialog
 * @param {BackgroundNotifier} notifier
 */
async function renderSettings(dialog, notifier) {
  const status = h('p', { class: 'notify-status', role: 'status' });
  const say = (/** @type {string} */ text) => (status.textContent = text);
  replace(
    dialog,
    h('h2', { id: 'notify-heading' }, 'Notifications'),
    browserSection(notifier, say),
    h('div', { id: 'notify-push' }, h('p', {}, 'Checking Web Push…')),
    status,
    h('form', { method: 'dialog' }, h('button', { type: 'submit' }, 'Close')),
  );
  replace(byId('notify-push', HTMLElement), await pushSection(notifier, say));
}

/**
 * @param {BackgroundNotifier} notifier
 * @param {(text: string) => void} say
 */
function browserSection(notifier, say) {
  const supported = typeof Notification !== 'undefined';
  const box = h('input', {
    type: 'checkbox',
    id: 'notify-browser',
    style: TICK_STYLE,
    checked: supported && notifier.enabled,
    disabled: !supported,
    onchange: async () => {
      if (!box.checked) {
        localStorage.removeItem(KEY_BROWSER);
        return say('This tab will not show notifications.');
      }
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') {
        box.checked = false;
        return say('The browser did not allow notifications for this site (see its site settings).');
      }
      localStorage.setItem(KEY_BROWSER, '1');
      say('This tab will show a notification when an approval arrives while it is in the background.');
    },
  });
  return h(
    'section',
    {},
    h('h3', {}, 'This browser'),
    h(
      'p',
      {},
      h(
        'label',
        {},
        box,
        ' Show a system notification when an approval arrives while this tab is in the background',
      ),
    ),
    supported ? null : h('p', { class: 'hint' }, 'This browser has no notifications.'),
  );
}

/**
 * @param {BackgroundNotifier} notifier
 * @param {(text: string) => void} say
 */
async function pushSection(notifier, say) {
  const heading = h('h3', {}, 'Push to this device');
  const registration = await registerServiceWorker();
  if (registration === undefined || !('PushManager' in window))
    return [
      heading,
      h('p', {}, 'This browser cannot receive Web Push (it needs a service worker and https or localhost).'),
    ];
  let key;
  try {
    key = await pushKey();
  } catch (error) {
    return [heading, h('p', {}, `Web Push settings could not be read: ${String(error)}`)];
  }
  if (key === null)
    return [heading, h('p', {}, 'Web Push is off on this server (start it with warden serve --web-push).')];
  const subscription = await registration.pushManager.getSubscription();
  const on = subscription !== null && localStorage.getItem(KEY_PUSH_ID) !== null;
  const choices = SHOW_CHOICES.map(([value, label]) =>
    h(
      'label',
      { class: 'notify-choice', style: ROW_STYLE },
      h('input', {
        type: 'radio',
        name: 'notify-show',
        value,
        checked: chosenShow() === value,
        style: TICK_STYLE,
        // While push is on, a new choice goes to the server at once (the same subscription, updated).
        onchange: async () => {
          localStorage.setItem(KEY_SHOW, value);
          if (!on) return;
          try {
            await subscribe(registration, key, value);
            say('Notifications on this device will show what you chose.');
          } catch (error) {
            say(`The choice could not be saved: ${error instanceof Error ? error.message : String(error)}`);
          }
        },
      }),
      label,
    ),
  );
  const selected = () =>
    /** @type {Show} */ (
      /** @type {HTMLInputElement | null} */ (document.querySelector('input[name="notify-show"]:checked'))
        ?.value ?? 'preview'
    );
  const toggle = h(
    'button',
    {
      type: 'button',
      id: 'notify-push-toggle',
      onclick: async () => {
        toggle.disabled = true;
        try {
          if (on) {
            await unsubscribe(registration);
            notifier.pushOn = false;
            say('Push is off for this device.');
          } else {
            localStorage.setItem(KEY_SHOW, selected());
            await subscribe(registration, key, selected());
            notifier.pushOn = true;
            say('Push is on for this device.');
          }
        } catch (error) {
          say(`Push could not be changed: ${error instanceof Error ? error.message : String(error)}`);
        }
        const dialog = byId('notify-dialog', HTMLDialogElement);
        replace(byId('notify-push', HTMLElement), await pushSection(notifier, say));
        dialog.querySelector('button')?.focus();
      },
    },
    on ? 'Turn off push for this device' : 'Turn on push for this device',
  );
  return [
    heading,
    h(
      'p',
      {},
      'Approvals reach this device even when Warden is closed, through the browser vendor’s push service. ' +
        'The push service sees only encrypted bytes; this device shows what you choose below, and may show ' +
        'it on the lock screen:',
    ),
    h('fieldset', {}, h('legend', {}, 'A notification shows'), choices),
    h('p', {}, toggle),
    on
      ? h('p', { class: 'hint' }, 'A new choice applies from the next notification.')
      : h('p', { class: 'hint' }, 'Approve and Deny on a notification work once, for an hour at most.'),
  ];
}

/** The server's VAPID public key, or null when Web Push is off there. */
async function pushKey() {
  const response = await fetch('/api/push/key', {
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
  });
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`the server answered ${response.status}`);
  const body = /** @type {{ publicKey: string }} */ (await response.json());
  return body.publicKey;
}

/**
 * @param {ServiceWorkerRegistration} registration
 * @param {string} key
 * @param {Show} show
 */
async function subscribe(registration, key, show) {
  const applicationServerKey = fromBase64Url(key);
  let subscription = await registration.pushManager.getSubscription();
  // Subscribed with another server's key (another data directory): start over with this one.
  const current = subscription?.options.applicationServerKey;
  if (
    subscription !== null &&
    (current == null || !sameBytes(new Uint8Array(current), applicationServerKey))
  ) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey });
  const response = await fetch('/api/push/subscriptions', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ subscription: subscription.toJSON(), show }),
  });
  const body = await response.json();
  if (!response.ok) throw new Error(body?.error?.message ?? `the server answered ${response.status}`);
  localStorage.setItem(KEY_PUSH_ID, body.subscription.id);
}

/** @param {ServiceWorkerRegistration} registration */
async function unsubscribe(registration) {
  const id = localStorage.getItem(KEY_PUSH_ID);
  if (id !== null) {
    const response = await fetch(`/api/push/subscriptions/${encodeURIComponent(id)}`, {
      method: 'DELETE',
      credentials: 'same-origin',
    });
    if (!response.ok && response.status !== 404) throw new Error(`the server answered ${response.status}`);
    localStorage.removeItem(KEY_PUSH_ID);
  }
  await (await registration.pushManager.getSubscription())?.unsubscribe();
}

/** @param {string} text */
function fromBase64Url(text) {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/**
 * @param {Uint8Array} a
 * @param {Uint8Array} b
 */
function sameBytes(a, b) {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
