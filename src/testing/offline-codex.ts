// The environment and CODEX_HOME that run the real Codex CLI offline against the Responses API mock. The
// record is complete on its own (it replaces process.env): no OpenAI credentials or config of the host
// leak in. The config turns off what would reach out by itself (plugin sync, update checks, analytics).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { codexProviderToml, type CodexProvider } from '../agents/codex/provider-config.js';
import { TEST_RUN_VARIABLE } from '../transport/process-tree.js';

/** A dummy key: Codex sends it as a bearer token and the mock ignores it. */
export const OFFLINE_OPENAI_KEY = 'sk-offline-test';

const OFFLINE_CONFIG = `# Written by warden/testing: nothing here reaches the network by itself.
[features]
plugins = false
remote_plugin = false
in_app_updates = false

[analytics]
enabled = false

# Codex's sandbox makes /tmp writable and its .git, .agents and .codex read-only; bubblewrap creates those
# as empty directories in the real /tmp, and a /tmp/.git makes /tmp the git root of every scratch project
# under it (the Claude CLI then writes project settings to /tmp/.claude). TMPDIR, private, stays writable.
[sandbox_workspace_write]
exclude_slash_tmp = true
`;

export interface OfflineCodexOptions {
  /** A private, existing directory for Codex's config, threads and logs; its config.toml is written. */
  readonly codexHome: string;
  /** A private HOME. Strongly recommended. */
  readonly home?: string;
  /**
   * A private TMPDIR, not above codexHome. Required in effect: Codex will not put its sandbox helper into
   * a CODEX_HOME below the temporary directory, and without the helper every sandboxed command fails
   * (`bwrap: execvp codex-linux-sandbox: No such file or directory`).
   */
  readonly tmpdir?: string;
  /**
   * The model provider written into config.toml (the mock's URL and a model), for an app-server started
   * without `-c` overrides, as the Supervisor starts a Codex thread's.
   */
  readonly provider?: CodexProvider;
  /** Added last; a value of `undefined` removes a variable. */
  readonly extra?: Readonly<Record<string, string | undefined>>;
}

export function offlineCodexEnv(options: OfflineCodexOptions): Record<string, string> {
  const { codexHome, home, tmpdir, extra, provider } = options;
  if (typeof codexHome !== 'string' || codexHome === '')
    throw new TypeError('offlineCodexEnv: codexHome must be a non-empty string');
  const top = provider === undefined ? '' : codexProviderToml(provider);
  writeFileSync(join(codexHome, 'config.toml'), top + OFFLINE_CONFIG);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    CODEX_HOME: codexHome,
    OPENAI_API_KEY: OFFLINE_OPENAI_KEY,
    // Warnings only: the app-server logs every plugin and MCP step at info.
    RUST_LOG: 'warn',
  };
  if (home !== undefined) env.HOME = home;
  if (tmpdir !== undefined) env.TMPDIR = tmpdir;
  const testRun = process.env[TEST_RUN_VARIABLE];
  if (testRun !== undefined) env[TEST_RUN_VARIABLE] = testRun;
  for (const [name, value] of Object.entries(extra ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}
