// `GET /ws`: the upgrade is checked before anything is accepted — Origin (a page of this server only),
// then the token, then the query — and refused with a plain HTTP status and the usual JSON error body.
// Accepted sockets stream events (ws-stream.ts), answer `{type:'ping'}`, and are pinged to find the dead.
// A socket opened with a browser session closes (4001) when that session ends: logout, revoke-all, expiry;
// any socket of a named decider (session or Bearer token) closes (4001) when that decider is revoked.
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';

import { WebSocketServer, type WebSocket } from 'ws';

import type { Supervisor } from '../supervisor/index.js';
import { SocketQuery, WS_CLOSE } from './api-schema.js';
import { parseOrThrow } from './body.js';
import { ApiError, errorReply } from './http-error.js';
import { checkSocketRole } from './roles.js';
import type { DeciderTokens } from './deciders.js';
import type { Caller, RequestGuard } from './request-guard.js';
import type { SessionRegistry } from './sessions.js';
import { keepAlive, send, streamEvents, type StreamLimits } from './ws-stream.js';

/** How long a client told to go (4008) has to take its close frame before the connection is cut. */
const CLOSE_GRACE_MS = 2000;

export interface SocketOptions {
  supervisor: Supervisor;
  guard: RequestGuard;
  sessions: SessionRegistry;
  /** Named deciders: revoking one closes its sockets. */
  deciders?: DeciderTokens;
  limits: StreamLimits;
  heartbeatMs: number;
  onError: (error: unknown) => void;
}

/** Handles upgrades on `server`; close() says goodbye (1001) to every client. */
export function attachWebSocket(
  server: Server,
  options: SocketOptions,
): { close(): void; readonly count: number } {
  // Clients only ever send tiny control messages.
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4096 });
  const clients = new Set<WebSocket>();
  /** Sockets opened with a session, by its key. */
  const bySession = new Map<string, Set<WebSocket>>();
  const endSession = (key: string): void => {
    for (const ws of bySession.get(key) ?? []) ws.close(WS_CLOSE.SESSION_ENDED, 'session ended');
    bySession.delete(key);
  };
  const stopWatching = options.sessions.onEnd(endSession);
  /** Sockets by the decider that opened them. */
  const byDecider = new Map<string, Set<WebSocket>>();
  const stopWatchingDeciders =
    options.deciders?.onRevoke((name) => {
      for (const ws of byDecider.get(name) ?? []) ws.close(WS_CLOSE.SESSION_ENDED, 'token revoked');
      byDecider.delete(name);
    }) ?? (() => undefined);

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => socket.destroy());
    let query: { since?: number | undefined; threadId?: string | undefined };
    let caller: Caller;
    try {
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (url.pathname !== '/ws') throw new ApiError(404, 'NOT_FOUND', `No WebSocket at ${url.pathname}`);
      const header = (name: string): string | undefined => {
        const value = request.headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      options.guard.checkOrigin(header, true);
      caller = options.guard.checkToken(header);
      checkSocketRole(caller.role);
      query = parseOrThrow(SocketQuery, Object.fromEntries(url.searchParams));
      if (query.threadId !== undefined) options.supervisor.getThread(query.threadId);
    } catch (error) {
      return refuse(socket, error, options.onError);
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      clients.add(ws);
      const stopPings = keepAlive(ws, options.heartbeatMs);
      const forgetSession = caller.via === 'session' ? bindToSession(ws, caller.session) : () => undefined;
      let mine = byDecider.get(caller.decider);
      if (mine === undefined) byDecider.set(caller.decider, (mine = new Set()));
      mine.add(ws);
      ws.on('close', () => {
        clients.delete(ws);
        stopPings();
        forgetSession();
        byDecider.get(caller.decider)?.delete(ws);
        if (byDecider.get(caller.decider)?.size === 0) byDecider.delete(caller.decider);
      });
      ws.on('error', () => ws.terminate());
      ws.on('message', (data, isBinary) => {
        if (!isBinary && Buffer.isBuffer(data) && isPing(data.toString('utf8')))
          void send(ws, { type: 'pong' });
      });
      const since = query.since ?? options.supervisor.lastSeq();
      streamEvents(ws, options.supervisor, {
        since,
        limits: options.limits,
        // The connection ws writes to: corking it sends a page's frames in one write.
        cork: socket,
        ...(query.threadId === undefined ? {} : { threadId: query.threadId }),
      })
        .then(() => {
          // Told to go (too slow): a client that does not read will not read the close frame either, and
          // what is buffered for it stays until the socket is gone — so it goes after a short grace.
          if (ws.readyState === ws.CLOSING) setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
        })
        .catch((error: unknown) => {
          options.onError(error);
          if (ws.readyState === ws.OPEN) ws.close(WS_CLOSE.INTERNAL_ERROR, 'internal error');
        });
    });
  };
  server.on('upgrade', onUpgrade);

  /** Closes `ws` when its session ends or expires; returns what undoes that when it closes first. */
  function bindToSession(ws: WebSocket, session: { key: string; expiresAt: number }): () => void {
    let set = bySession.get(session.key);
    if (set === undefined) bySession.set(session.key, (set = new Set()));
    set.add(ws);
    const expiry = setTimeout(
      () => ws.close(WS_CLOSE.SESSION_ENDED, 'session expired'),
      // setTimeout takes at most 2^31-1 ms (24.8 days); sessions are far shorter.
      Math.min(Math.max(0, session.expiresAt - Date.now()), 2 ** 31 - 1),
    );
    expiry.unref();
    return () => {
      clearTimeout(expiry);
      bySession.get(session.key)?.delete(ws);
      if (bySession.get(session.key)?.size === 0) bySession.delete(session.key);
    };
  }

  return {
    get count() {
      return clients.size;
    },
    close() {
      stopWatching();
      stopWatchingDeciders();
      server.off('upgrade', onUpgrade);
      for (const ws of clients) ws.close(WS_CLOSE.GOING_AWAY, 'server shutting down');
      wss.close();
    },
  };
}

function isPing(text: string): boolean {
  try {
    const message: unknown = JSON.parse(text);
    return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'ping';
  } catch {
    return false;
  }
}

/** Answers a refused upgrade as a normal HTTP response, then drops the connection. */
function refuse(socket: Duplex, error: unknown, onError: (error: unknown) => void): void {
  const reply = errorReply(error);
  if (reply.unexpected) onError(error);
  const body = JSON.stringify(reply.body);
  socket.end(
    `HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? 'Error'}\r\n` +
      'content-type: application/json\r\n' +
      Object.entries(reply.headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('') +
      'x-content-type-options: nosniff\r\n' +
      `content-length: ${Buffer.byteLength(body)}\r\n` +
      'connection: close\r\n\r\n' +
      body,
  );
}
