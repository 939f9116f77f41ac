// @ts-check
// The service worker: it makes the inbox installable and shows Web Push notifications. A push carries one
// approval (what the device chose to show, and action URLs holding single-use tokens) or the news that it
// was answered elsewhere; both use the approval's tag, so the second replaces the first. Approve / Deny
// post the action URL to the server this worker came from — the token is the credential, so it works from
// a locked phone without a session — and the notification then says what happened. A plain click opens
// the inbox. It caches nothing: the inbox is live data, and a stale copy could show a settled approval.

/**
 * The parts of the worker's global scope used here (the DOM typings do not describe a worker).
 * @typedef {{ action: string, notification: Notification, waitUntil(p: Promise<unknown>): void }} ClickEvent
 * @typedef {{ data: { json(): unknown } | null, waitUntil(p: Promise<unknown>): void }} PushEvent
 * @typedef {{ url: string, focus(): Promise<unknown>, postMessage(m: unknown): void }} WindowClient
 * @typedef {{
 *   registration: ServiceWorkerRegistration,
 *   clients: {
 *     claim(): Promise<void>,
 *     matchAll(o: object): Promise<WindowClient[]>,
 *     openWindow(url: string): Promise<unknown>,
 *   },
 *   skipWaiting(): Promise<void>,
 *   addEventListener(type: string, listener: (event: any) => void): void,
 *   warden?: unknown,
 * }} WorkerScope
 * @typedef {{
 *   v: number, type: 'approval.requested' | 'approval.resolved', tag: string, approvalId: string,
 *   threadId: string, title: string, body: string, actions: { approve?: string, deny?: string },
 *   expiresAt?: string
 * }} PushPayload
 */

const worker = /** @type {WorkerScope} */ (/** @type {unknown} */ (self));
const ICON = 'icons/icon-192.png';
const BADGE = 'icons/badge-96.png';

worker.addEventListener('install', () => void worker.skipWaiting());
worker.addEventListener('activate', (/** @type {{ waitUntil(p: Promise<unknown>): void }} */ event) =>
  event.waitUntil(worker.clients.claim()),
);

worker.addEventListener('push', (/** @type {PushEvent} */ event) => {
  event.waitUntil(showPush(parsePush(event.data)));
});

worker.addEventListener('notificationclick', (/** @type {ClickEvent} */ event) => {
  event.waitUntil(handleClick(event.notification, event.action));
});

/**
 * @param {{ json(): unknown } | null} data
 * @returns {PushPayload | undefined}
 */
function parsePush(data) {
  try {
    const payload = /** @type {PushPayload} */ (data?.json());
    return typeof payload?.tag === 'string' && typeof payload.title === 'string' ? payload : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Shows the notification a push asks for. A push must always show one (browsers require it), so a push
 * that cannot be read still says that something waits.
 * @param {PushPayload | undefined} payload
 */
async function showPush(payload) {
  if (payload === undefined)
    return worker.registration.showNotification('Warden', {
      body: 'Something changed; open Warden to see it.',
      icon: ICON,
      badge: BADGE,
      tag: 'warden-unknown',
    });
  const waiting = payload.type === 'approval.requested';
  if (!waiting) {
    // Decided on this device: its "Approved" / "Denied" stays (shown again, quietly, as a push must show one).
    const [mine] = await worker.registration.getNotifications({ tag: payload.tag });
    if (mine?.data?.decidedHere === true)
      return worker.registration.showNotification(mine.title, {
        body: mine.body,
        tag: mine.tag,
        icon: ICON,
        badge: BADGE,
        silent: true,
        data: mine.data,
      });
  }
  /** @type {{ action: string, title: string }[]} */
  const actions = [];
  if (waiting && payload.actions.approve !== undefined) actions.push({ action: 'approve', title: 'Approve' });
  if (waiting && payload.actions.deny !== undefined) actions.push({ action: 'deny', title: 'Deny' });
  // `renotify` and `actions` are not in the DOM typings' NotificationOptions.
  const options = {
    body: payload.body,
    tag: payload.tag,
    icon: ICON,
    badge: BADGE,
    // A new prompt alerts; "answered elsewhere" quietly replaces it.
    renotify: waiting,
    silent: !waiting,
    requireInteraction: waiting,
    data: {
      approvalId: payload.approvalId,
      threadId: payload.threadId,
      actions: waiting ? payload.actions : {},
      expiresAt: payload.expiresAt ?? null,
    },
    actions,
  };
  return worker.registration.showNotification(payload.title, /** @type {NotificationOptions} */ (options));
}

/**
 * A click on a notification or one of its buttons. Exposed as `warden.handleClick` so a test can take the
 * path a tap takes. Resolves with what happened: the HTTP status of the decision, or `opened`.
 * @param {Notification} notification
 * @param {string} action `approve`, `deny`, or '' for the notification itself
 * @returns {Promise<{ status: number | 'opened' | 'failed' }>}
 */
async function handleClick(notification, action) {
  const data = /** @type {{ approvalId?: string, actions?: Record<string, string> } | null} */ (
    notification.data
  );
  const url = action === 'approve' || action === 'deny' ? data?.actions?.[action] : undefined;
  notification.close();
  if (url === undefined) {
    await openInbox();
    return { status: 'opened' };
  }
  let status;
  try {
    const response = await fetch(new URL(url, worker.registration.scope), {
      method: 'POST',
      credentials: 'omit',
      cache: 'no-store',
    });
    status = response.status;
  } catch {
    status = 0;
  }
  await worker.registration.showNotification(resultTitle(action, status), {
    body: resultBody(status),
    tag: notification.tag,
    icon: ICON,
    badge: BADGE,
    silent: true,
    data: { approvalId: data?.approvalId, actions: {}, decidedHere: status === 200 },
  });
  return { status: status === 0 ? 'failed' : status };
}

/**
 * @param {string} action
 * @param {number} status
 */
function resultTitle(action, status) {
  if (status === 200) return action === 'approve' ? 'Approved' : 'Denied';
  if (status === 409) return 'Answered elsewhere';
  return 'Not answered';
}

/** @param {number} status */
function resultBody(status) {
  if (status === 200) return 'From this device. Open Warden to follow the run.';
  if (status === 409) return 'This approval was already answered.';
  if (status === 401) return 'This notification has expired. Open Warden to answer.';
  if (status === 0) return 'Warden could not be reached. Open Warden to answer.';
  return `Warden answered ${status}. Open Warden to answer.`;
}

/** Focuses an open inbox, or opens one. */
async function openInbox() {
  const scope = worker.registration.scope;
  const open = await worker.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const inbox = open.find((client) => client.url.startsWith(scope));
  // Focusing and opening windows is allowed only while a click is being handled.
  try {
    if (inbox !== undefined) {
      inbox.postMessage({ type: 'warden.open-inbox' });
      await inbox.focus();
    } else await worker.clients.openWindow(`${scope}#/`);
  } catch {
    // Not from a click: the message alone has to do.
  }
}

worker.warden = { handleClick, showPush };
