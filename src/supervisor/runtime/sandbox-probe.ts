// Whether the CLIs' Bash commands can be confined on this machine, and by what, found out once per PATH:
// on Linux, Warden's own bubblewrap prefix (bubblewrap-prefix.ts), which needs `bwrap` on the CLI's PATH
// and user namespaces it may use (tried with a command that does nothing); on macOS the CLI's own sandbox
// (sandbox-exec); elsewhere nothing. The CLI's own sandbox does not fail where it cannot run: it warns
// on stderr and runs every command unconfined (docs/security.md), so the host checks for itself.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** What confines the commands: Warden's bubblewrap prefix, or the CLI's own sandbox. */
export type SandboxMechanism = 'bubblewrap' | 'cli';

export interface SandboxSupport {
  readonly available: boolean;
  /** What is missing, when it is not available. */
  readonly reason: string | null;
  readonly mechanism: SandboxMechanism | null;
  /** The absolute path of bubblewrap, for the `bubblewrap` mechanism. */
  readonly bwrap?: string;
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
  const bwrap = findOnPath('bwrap', path);
  if (bwrap === undefined)
    return {
      available: false,
      reason: "bwrap not found on the CLI's PATH (install the bubblewrap package)",
      mechanism: null,
    };
  const tried = spawnSync(bwrap, ['--dev-bind', '/', '/', '--ro-bind', '/', '/', 'true'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: PROBE_TIMEOUT_MS,
    encoding: 'utf8',
  });
  if (tried.status === 0) return { available: true, reason: null, mechanism: 'bubblewrap', bwrap };
  const said = (tried.stderr ?? '').trim().split('\n')[0] ?? '';
  const why = tried.error?.message ?? (said || `exit ${tried.status ?? tried.signal ?? 'unknown'}`);
  return { available: false, reason: `bubblewrap cannot create a sandbox here (${why})`, mechanism: null };
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
          ? { available: true, reason: null, mechanism: 'cli' as const }
          : { available: false, reason: `${MACOS_SANDBOX} is missing`, mechanism: null }
        : { available: false, reason: `no sandbox on ${platform}`, mechanism: null };
  cache.set(key, support);
  return support;
}
