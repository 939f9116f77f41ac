// The app-server as a detached process that outlives its host, as Warden runs Claude Code for durable
// threads: stdin a FIFO it holds open itself, stdout a spool file (transport/detached-child.ts). Measured
// with 0.171.0 (docs/agents.md): the host going away changes nothing for it, and its JSON-RPC session is
// the process's, so a host that comes back does not initialize again ("Already initialized"): it reads
// the spool and answers the requests still pending by their ids. A request is pending when the spool has
// it and no `serverRequest/resolved` notification for it.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

import { detachedPaths, spawnDetached, type DetachedPaths } from '../../transport/detached-child.js';
import { DetachedTransport } from '../../transport/detached-transport.js';
import type { ProcessIdentity } from '../../transport/exit-watch.js';
import {
  CodexAppServer,
  handshake,
  type CodexAppServerOptions,
  type CodexClientHandlers,
} from './app-server.js';
import { resolveCodexExecutable } from './resolve-codex.js';

/** What a later host needs to join the process: keep it with the thread. */
export interface DetachedCodex {
  readonly dir: string;
  readonly identity: ProcessIdentity;
  readonly marker: string;
}

/**
 * Spawns the app-server detached in `dir` (which must not exist yet) and completes the handshake. With
 * `watchdog`, the process ends by itself once `dir` is removed (detached-lifetime.ts).
 */
export async function spawnDetachedCodexAppServer(
  options: CodexAppServerOptions & { readonly dir: string; readonly watchdog?: boolean },
): Promise<{ server: CodexAppServer; process: DetachedCodex; transport: DetachedTransport }> {
  const marker = randomUUID();
  const child = await spawnDetached({
    command: options.codexPath ?? resolveCodexExecutable(),
    args: ['app-server', ...(options.config ?? []).flatMap((entry) => ['-c', entry])],
    cwd: options.cwd,
    env: options.env,
    marker,
    dir: options.dir,
    ...(options.watchdog === true ? {} : { watchdog: false as const }),
  });
  const identity = { pid: child.pid, startTicks: child.startTicks };
  const transport = new DetachedTransport({ paths: child.paths, identity, marker, exited: child.exited });
  const server = await handshake(new CodexAppServer(transport, options), options);
  return { server, process: { dir: options.dir, identity, marker }, transport };
}

/** Ids of the server requests the spool shows as resolved (answered by some host, or withdrawn). */
export function resolvedRequests(paths: DetachedPaths): Set<string> {
  return readSpoolRequests(paths).resolved;
}

/** Ids of the server requests the spool holds with no `serverRequest/resolved`: the ones still waiting. */
export function pendingRequests(paths: DetachedPaths): Set<string> {
  const { asked, resolved } = readSpoolRequests(paths);
  return new Set([...asked].filter((id) => !resolved.has(id)));
}

/** The server's requests in the spool (a frame with a method and an id), and those resolved since. */
function readSpoolRequests(paths: DetachedPaths): { asked: Set<string>; resolved: Set<string> } {
  const asked = new Set<string>();
  const resolved = new Set<string>();
  for (const line of readFileSync(paths.output, 'utf8').split('\n')) {
    if (!line.includes('"method"')) continue;
    try {
      const frame = JSON.parse(line) as { method?: unknown; id?: unknown; params?: { requestId?: unknown } };
      if (frame.method === 'serverRequest/resolved') resolved.add(String(frame.params?.requestId));
      else if (
        typeof frame.method === 'string' &&
        (typeof frame.id === 'number' || typeof frame.id === 'string')
      )
        asked.add(String(frame.id));
    } catch {
      // A line being written as we read: the transport reads it whole later.
    }
  }
  return { asked, resolved };
}

/**
 * Joins an app-server an earlier host left running: the spool is read from its start, so every request
 * still pending reaches `onServerRequest` again (with its own id) and the ones already resolved do not.
 */
export function attachCodexAppServer(process: DetachedCodex, handlers: CodexClientHandlers): CodexAppServer {
  const paths = detachedPaths(process.dir);
  const transport = new DetachedTransport({
    paths,
    identity: process.identity,
    marker: process.marker,
    attaching: true,
  });
  return new CodexAppServer(transport, {
    ...handlers,
    skip: new Set([...resolvedRequests(paths), ...(handlers.skip ?? [])]),
    // Above any id the earlier host used: its responses are in the spool too.
    firstId: handlers.firstId ?? Date.now(),
  });
}
