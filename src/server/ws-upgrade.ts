// `GET /ws`: the upgrade is checked before anything is accepted — Origin (a page of this server only),
// then the token, then the query — and refused with a plain HTTP status and the usual JSON error body.
// Accepted sockets stream events (ws-stream.ts), answer `{type:'ping'}`, and are pinged to find the dead.
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';

import { WebSocketServer, type WebSocket } from 'ws';

import type { Supervisor } from '../supervisor/index.js';
import { SocketQuery, WS_CLOSE } from './api-schema.js';
import { parseOrThrow } from './body.js';
import { ApiError, errorReply } from './http-error.js';
import type { RequestGuard } from './request-guard.js';
import { keepAlive, send, streamEvents, type StreamLimits } from './ws-stream.js';

export interface SocketOptions {
  supervisor: Supervisor;
  guard: RequestGuard;
  limits: StreamLimits;
  heartbeatMs: number;
  onError: (error: unknown) => void;
}

/** Handles upgrades on `server`; close() says goodbye (1001) to every client. */
export function attachWebSocket(server: Server, options: SocketOptions): { close(): void } {
  // Clients only ever send tiny control messages.
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4096 });
  const clients = new Set<WebSocket>();

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => socket.destroy());
    let query: { since?: number | undefined; threadId?: string | undefined };
    try {
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (url.pathname !== '/ws') throw new ApiError(404, 'NOT_FOUND', `No WebSocket at ${url.pathname}`);
      const header = (name: string): string | undefined => {
        const value = request.headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      options.guard.checkOrigin(header, true);
      options.guard.checkToken(header);
      query = parseOrThrow(SocketQuery, Object.fromEntries(url.searchParams));
      if (query.threadId !== undefined) options.supervisor.getThread(query.threadId);
    } catch (error) {
      return refuse(socket, error, options.onError);
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      clients.add(ws);
      const stopPings = keepAlive(ws, options.heartbeatMs);
      ws.on('close', () => {
        clients.delete(ws);
        stopPings();
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
      }).catch((error: unknown) => {
        options.onError(error);
        if (ws.readyState === ws.OPEN) ws.close(WS_CLOSE.INTERNAL_ERROR, 'internal error');
      });
    });
  };
  server.on('upgrade', onUpgrade);

  return {
    close() {
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
      `content-length: ${Buffer.byteLength(body)}\r\n` +
      'connection: close\r\n\r\n' +
      body,
  );
}
