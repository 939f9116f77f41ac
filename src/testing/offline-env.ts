// The environment that runs the real Claude Code CLI offline against the mock, and private scratch
// directories for it. The record is complete on its own: pass it as the child's whole environment (as
// `options.env` replaces process.env), so nothing from the host leaks in (credentials, NODE_OPTIONS, a
// real ANTHROPIC_BASE_URL).
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir as osTmpdir } from 'node:os';
import { join } from 'node:path';

import { TEST_RUN_VARIABLE } from '../transport/process-tree.js';

export interface OfflineEnvOptions {
  /** The mock's base URL, e.g. `mock.url`. */
  readonly mockUrl: string;
  /** A private HOME (the CLI keeps ~/.claude.json and session transcripts there). Strongly recommended. */
  readonly home?: string;
  /** A private temporary directory (task output files go there). Strongly recommended. */
  readonly tmpdir?: string;
  /** Added last; a value of `undefined` removes a variable. */
  readonly extra?: Readonly<Record<string, string | undefined>>;
}

/** A dummy key: the CLI sends it as `x-api-key` and the mock ignores it. */
export const OFFLINE_API_KEY = 'sk-ant-offline-test';

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

export function offlineClaudeEnv(options: OfflineEnvOptions): Record<string, string> {
  if (typeof options !== 'object' || options === null)
    throw new TypeError('offlineClaudeEnv: options are required');
  const { mockUrl, home, tmpdir, extra } = options;
  if (typeof mockUrl !== 'string' || !/^https?:\/\//.test(mockUrl)) {
    throw new TypeError(`offlineClaudeEnv: mockUrl must be an http(s) URL, got ${String(mockUrl)}`);
  }
  for (const [name, value] of [
    ['home', home],
    ['tmpdir', tmpdir],
  ] as const) {
    if (value !== undefined && (typeof value !== 'string' || value === '')) {
      throw new TypeError(`offlineClaudeEnv: ${name} must be a non-empty string`);
    }
  }
  const env: Record<string, string> = {
    // Bash and the CLI's own helpers need a PATH; nothing else is taken from the host.
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    ANTHROPIC_BASE_URL: mockUrl,
    ANTHROPIC_API_KEY: OFFLINE_API_KEY,
    // Without it the CLI also calls /api/hello, asks the mock for a session title and reaches out to
    // api.anthropic.com (MCP registry, telemetry): extra requests that change what a test sees.
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
  if (home !== undefined) env.HOME = home;
  if (tmpdir !== undefined) {
    // Otherwise task output files land in the shared /tmp/claude-<uid>/.
    env.CLAUDE_CODE_TMPDIR = tmpdir;
    env.TMPDIR = tmpdir;
  }
  // As root (containers, CI) the CLI refuses bypassPermissions mode unless it is told it runs in a sandbox.
  if (isRoot()) env.IS_SANDBOX = '1';
  // Inside Warden's own test runner: the run's id, so that its leak check finds what this CLI leaves.
  const testRun = process.env[TEST_RUN_VARIABLE];
  if (testRun !== undefined) env[TEST_RUN_VARIABLE] = testRun;
  for (const [name, value] of Object.entries(extra ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

export interface Scratch {
  /** The scratch root; everything below is removed by cleanup(). */
  readonly dir: string;
  readonly home: string;
  /** Mode 0700, as the CLI expects of CLAUDE_CODE_TMPDIR. */
  readonly tmpdir: string;
  /** A working directory for the CLI. */
  readonly cwd: string;
  /** Removes the whole tree. Idempotent; safe to call from t.after and finally. */
  cleanup(): void;
}

/** Creates `<os tmpdir>/warden-<random>/{home,tmp,work}`. The paths are real paths (no symlinks). */
export function createScratch(prefix = 'warden-'): Scratch {
  if (typeof prefix !== 'string' || prefix.includes('/'))
    throw new TypeError('createScratch: prefix must not contain "/"');
  const dir = realpathSync(mkdtempSync(join(osTmpdir(), prefix)));
  const home = join(dir, 'home');
  const tmpdir = join(dir, 'tmp');
  const cwd = join(dir, 'work');
  mkdirSync(home);
  mkdirSync(tmpdir, { mode: 0o700 });
  mkdirSync(cwd);
  let removed = false;
  return {
    dir,
    home,
    tmpdir,
    cwd,
    cleanup() {
      if (removed) return;
      // A CLI that is still shutting down may add files while we delete: retry instead of failing. Codex's
      // helpers have been seen writing to HOME for over 300 ms after the app-server ended (ENOTEMPTY).
      rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
      removed = true;
    },
  };
}
