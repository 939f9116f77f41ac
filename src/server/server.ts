// createServer(): the HTTP + WebSocket API over a Supervisor, for `warden serve`, the demo, embedding and
// tests. It binds 127.0.0.1 unless told otherwise, and it does not own the supervisor: close() stops the
// server and its sockets, and the caller closes the supervisor.
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

import { getRequestListener } from '@hono/node-server';

import { THREAD_MODES, type Supervisor } from '../supervisor/index.js';
import { createApp } from './app.js';
import { removeAddressFile, writeAddressFile } from './address-file.js';
import { mintLoginTicket } from './login-ticket.js';
import { ActionLinks } from './notify/action-links.js';
import { ApprovalFeed, type NotifyChannel } from './notify/approval-feed.js';
import { resolveNotifyOptions, type NotifyOptions } from './notify/notify-options.js';
import { PushChannel } from './notify/push-channel.js';
import { PushSubscriptions } from './notify/push-subscriptions.js';
import { loadOrCreateVapidKeys } from './notify/vapid-keys.js';
import { WebhookChannel } from './notify/webhook-channel.js';
import { loadOrCreateWebhookSecret } from './notify/webhook-secret.js';
import { answerersOf } from './answerers.js';
import { decisionFastPath } from './decision-fast-path.js';
import { DeciderTokens } from './deciders.js';
import { RequestGuard } from './request-guard.js';
import { SessionRegistry } from './sessions.js';
import { loadOrCreateToken } from './token.js';
import { packageVersion } from './version.js';
import { DEFAULT_STREAM_LIMITS, type StreamLimits } from './ws-stream.js';
import { attachWebSocket } from './ws-upgrade.js';

export interface ServerOptions {
  supervisor: Supervisor;
  /** Where the token file lives (`<dataDir>/server-token`, mode 0600); usually the supervisor's. */
  dataDir: string;
  /** Default `127.0.0.1`. Anything else exposes the API to the network: pass it deliberately. */
  host?: string;
  /** Default 0: a free port (read it from `url`). */
  port?: number;
  /** The browser UI's files; default the package's `web/`. A placeholder page is served without it. */
  webRoot?: string;
  /** The working directory `GET /api/info` proposes for new threads; default process.cwd(). */
  defaultCwd?: string;
  /** Unexpected errors (500s, a broken stream); default: printed to stderr. */
  onError?: (error: unknown) => void;
  /** WebSocket tuning: how far a client may fall behind, and the ping interval. */
  stream?: Partial<StreamLimits>;
  heartbeatMs?: number;
  /**
   * The browser sessions. Default: a registry of this server's own, so every session ends with it. Pass
   * one to keep sessions across two server objects of one process (a restart of the server alone).
   */
  sessions?: SessionRegistry;
  /** Notification channels; every one is off by default (docs/server.md, *Notifications*). */
  notify?: NotifyOptions;
}

export interface WardenServer {
  /** `http://host:port` */
  readonly url: string;
  /**
   * A new login link, `<url>/login#<ticket>`: opened in a browser within 15 minutes, it signs that browser
   * in once (a session cookie for 12 hours). It holds no token, but it is a secret until it has been used.
   */
  loginLink(decider?: string): string;
  /** Named deciders' tokens (create, list, revoke: revoking ends the decider's sessions and sockets). */
  readonly deciders: DeciderTokens;
  /** The browser sessions: `revokeAll()` signs every browser out. */
  readonly sessions: SessionRegistry;
  /** The API token, for `Authorization: Bearer` (never a cookie). */
  readonly token: string;
  readonly tokenPath: string;
  /** The token file was created by this start (first start with this data directory). */
  readonly tokenCreated: boolean;
  /** `<dataDir>/webhook-secret`, the key webhook bodies are signed with; null when no webhook is set. */
  readonly webhookSecretPath: string | null;
  /** `<dataDir>/vapid-keys.json`, the Web Push key pair; null when Web Push is off. */
  readonly vapidKeysPath: string | null;
  readonly port: number;
  /** WebSocket clients connected now. */
  readonly openSockets: number;
  /** Stops listening, closes every WebSocket (1001) and connection. Idempotent. */
  close(): Promise<void>;
}

export const DEFAULT_HOST = '127.0.0.1';
const DEFAULT_HEARTBEAT_MS = 30_000;

