// Shared by the supervisor security tests: a Supervisor on a scratch dir driving the real CLI through the
// mock model, optionally through a wrapper that taps what the host writes to the CLI's stdin.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';

import type { WardenError } from '../../src/index.js';
import { Supervisor, type SupervisorOptions, type ThreadRecord } from '../../src/supervisor/index.js';
import {
  createScratch,
  offlineClaudeEnv,
  pinnedClaudePath,
  startMockModel,
  type MockScript,
  type Scratch,
} from '../../src/testing/index.js';
import { waitForNoProcess } from '../e2e/helpers/supervisor-session.js';

export interface SecuritySession {
  readonly sup: Supervisor;
  readonly scratch: Scratch;
  readonly thread: ThreadRecord;
  readonly warnings: WardenError[];
  readonly options: SupervisorOptions;
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * Writes `<dir>/claude-stdin-tap.sh`: runs the real CLI with every line the host writes to it appended to
 * `log` on the way. Returns the wrapper's path.
 */
export function writeStdinTap(dir: string, log: string): string {
  const path = join(dir, 'claude-stdin-tap.sh');
  writeFileSync(path, `#!/bin/sh\ntee -a ${shellQuote(log)} | ${shellQuote(pinnedClaudePath())} "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}

/** The JSON lines of a tap log (empty when nothing was written). */
export function tappedFrames(log: string): Record<string, unknown>[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

export async function openSecuritySession(
  t: TestContext,
  script: MockScript,
  setup: {
    claudePath?: (scratch: Scratch) => string;
    env?: (scratch: Scratch) => Record<string, string>;
  } = {},
): Promise<SecuritySession> {
  const scratch = createScratch('warden-sec-');
  const started: { sup?: Supervisor; close?: () => Promise<void> } = {};
  t.after(async () => {
    try {
      await started.sup?.close({ stopAgents: true });
      await started.close?.();
      await waitForNoProcess(scratch.home);
    } finally {
      scratch.cleanup();
    }
  });
  const mock = await startMockModel({ script });
  started.close = () => mock.close();
  const warnings: WardenError[] = [];
  const options: SupervisorOptions = {
    dataDir: join(scratch.dir, 'data'),
    claudePath: setup.claudePath?.(scratch) ?? pinnedClaudePath(),
    env: offlineClaudeEnv({
      mockUrl: mock.url,
      home: scratch.home,
      tmpdir: scratch.tmpdir,
      ...(setup.env === undefined ? {} : { extra: setup.env(scratch) }),
    }),
    onWarning: (warning) => warnings.push(warning),
  };
  const sup = await Supervisor.open(options);
  started.sup = sup;
  const thread = await sup.createThread({ cwd: scratch.cwd, mode: 'supervised' });
  return { sup, scratch, thread, warnings, options };
}
