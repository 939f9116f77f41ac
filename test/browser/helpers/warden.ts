// A real Warden for browser tests: the mock model running a script, a Supervisor driving the pinned
// Claude Code CLI offline, and the HTTP/WebSocket server serving web/ on 127.0.0.1. Teardown (in t.after)
// closes all of it and checks that no CLI process this test started is left.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';

import { createServer, SessionRegistry, type WardenServer } from '../../../src/server/index.js';
import { Supervisor, type SupervisorEvent } from '../../../src/supervisor/index.js';
import {
  createScratch,
  offlineClaudeEnv,
  pinnedClaudePath,
  startMockModel,
  type MockModel,
  type MockScript,
  type Scratch,
} from '../../../src/testing/index.js';
import { processesUsingHome } from '../../e2e/helpers/sdk-session.js';

const CLI_EXIT_MS = 10_000;

export const WEB_ROOT = fileURLToPath(new URL('../../../web/', import.meta.url));

export interface Warden {
  readonly mock: MockModel;
  readonly scratch: Scratch;
  readonly supervisor: Supervisor;
  readonly dataDir: string;
  /** The current server; restartServer() replaces it. */
  server: WardenServer;
  /**
   * Closes the server (every WebSocket gets 1001) and starts a new one on the same port and token, with
   * the same browser sessions.
   */
  restartServer(between?: () => Promise<void>): Promise<void>;
  /** Runs `fn` at teardown before the server and supervisor close (the browser goes first). */
  beforeClose(fn: () => Promise<void>): void;
  /** Resolves with the first event (past or future) that matches. */
  waitForEvent(predicate: (event: SupervisorEvent) => boolean): Promise<SupervisorEvent>;
}

/**
 * `buildScript` gets the scratch directories, for tool calls that name files in the project;
 * `idleParkMs` is the supervisor's (its default when absent); with `fleet`, the supervisor is that host
 * of a fleet on that PostgreSQL database.
 */
export async function startWarden(
  t: TestContext,
  buildScript: (scratch: Scratch) => MockScript,
  { idleParkMs, fleet }: { idleParkMs?: number; fleet?: { store: string; hostName: string } } = {},
): Promise<Warden> {
  const scratch = createScratch();
  const dataDir = join(scratch.dir, 'data');
  const abort = new AbortController();
  const parts: { mock?: MockModel; supervisor?: Supervisor; server?: WardenServer } = {};
  const first: (() => Promise<void>)[] = [];
  t.after(async () => {
    abort.abort();
    try {
      for (const fn of first.reverse()) await fn();
      await parts.server?.close();
      await parts.supervisor?.close({ stopAgents: true });
      await parts.mock?.close();
      // Supervisor.close() resolves once the CLI's stream has ended; the process may take a moment more
      // to exit after its stdin closes and the SIGTERM. Wait for that (bounded), then assert.
      await until(() => processesUsingHome(scratch.home).length === 0, CLI_EXIT_MS);
      assert.deepEqual(processesUsingHome(scratch.home), [], 'no CLI process is left running');
    } finally {
      scratch.cleanup();
    }
  });
  const mock = await startMockModel({ script: buildScript(scratch) });
  parts.mock = mock;
  const supervisor = await Supervisor.open({
    dataDir,
    claudePath: pinnedClaudePath(),
    env: offlineClaudeEnv({ mockUrl: mock.url, home: scratch.home, tmpdir: scratch.tmpdir }),
    ...(idleParkMs === undefined ? {} : { idleParkMs }),
    ...(fleet === undefined ? {} : { store: fleet.store, host: { name: fleet.hostName } }),
  });
  parts.supervisor = supervisor;
  // One registry for every server object of this test: a restarted server keeps the browser signed in,
  // as the page would be after a network blip (a restarted process would sign it out).
  const sessions = new SessionRegistry();
  const serve = (port = 0) =>
    createServer({
      supervisor,
      dataDir,
      port,
      sessions,
      webRoot: WEB_ROOT,
      defaultCwd: scratch.cwd,
      onError: () => {},
    });
  parts.server = await serve();

  const warden: Warden = {
    mock,
    scratch,
    supervisor,
    dataDir,
    server: parts.server,
    beforeClose: (fn) => first.push(fn),
    async restartServer(between) {
      const port = warden.server.port;
      await warden.server.close();
      await between?.();
      parts.server = warden.server = await serve(port);
    },
    async waitForEvent(predicate) {
      for await (const event of supervisor.events({ since: 0, signal: abort.signal }))
        if (predicate(event)) return event;
      throw new Error('the supervisor closed before the awaited event');
    },
  };
  return warden;
}

/** Polls `condition` every 50 ms until it holds or `ms` pass (then the caller's assertion reports it). */
async function until(condition: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}
