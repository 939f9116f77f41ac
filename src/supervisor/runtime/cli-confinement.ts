// What every CLI the supervisor starts runs under, besides the policy: a sandbox for its Bash commands,
// with the protected paths (src/policy/protected-paths.ts, the one list) unwritable by the operating
// system — Warden's own bubblewrap prefix on Linux (bubblewrap-prefix.ts), the CLI's own sandbox on
// macOS or where a settings file of the user turns that on — and git told not to run what a
// repository's own files name. docs/security.md says what this holds and what it does not.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

import { osProtectedPaths } from '../../policy/protected-paths.js';
import { writeBubblewrapPrefix } from './bubblewrap-prefix.js';
import { findOnPath } from './sandbox-probe.js';
import { inheritedEnv } from '../../session/option-env.js';
import type { SandboxSettings } from '../../session/option-types.js';
import type { SupervisorCore } from '../core.js';

/**
 * Git configuration for every CLI's environment, at the command-line level that no repository file can
 * override: no implicit bare repositories (one planted in a subdirectory would bring its own config), no
 * fsmonitor program (`git status`, which the CLI runs unasked, would start it), no hooks (a commit by the
 * agent runs none: the project's pre-commit checks too).
 */
export const GIT_HARDENING: readonly (readonly [string, string])[] = [
  ['safe.bareRepository', 'explicit'],
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
];

