// A real Supervisor behind a real server on 127.0.0.1, for the API tests, in a test world: a scratch
// HOME/TMPDIR/cwd, the data directory inside it, and — when a script is given — the mock model driving the
// pinned CLI. Plus a
// small HTTP client that sends the token, and a WebSocket client that collects messages and its close.
import type { TestContext } from 'node:test';

import WebSocket from 'ws';

import {
  createServer,
  type ServerMessage,
  type ServerOptions,
  type WardenServer,
} from '../../../src/server/index.js';
import { Supervisor, type StoredEvent } from '../../../src/supervisor/index.js';
import { startTestWorld, type MockModel, type MockScript, type Scratch } from '../../../src/testing/index.js';

export interface ServerSession {
  readonly sup: Supervisor;
  readonly server: WardenServer;
  readonly scratch: Scratch;
  readonly dataDir: string;
  readonly mock: MockModel | undefined;
  /** Calls the API with the Bearer token unless `auth: false`; the body is sent as JSON. */
  readonly api: (path: string, init?: ApiInit) => Promise<{ status: number; json: Json; headers: Headers }>;
}

/** A response body, inspected loosely by the tests. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface ApiInit {
  method?: string;
  body?: unknown;
  /** A raw body (sent as is, with Content-Type: application/json). */
  raw?: string;
  headers?: Record<string, string>;
  auth?: boolean;
}

export async function startServerSession(
  t: TestContext,
  options: { script?: MockScript; server?: Partial<ServerOptions> } = {},
): Promise<ServerSession> {
  const world = await startTestWorld(t, {
    prefix: 'warden-srv-',
    ...(options.script === undefined ? {} : { script: options.script }),
  });
  const { scratch, mock, dataDir } = world;
  const sup = await Supervisor.open({
    dataDir,
    claudePath: world.claudePath,
    env: world.env,
    onWarning: () => undefined,
  });
  world.defer(() => sup.close({ stopAgents: true }));
  const server = await createServer({
    supervisor: sup,
    dataDir,
    onError: () => undefined,
    ...options.server,
  });
  world.defer(() => server.close());

  const api: ServerSession['api'] = async (path, init = {}) => {
    const headers: Record<string, string> = { ...init.headers };
    if (init.auth !== false) headers.authorization = `Bearer ${server.token}`;
    const body = init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const response = await fetch(`${server.url}${path}`, {
      method: init.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      redirect: 'manual',
      ...(body === undefined ? {} : { body }),
    });
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text === '' ? null : JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: response.status, json, headers: response.headers };
  };
  return { sup, server, scratch, dataDir, mock, api };
}

/** A WebSocket client that records what the server sends, and how the connection ended. */
export interface SocketClient {
  readonly messages: ServerMessage[];
  /** Resolves once a message matching `predicate` has arrived (or already had). */
  readonly waitFor: (predicate: (message: ServerMessage) => boolean) => Promise<ServerMessage>;
  /** The events received before the `live` marker (the replay), once it arrives. */
  readonly replay: () => Promise<StoredEvent[]>;
  readonly closed: Promise<{ code: number; reason: string }>;
  /** Rejects with the HTTP status when the upgrade is refused. */
  readonly opened: Promise<void>;
  readonly send: (text: string) => void;
  readonly close: () => void;
}

/** `server`: an in-process server, or anything else with its URL and token (a `warden serve` process). */
export function connectSocket(
  server: Pick<WardenServer, 'url' | 'token'>,
  query: string,
  options: { headers?: Record<string, string>; auth?: boolean } = {},
): SocketClient {
  const headers: Record<string, string> = { ...options.headers };
  if (options.auth !== false) headers.authorization = `Bearer ${server.token}`;
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws${query}`, { headers });
  const messages: ServerMessage[] = [];
  const waiters: { predicate: (m: ServerMessage) => boolean; resolve: (m: ServerMessage) => void }[] = [];
  ws.on('message', (data) => {
    const message = JSON.parse((data as Buffer).toString('utf8')) as ServerMessage;
    messages.push(message);
    for (const waiter of [...waiters])
      if (waiter.predicate(message)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
  });
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_request, response) =>
      reject(
        Object.assign(new Error(`upgrade refused: ${response.statusCode}`), { status: response.statusCode }),
      ),
    );
    ws.once('error', reject);
  });
  opened.catch(() => undefined);
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const waitFor = (predicate: (message: ServerMessage) => boolean): Promise<ServerMessage> => {
    const found = messages.find(predicate);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      waiters.push({ predicate, resolve });
      void closed.then(({ code }) => reject(new Error(`socket closed (${code}) before the message came`)));
    });
  };
  return {
    messages,
    waitFor,
    replay: async () => {
      await waitFor((m) => m.type === 'live');
      const end = messages.findIndex((m) => m.type === 'live');
      return messages.slice(0, end).flatMap((m) => (m.type === 'event' ? [m.event] : []));
    },
    closed,
    opened,
    send: (text) => ws.send(text),
    close: () => ws.close(),
  };
}
