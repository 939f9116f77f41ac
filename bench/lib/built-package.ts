// The benchmarks compare Warden as a client installs it — the package built by `tsc` (dist/) — with the
// official SDK's published bundle. Loading Warden's sources through tsx instead would add what only a
// development run has: esbuild's `__name` helper on every closure and source maps on every stack, about a
// tenth of a permission round trip's host CPU. So the benchmarks build dist/ first whenever a source file is
// newer than it, and a child process of a benchmark refuses to run on a stale build.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SOURCES = join(ROOT, 'src');
/** The build's entry point: written by every build, so its time is the build's. */
export const BUILT_ENTRY = join(ROOT, 'dist', 'index.js');

function newestSourceMs(): number {
  let newest = 0;
  for (const entry of readdirSync(SOURCES, { recursive: true })) {
    const name = String(entry);
    if (name.endsWith('.ts')) newest = Math.max(newest, statSync(join(SOURCES, name)).mtimeMs);
  }
  return newest;
}

/** Whether dist/ is missing or older than one of the sources it is built from. */
export function buildIsStale(): boolean {
  return !existsSync(BUILT_ENTRY) || statSync(BUILT_ENTRY).mtimeMs < newestSourceMs();
}

/** Builds dist/ when it is stale (`npm run build`); throws if the build fails. */
export function ensureBuilt(log: (line: string) => void): void {
  if (!buildIsStale()) return;
  log('building dist/ (the benchmarks measure the built package)');
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`npm run build failed (exit ${build.status ?? build.signal})`);
}
