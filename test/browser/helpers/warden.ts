// A real Warden for browser tests: the mock model running a script, a Supervisor driving the pinned
// Claude Code CLI offline, and the HTTP/WebSocket server serving web/ on 127.0.0.1, in a test world. Its
// teardown closes all of it and fails the test when a CLI process this test started is left running.
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';

import { createServer, SessionRegistry, type WardenServer } from '../../../src/server/index.js';
import {
  Supervisor,
  type ApprovalRoute,
  type RouteTimers,
  type SupervisorEvent,
  type SupervisorOptions,
} from '../../../src/supervisor/index.js';
import { startTestWorld, type MockModel, type MockScript, type Scratch } from '../../../src/testing/index.js';

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
  beforeClose(fn: () => Promise<unknown>): void;
  /** Resolves with the first event (past or future) that matches. */
  waitForEvent(predicate: (event: SupervisorEvent) => boolean): Promise<SupervisorEvent>;
}

/**
 * `buildScript` gets the scratch directories, for tool calls that name files in the project;
 * `idleParkMs` is the supervisor's (its default when absent); with `fleet`, the supervisor is that host
 * of a fleet on that PostgreSQL database; `routes` the supervisor's routes of unanswered approvals, timed by
 * `routeClock` when given; `requireTwo`, its two-person rules; `codex`, how it starts Codex threads' app-server.
 */
export async function startWarden(
  t: TestContext,
  buildScript: (scratch: Scratch) => MockScript,
  {
    idleParkMs,
    fleet,
    routes,
    routeClock,
    requireTwo,
    codex,
  }: {
    idleParkMs?: number;
    /** How the supervisor starts the Codex app-server of Codex threads (given the scratch). */
    codex?: (scratch: Scratch) => NonNullable<SupervisorOptions['codex']>;
    fleet?: { store: string; hostName: string };
    routes?: ApprovalRoute[];
    routeClock?: RouteTimers;
    requireTwo?: string[];
  } = {},
): Promise<Warden> {
  // Supervisor.close() resolves once the CLI's stream has ended; the process may take a moment more to exit
  // after its stdin closes and the SIGTERM: the world waits for that (bounded), then fails on what is left.
  const world = await startTestWorld(t, {
    scriptFor: buildScript,
    exitGraceMs: CLI_EXIT_MS,
    failOnLeftover: true,
  });
  const { scratch, mock, dataDir } = world;
  const abort = new AbortController();
  const parts: { server?: WardenServer } = {};
  const supervisor = await Supervisor.open({
    dataDir,
    claudePath: world.claudePath,
    env: world.env,
    ...(idleParkMs === undefined ? {} : { idleParkMs }),
    ...(fleet === undefined ? {} : { store: fleet.store, host: { name: fleet.hostName } }),
    ...(routes === undefined ? {} : { routes }),
    ...(routeClock === undefined ? {} : { routeClock }),
    ...(requireTwo === undefined ? {} : { requireTwo }),
    ...(codex === undefined ? {} : { codex: codex(scratch) }),
  });
  world.defer(() => supervisor.close({ stopAgents: true }));
  world.defer(() => parts.server?.close());
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
  // Runs first at teardown: nothing waits on the supervisor's events any longer.
  world.defer(() => abort.abort());

  const warden: Warden = {
    mock,
    scratch,
    supervisor,
    dataDir,
    server: parts.server,
    beforeClose: (fn) => world.defer(fn),
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
