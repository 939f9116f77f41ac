// A test world for Codex: the offline world (scratch, teardown that proves no process is left) with the
// mock Responses API running a script, and the environment that points the real Codex app-server at it
// (`codexEnv` alone, for a Supervisor's `codex.env`; `env`, the Claude CLI's offline environment with it,
// for a `warden` child). `openSupervisor` opens one on the world's data dir, closed (its agents stopped)
// before the world checks its processes.
import {
  offlineCodexEnv,
  startMockResponses,
  startTestWorld,
  type AfterHook,
  type MockResponses,
  type ResponsesScript,
  type TestWorld,
} from '../../../src/testing/index.js';
import { CODEX_TEST_MODEL } from '../../../src/agents/codex/index.js';
import { Supervisor } from '../../../src/supervisor/index.js';

export interface CodexWorld {
  readonly world: TestWorld;
  readonly mock: MockResponses;
  readonly codexEnv: Record<string, string>;
  readonly env: Record<string, string>;
  readonly openSupervisor: () => Promise<Supervisor>;
}

export async function startCodexWorld(
  t: AfterHook,
  script: ResponsesScript,
  prefix = 'warden-codex-',
): Promise<CodexWorld> {
  const world = await startTestWorld(t, { prefix });
  const mock = await startMockResponses({ script });
  world.defer(() => mock.close());
  const { scratch } = world;
  const codexEnv = offlineCodexEnv({
    codexHome: scratch.home,
    home: scratch.home,
    tmpdir: scratch.tmpdir,
    provider: { baseUrl: mock.url, model: CODEX_TEST_MODEL },
  });
  return {
    world,
    mock,
    codexEnv,
    env: { ...world.env, ...codexEnv },
    openSupervisor: async () => {
      const supervisor = await Supervisor.open({ dataDir: world.dataDir, codex: { env: codexEnv } });
      world.defer(() => supervisor.close({ stopAgents: true }));
      return supervisor;
    },
  };
}
