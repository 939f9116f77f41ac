// The runner's check of the shared temporary directory (scripts/test.mjs): a `.git`, `.claude`, `.agents`
// or `.codex` that a test run leaves directly in it changes every later test. A /tmp/.git makes /tmp the
// git root of each scratch project under it, so the Claude CLI writes project settings to /tmp/.claude
// and reads them back in other tests (Codex's sandbox once made these as bubblewrap mount points).
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PROJECT_MARKERS = ['.git', '.claude', '.agents', '.codex'];

/** Which of the project markers are in the temporary directory now (their paths). */
export function projectMarkersInTmp(): string[] {
  return PROJECT_MARKERS.map((name) => join(tmpdir(), name)).filter((path) => existsSync(path));
}