/** `env` with GIT_HARDENING appended after any GIT_CONFIG_COUNT entries it has (a copy). */
export function withGitHardening(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string | undefined> {
  const result = { ...env };
  const given = Number(env.GIT_CONFIG_COUNT ?? '0');
  // A count git would reject makes git fail at every call; ours then start from the first slot.
  let next = Number.isSafeInteger(given) && given >= 0 ? given : 0;
  for (const [key, value] of GIT_HARDENING) {
    result[`GIT_CONFIG_KEY_${next}`] = key;
    result[`GIT_CONFIG_VALUE_${next}`] = value;
    next++;
  }
  result.GIT_CONFIG_COUNT = String(next);
  return result;
}

function kindOf(path: string): 'dir' | 'file' | 'none' {
  try {
    return statSync(path).isDirectory() ? 'dir' : 'file';
  } catch {
    return 'none';
  }
}

/** The repository root git would find from `cwd` (the nearest directory up with a `.git`), if any. */
function repositoryRoot(cwd: string): string | undefined {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (kindOf(join(dir, '.git')) !== 'none') return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The protected paths under `root`, absolute; a `.git` file is held whole. With `placeholders` (the CLI's
 * own sandbox) an absent path is held with a placeholder, which has two costs that decide what is left
 * out when absent:
 * - in the home, placeholders are left behind as empty files in the person's own home (an empty
 *   `~/.bash_profile` would stop bash from reading `~/.profile`): there only what exists is held;
 * - files read at every command (git reads `.git/info/attributes`) would print an error each time.
 * Elsewhere an absent path is held too: the CLI removes those placeholders when the command ends.
 */
function protectedUnder(root: string, isHome: boolean, placeholders: boolean): string[] {
  const gitIsFile = kindOf(join(root, '.git')) === 'file';
  const paths = new Set<string>();
  for (const path of osProtectedPaths()) {
    if (gitIsFile && path.startsWith('.git/')) {
      paths.add(join(root, '.git'));
      continue;
    }
    const absolute = join(root, path);
    const absent = placeholders && kindOf(absolute) === 'none';
    if (absent && (isHome || READ_AT_EVERY_COMMAND.includes(path))) continue;
    paths.add(absolute);
  }
  return [...paths];
}

/** Read by git at every command: an absent one is left out (each command would print an error). */
const READ_AT_EVERY_COMMAND: readonly string[] = ['.git/info/attributes'];

/** The folders whose protected paths are held: the cwd, the repository root git finds from it, the home. */
function protectedRoots(cwd: string, home: string): string[] {
  const roots = new Set([resolve(cwd), resolve(home)]);
  const repository = repositoryRoot(resolve(cwd));
  if (repository !== undefined) roots.add(repository);
  return [...roots];
}

/**
 * Every path the sandbox keeps unwritable for a CLI in `cwd`. `placeholders`: for the CLI's own sandbox,
 * which mounts one over an absent path (what that leaves out is above); otherwise every path of the
 * table, existing or not (the bubblewrap prefix holds those that exist at each command).
 */
export function protectedTargets(cwd: string, home: string, dataDir: string, placeholders = true): string[] {
  const paths = protectedRoots(cwd, home).flatMap((root) =>
    protectedUnder(root, root === resolve(home), placeholders),
  );
  return [...new Set([...paths, resolve(dataDir)])];
}

/**
 * Absent protected paths the bubblewrap prefix, which holds only what exists, should hold from the first
 * command, made (empty) before the CLI starts in the cwd and the repository root:
 * - `.claude/`: the CLI reads its settings there while it runs, so a settings file a command creates
 *   (`permissions.allow`, `env`) would change what the CLI allows by itself; an empty folder changes
 *   nothing, and the CLI itself (outside the sandbox) still writes there;
 * - in a `.git` folder, what git makes of an empty one what it makes of none: `hooks/`, `modules/`,
 *   `info/attributes`, `config.worktree`.
 */
const HELD_FROM_THE_START: readonly { path: string; kind: 'dir' | 'file'; inGit: boolean }[] = [
  { path: '.claude', kind: 'dir', inGit: false },
  { path: 'hooks', kind: 'dir', inGit: true },
  { path: 'modules', kind: 'dir', inGit: true },
  { path: 'info/attributes', kind: 'file', inGit: true },
  { path: 'config.worktree', kind: 'file', inGit: true },
];

export function prepareHeldPaths(roots: readonly string[]): void {
  for (const root of roots) {
    const git = join(root, '.git');
    const gitIsDir = kindOf(git) === 'dir';
    for (const { path, kind, inGit } of HELD_FROM_THE_START) {
      if (inGit && !gitIsDir) continue;
      const target = join(inGit ? git : root, path);
      if (kindOf(target) !== 'none') continue;
      try {
        if (kind === 'dir') mkdirSync(target, { recursive: true });
        else {
          mkdirSync(dirname(target), { recursive: true });
          writeFileSync(target, '', { flag: 'wx' });
        }
      } catch {
        // Not ours to make (read-only, raced): the policy still asks for the writes it sees there.
      }
    }
  }
}

/** The shell the CLI runs its commands with, as the CLI picks it: CLAUDE_CODE_SHELL, a bash or zsh SHELL, bash. */
function commandShell(env: Readonly<Record<string, string | undefined>>): string {
  const chosen = env.CLAUDE_CODE_SHELL ?? env.SHELL;
  if (chosen !== undefined && /\/(?:ba|z)sh$/u.test(chosen)) return chosen;
  return findOnPath('bash', env.PATH) ?? '/bin/sh';
}

/** Whether a settings file the CLI reads turns its sandbox on: then its limits are the user's to set. */
export function userConfiguresSandbox(cwd: string, home: string): boolean {
  const files = [
    join(home, '.claude', 'settings.json'),
    join(cwd, '.claude', 'settings.json'),
    join(cwd, '.claude', 'settings.local.json'),
    '/etc/claude-code/managed-settings.json',
    '/Library/Application Support/ClaudeCode/managed-settings.json',
  ];
  return files.some((file) => {
    try {
      const settings = JSON.parse(readFileSync(file, 'utf8')) as { sandbox?: { enabled?: unknown } };
      return settings.sandbox?.enabled === true;
    } catch {
      return false;
    }
  });
}

export interface SandboxFor {
  readonly cwd: string;
  readonly dataDir: string;
  /** The CLI's HOME. */
  readonly home?: string | undefined;
  /** `required`: the CLI refuses to start without it (`failIfUnavailable`). */
  readonly required: boolean;
}

/**
 * The `sandbox` settings block for one CLI. Bash commands still need the policy's approval
 * (`autoAllowBashIfSandboxed` false, whatever a project file says) and can never ask to leave the sandbox
 * (`allowUnsandboxedCommands` false). Unless a settings file of the user turns the sandbox on (its limits
 * then stand, merged with these), commands may write and connect where they could without a sandbox:
 * what it adds is the protected paths, not a confinement to the cwd.
 */
export function sandboxSettingsFor(options: SandboxFor): SandboxSettings {
  const home = options.home ?? homedir();
  const cwd = resolve(options.cwd);
  const widen = !userConfiguresSandbox(cwd, home);
  return {
    enabled: true,
    failIfUnavailable: options.required,
    autoAllowBashIfSandboxed: false,
    allowUnsandboxedCommands: false,
    filesystem: {
      ...(widen ? { allowWrite: ['/'] } : {}),
      denyWrite: protectedTargets(cwd, home, options.dataDir),
    },
    ...(widen ? { network: { allowedDomains: ['*'] } } : {}),
  };
}

/** The `env` and `sandbox` options of a thread's CLI in `cwd`. */
export function confinementOf(
  core: SupervisorCore,
  cwd: string,
): { env: Record<string, string | undefined>; sandbox?: SandboxSettings } {
  const { env: given, sandbox, dataDir } = core.options;
  const env = withGitHardening(given ?? inheritedEnv());
  const support = sandbox.support;
  if (!sandbox.requested || support?.available !== true) return { env };
  const home = env.HOME ?? homedir();
  if (
    support.mechanism === 'bubblewrap' &&
    support.bwrap !== undefined &&
    !userConfiguresSandbox(cwd, home)
  ) {
    const roots = protectedRoots(cwd, home);
    prepareHeldPaths(roots.filter((root) => root !== resolve(home)));
    env.CLAUDE_CODE_SHELL_PREFIX = writeBubblewrapPrefix(dataDir, {
      bwrap: support.bwrap,
      shell: commandShell(env),
      held: protectedTargets(cwd, home, dataDir, false),
      innerPrefix: env.CLAUDE_CODE_SHELL_PREFIX,
    });
    return { env };
  }
  return {
    env,
    sandbox: sandboxSettingsFor({ cwd, dataDir, home, required: sandbox.mode === 'required' }),
  };
}
