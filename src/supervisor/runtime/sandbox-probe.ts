// Whether the CLI's own sandbox can confine its Bash commands on this machine. The CLI does not fail when
// it cannot: it warns on stderr and runs every command unconfined (docs/security.md), so the host finds
// out for itself, once per PATH: on Linux the CLI needs bubblewrap and socat on its PATH and user
// namespaces that bubblewrap may use (tried with a command that does nothing); on macOS it uses
// sandbox-exec; elsewhere there is none.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface SandboxSupport {
  readonly available: boolean;
  /** What is missing, when it is not available. */
  readonly reason: string | null;
}

const PROBE_TIMEOUT_MS = 10_000;
const MACOS_SANDBOX = '/usr/bin/sandbox-exec';
const cache = new Map<string, SandboxSupport>();

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first `name` on `path` (a PATH value) that can be run. */
export function findOnPath(name: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    if (executable(candidate)) return candidate;
  }
  return undefined;
}

function probeLinux(path: string | undefined): SandboxSupport {
  const missing = ['bwrap', 'socat'].filter((name) => findOnPath(name, path) === undefined);
  if (missing.length > 0)
    return {
      available: false,
      reason: `${missing.join(' and ')} not found on the CLI's PATH (install the bubblewrap and socat packages)`,
    };
  const bwrap = findOnPath('bwrap', path) ?? 'bwrap';
  const tried = spawnSync(bwrap, ['--ro-bind', '/', '/', 'true'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: PROBE_TIMEOUT_MS,
    encoding: 'utf8',
  });
  if (tried.status === 0) return { available: true, reason: null };
  const said = (tried.stderr ?? '').trim().split('\n')[0] ?? '';
  const why = tried.error?.message ?? (said || `exit ${tried.status ?? tried.signal ?? 'unknown'}`);
  return { available: false, reason: `bubblewrap cannot create a sandbox here (${why})` };
}

/** Whether the sandbox can run for a CLI with this environment; cached per PATH and platform. */
export function probeSandbox(
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform = process.platform,
): SandboxSupport {
  const key = `${platform}\0${env.PATH ?? ''}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  const support =
    platform === 'linux'
      ? probeLinux(env.PATH)
      : platform === 'darwin'
        ? executable(MACOS_SANDBOX)
          ? { available: true, reason: null }
          : { available: false, reason: `${MACOS_SANDBOX} is missing` }
        : { available: false, reason: `the CLI has no sandbox on ${platform}` };
  cache.set(key, support);
  return support;
}
