// What `warden demo` and `warden run --demo` run in: fresh temporary directories (a HOME, a TMPDIR, a
// project folder and a data directory), the testkit's mock model playing the demo scenario, and the
// offline environment that points the real Claude Code CLI at it. Nothing here reaches the network or
// the user's own data directory; close() removes all of it once the CLI processes are gone.
import { join } from 'node:path';

import {
  createScratch,
  offlineClaudeEnv,
  pinnedClaudePath,
  resolveClaudeExecutable,
  startMockModel,
  type MockModel,
  type Scratch,
} from '../testing/index.js';
import { demoScenario } from './demo-scenario.js';
import { wardenProgram } from './program-name.js';
import { removeScratch } from './scratch-cleanup.js';

export interface DemoEnvironment {
  readonly scratch: Scratch;
  readonly dataDir: string;
  readonly cwd: string;
  readonly claudePath: string;
  readonly env: Record<string, string>;
  /**
   * Call once a person can see the demo prompt's run has ended (it ended, and someone is looking): the
   * subagent asks a few seconds later.
   */
  subagentMayAsk(): void;
  close(): Promise<void>;
}

export async function openDemoEnvironment(claude: string | undefined): Promise<DemoEnvironment> {
  const scratch = createScratch('warden-demo-');
  let mock: MockModel | undefined;
  try {
    let subagentMayAsk!: () => void;
    const released = new Promise<void>((resolve) => (subagentMayAsk = resolve));
    mock = await startMockModel({
      script: demoScenario({ rootRunEnded: released, cwd: scratch.cwd, program: wardenProgram() }),
    });
    const opened = mock;
    return {
      scratch,
      dataDir: join(scratch.dir, 'data'),
      cwd: scratch.cwd,
      claudePath: claude ?? demoClaudePath(),
      env: offlineClaudeEnv({ mockUrl: mock.url, home: scratch.home, tmpdir: scratch.tmpdir }),
      subagentMayAsk,
      async close() {
        await opened.close();
        await removeScratch(scratch);
      },
    };
  } catch (error) {
    await mock?.close();
    await removeScratch(scratch);
    throw error;
  }
}

/** The CLI version the demo was written against when it is installed; otherwise whatever claude is found. */
function demoClaudePath(): string {
  try {
    return pinnedClaudePath();
  } catch {
    return resolveClaudeExecutable();
  }
}
