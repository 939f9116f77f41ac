// One offline CLI session for a test: a scratch HOME/TMPDIR/cwd, a mock model running the given script, and
// the pinned real CLI pointed at it. Everything is torn down in one t.after hook, CLI first.
import type { TestContext } from 'node:test';

import {
  createScratch,
  offlineClaudeEnv,
  pinnedClaudePath,
  startMockModel,
} from '../../../src/testing/index.js';
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
  const scratch = createScratch();
  const started: { mock?: MockModel; cli?: CliProcess } = {};
  // One hook, so the order is fixed: the CLI goes first, then the mock, then the files.
  t.after(async () => {
    try {
      await started.cli?.stop();
    } finally {
      try {
        await started.mock?.close();
      } finally {
        scratch.cleanup();
      }
    }
  });
  const mock = await startMockModel({ script: options.script });
  started.mock = mock;
  const env = offlineClaudeEnv({
    mockUrl: mock.url,
    home: scratch.home,
    tmpdir: scratch.tmpdir,
    extra: { CLAUDE_CODE_SDK_READS_SESSION_STATE: '1', ...options.env },
  });
  const cli = spawnCli({ executable: pinnedClaudePath(), cwd: scratch.cwd, env, args: options.args ?? [] });
  started.cli = cli;
  return { cli, mock, scratch };
}
