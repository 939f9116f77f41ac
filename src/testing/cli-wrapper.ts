// Stand-ins for CLIs a host meets in the wild, built from the real one.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pinnedClaudePath } from '../session/resolve-cli.js';

/**
 * Writes `<dir>/claude-without-state-events.sh`, which runs the CLI with CLAUDE_CODE_SDK_READS_SESSION_STATE
 * removed from its environment: it then sends no session_state_changed frames, as older CLIs and custom
 * spawners do. Returns the wrapper's path, for `pathToClaudeCodeExecutable`.
 */
export function writeCliWithoutStateEvents(dir: string, claudePath: string = pinnedClaudePath()): string {
  const path = join(dir, 'claude-without-state-events.sh');
  const quoted = `'${claudePath.replaceAll("'", `'\\''`)}'`;
  writeFileSync(path, `#!/bin/sh\nexec env -u CLAUDE_CODE_SDK_READS_SESSION_STATE ${quoted} "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}