export async function createServer(options: ServerOptions): Promise<WardenServer> {
  if (typeof options !== 'object' || options === null) throw new TypeError('options must be an object');
  const { supervisor, dataDir, host = DEFAULT_HOST, port = 0 } = options;
  if (typeof supervisor !== 'object' || supervisor === null)
    throw new TypeError('options.supervisor is required');
  if (typeof dataDir !== 'string' || dataDir === '') throw new TypeError('options.dataDir must be a path');
  if (typeof host !== 'string' || host === '') throw new TypeError('options.host must be a host name');
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new TypeError('options.port must be an integer from 0 to 65535');
  if (options.sessions !== undefined && !(options.sessions instanceof SessionRegistry))
    throw new TypeError('options.sessions must be a SessionRegistry');
  const onError = options.onError ?? ((error: unknown) => console.error('warden server:', error));
  const notify = resolveNotifyOptions(options.notify);

  const loaded = loadOrCreateToken(dataDir);
  const sessions = options.sessions ?? new SessionRegistry();
  const deciders = new DeciderTokens(dataDir);
  const guard = new RequestGuard(loaded.token, host, sessions, deciders);
  // A revoked decider's browser sessions end now (their sockets close with them, 4001).
  deciders.onRevoke((name) => sessions.revokeDecider(name));
  const webhookSecret = notify.webhooks.length > 0 ? loadOrCreateWebhookSecret(dataDir) : undefined;
  const vapid = notify.push === undefined ? undefined : loadOrCreateVapidKeys(dataDir);
  const links =
    webhookSecret === undefined && vapid === undefined
      ? undefined
      : new ActionLinks({ ttlMs: notify.linkTtlMs });
  const push =
    notify.push === undefined || vapid === undefined || links === undefined
      ? undefined
      : (() => {
          const subscriptions = new PushSubscriptions(dataDir, notify.push);
          const channel = new PushChannel({
            subscriptions,
            links,
            linkTtlMs: notify.linkTtlMs,
            vapid,
            subject: notify.push.subject,
            limits: notify.delivery,
            onError,
          });
          return { publicKey: vapid.publicKey, subscriptions, channel };
        })();
  const app = createApp({
    supervisor,
    guard,
    sessions,
    token: loaded.token,
    deciders,
    loginLinkFor: (decider) => loginLink(url, loaded.token, decider),
    ...(links === undefined ? {} : { links }),
    ...(push === undefined ? {} : { push }),
    webRoot: options.webRoot ?? fileURLToPath(new URL('../../web/', import.meta.url)),
    info: {
      version: packageVersion(),
      modes: [...THREAD_MODES],
      defaultCwd: options.defaultCwd ?? process.cwd(),
    },
    // The server going away is not a hook going away: its approvals wait for the hook to ask again.
    isClosing: () => closing !== undefined,
    onError,
  });
  // Keep Node's own Request/Response: other code in the process (the CLI's helpers, tests) uses them.
  const viaHono = getRequestListener(app.fetch, { overrideGlobalObjects: false });
  const fastPath = decisionFastPath({ supervisor, deciders, guard, onError });
  const server = createHttpServer((incoming, outgoing) => {
    if (!fastPath(incoming, outgoing)) void viaHono(incoming, outgoing);
  });
  const sockets = attachWebSocket(server, {
    supervisor,
    guard,
    sessions,
    deciders,
    limits: { ...DEFAULT_STREAM_LIMITS, ...options.stream },
    heartbeatMs: options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    onError,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    sockets.close();
    throw error;
  }
  const bound = (server.address() as AddressInfo).port;
  guard.port = bound;
  const url = `http://${urlHost(host)}:${bound}`;
  writeAddressFile(dataDir, url);
  const channels: NotifyChannel[] = [];
  if (webhookSecret !== undefined && links !== undefined)
    channels.push(
      new WebhookChannel({
        targets: notify.webhooks,
        links,
        linkTtlMs: notify.linkTtlMs,
        baseUrl: url,
        secret: webhookSecret.secret,
        limits: notify.delivery,
        onError,
      }),
    );
  if (push !== undefined) channels.push(push.channel);
  const answerers = (approvalId: string): string[] => {
    const approval = supervisor.getApproval(approvalId);
    return answerersOf(deciders, approval, supervisor.getThread(approval.threadId).thread.cwd);
  };
  const feed =
    links === undefined ? undefined : new ApprovalFeed({ supervisor, links, channels, onError, answerers });

  let closing: Promise<void> | undefined;
  return {
    url,
    loginLink: (decider) => loginLink(url, loaded.token, decider),
    deciders,
    sessions,
    token: loaded.token,
    tokenPath: loaded.path,
    tokenCreated: loaded.created,
    webhookSecretPath: webhookSecret?.path ?? null,
    vapidKeysPath: vapid?.path ?? null,
    port: bound,
    get openSockets() {
      return sockets.count;
    },
    close() {
      closing ??= (async () => {
        removeAddressFile(dataDir, url);
        await feed?.close();
        sockets.close();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
      })();
      return closing;
    },
  };
}

/**
 * A login link for the server at `url` whose token is `token` (what `warden login` prints too); with
 * `decider`, the session it opens is that named decider's.
 */
export function loginLink(url: string, token: string, decider?: string): string {
  return `${url}/login#${mintLoginTicket(token, Date.now(), decider)}`;
}

/** How the printed URL names the host: a wildcard bind is reached locally through 127.0.0.1. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
