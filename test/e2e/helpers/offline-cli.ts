// One offline CLI session for a test: the test world (scratch HOME/TMPDIR/cwd, a mock model running the
// given script) and the pinned real CLI pointed at it. The world's teardown stops the CLI first, then the
// mock, then checks that no process is left and removes the files.
import type { TestContext } from 'node:test';

import { startTestWorld } from '../../../src/testing/index.js';
import type { MockModel, MockScript, Scratch } from '../../../src/testing/index.js';
import { spawnCli } from './cli-process.js';
import type { CliProcess } from './cli-process.js';

export interface OfflineCli {
  readonly cli: CliProcess;
  readonly mock: MockModel;
  readonly scratch: Scratch;
}

export interface OfflineCliOptions {
  readonly script: MockScript;
  /** Extra CLI flags after the stream-json ones. */
  readonly args?: readonly string[];
  /** Extra environment variables. */
  readonly env?: Readonly<Record<string, string>>;
}

export async function startOfflineCli(t: TestContext, options: OfflineCliOptions): Promise<OfflineCli> {
  const world = await startTestWorld(t, {
    script: options.script,
    env: { CLAUDE_CODE_SDK_READS_SESSION_STATE: '1', ...options.env },
  });
  const { scratch, env, claudePath } = world;
  const cli = spawnCli({ executable: claudePath, cwd: scratch.cwd, env, args: options.args ?? [] });
  world.track(cli.pid);
  world.defer(() => cli.stop());
  return { cli, mock: world.mock, scratch };
}
