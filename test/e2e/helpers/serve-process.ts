// A real `warden serve` child process on a data dir, with its API reachable by the token file, for tests
// that kill and restart the server. The test world's teardown SIGKILLs the server if it is still running
// and the process group of every CLI recorded with `world.track` (trackedCli), even when the test failed.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { until, type TestWorld } from '../../../src/testing/index.js';
import { spawnWarden, type WardenProcess } from './server-command.js';
import { assertNoProcessLeft, waitForNoProcess } from './supervisor-session.js';

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface ServeProcess {
  readonly process: WardenProcess;
  readonly url: string;
  readonly token: string;
  /** When the child was spawned, and when it printed its banner (Date.now()). */
  readonly spawnedAt: number;
  readonly readyAt: number;
  /** GET (no body) or POST a JSON body with the bearer token; fails the test on a non-2xx answer. */
  api(path: string, body?: unknown): Promise<Json>;
  /** SIGKILL, then resolves when the process is gone. */
  kill(): Promise<void>;
}

/** What a served test needs of its world: processes to end at teardown. */
export type ServeWorld = Pick<TestWorld, 'track' | 'defer'>;

/** A port that was free a moment ago, so a restarted server can listen where the page expects it. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  assert.ok(address !== null && typeof address === 'object');
  return address.port;
}

export async function startServe(
  world: ServeWorld,
  dataDir: string,
  env: Record<string, string>,
  options: { port?: number; args?: string[] } = {},
): Promise<ServeProcess> {
  const spawnedAt = Date.now();
  const args = ['serve', '--port', String(options.port ?? 0), '--data-dir', dataDir, ...(options.args ?? [])];
  const child = spawnWarden(args, env);
  world.track(child.child.pid);
  world.defer(() => {
    if (child.child.exitCode === null && child.child.signalCode === null) child.child.kill('SIGKILL');
  });
  await child.waitFor('stdout', /Press Ctrl-C to stop\./);
  const readyAt = Date.now();
  const url = /(http:\/\/127\.0\.0\.1:\d+)\/login#/.exec(child.stdout())?.[1];
  assert.ok(url !== undefined, child.stdout());
  const token = readFileSync(join(dataDir, 'server-token'), 'utf8').trim();
  return {
    process: child,
    url,
    token,
    spawnedAt,
    readyAt,
    async api(path, body) {
      const response = await fetch(`${url}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      assert.ok(response.ok, `${path}: ${response.status} ${text}`);
      return JSON.parse(text) as Json;
    },
    async kill() {
      child.child.kill('SIGKILL');
      assert.deepEqual(await child.exited, { code: null, signal: 'SIGKILL' });
    },
  };
}

/** Polls `read` every 50 ms until it returns a value (not undefined); fails after `ms`. */
export function pollFor<T>(what: string, read: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  return until(read, { what, timeoutMs: ms, intervalMs: 50 });
}

/** Every event of a thread, over the API (paged). */
export async function threadEvents(serve: ServeProcess, threadId: string): Promise<Json[]> {
  const events: Json[] = [];
  for (let since = 0; ;) {
    const page = await serve.api(`/api/threads/${threadId}/events?since=${since}`);
    events.push(...(page.events as Json[]));
    if (page.more !== true) return events;
    since = page.lastSeq as number;
  }
}

/** Creates a thread whose first message is `prompt`; resolves with its id and that message's run. */
export async function createThread(
  serve: ServeProcess,
  cwd: string,
  prompt: string,
): Promise<{ threadId: string; runId: string }> {
  const created = await serve.api('/api/threads', { cwd, mode: 'supervised', prompt });
  return { threadId: String(created.thread.id), runId: String(created.run.id) };
}

/** Resolves once the run has completed. */
export async function runCompleted(serve: ServeProcess, threadId: string, runId: string): Promise<void> {
  await pollFor('the root run completed', async () => {
    const { runs } = await serve.api(`/api/threads/${threadId}`);
    return (runs as Json[]).find((r) => r.id === runId && r.status === 'completed');
  });
}

/** The first pending approval (of `toolName`, when given). */
export function pendingApproval(serve: ServeProcess, toolName?: string): Promise<Json> {
  return pollFor(`a pending ${toolName ?? ''} approval`, async () => {
    const { approvals } = (await serve.api('/api/approvals?status=pending')) as { approvals: Json[] };
    return approvals.find((a) => toolName === undefined || a.toolName === toolName);
  });
}

/** The thread's CLI process as the server records it, tracked so the test kills it whatever happens. */
export async function trackedCli(
  serve: ServeProcess,
  threadId: string,
  world: Pick<TestWorld, 'track'>,
): Promise<{ pid: number; startTicks: number; spoolDir: unknown }> {
  const { thread } = await serve.api(`/api/threads/${threadId}`);
  const cli = thread.cliProcess as Json;
  world.track(cli.pid as number);
  return { pid: cli.pid as number, startTicks: cli.startTime as number, spoolDir: cli.spoolDir };
}

/**
 * Ends the servers of a fleet (SIGTERM; with --stop-agents each ends the CLIs it owns), checks each exited
 * cleanly (named by `names`) and that no process of the world's `home` is left.
 */
export async function stopServeFleet(
  hosts: readonly ServeProcess[],
  names: readonly string[],
  home: string,
): Promise<void> {
  for (const host of hosts) host.process.child.kill('SIGTERM');
  for (const [i, host] of hosts.entries())
    assert.deepEqual(
      await host.process.exited,
      { code: 0, signal: null },
      `${names[i] ?? i} exits cleanly; stderr: ${host.process.stderr()}`,
    );
  await waitForNoProcess(home, 30_000);
  assertNoProcessLeft(home);
}
