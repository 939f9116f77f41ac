// What bounds the life of a detached CLI once no host holds it: a watchdog, a few lines of POSIX sh started
// with the CLI, in the CLI's own process group (so every signal to the group takes it too) and holding
// none of its stdio. Every few seconds it looks, with shell builtins (one `sleep` per look, and `date`
// while a deadline is set), and:
//
// - the CLI is gone (or a zombie): it exits;
// - the CLI's spool is gone (its data directory was removed): no host can ever join the CLI again, so it
//   ends the group: SIGTERM, a grace, SIGKILL;
// - the host that let go of an idle CLI left a deadline in the spool directory (markIdleUntil) and it has
//   passed with no host taking the CLI back (claimFromWatchdog) and no output from the CLI for a whole
//   period: it renames the marker to `ended-idle`, so the next host knows why the CLI ended (the thread is
//   then parked, resumable), and ends the group.
//
// The CLI is started as `sh -c <script> … <command> <args…>`: the shell forks the watchdog and then execs
// the CLI, so the pid the host records, and its start time (set at fork), are the CLI's, and the watchdog
// knows that pid as the shell's `$$`. Windows has no sh, no process groups and no named pipes (detached
// CLIs need all three): no watchdog there.
import {
  accessSync,
  constants,
  existsSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

import { SpawnError } from '../protocol/errors.js';
import { spawnErrorFor, type StartChildOptions } from './child-process.js';
import { findLeftovers, signalProcess, waitUntilDead, type ProcessTree } from './process-tree.js';

/** Written by the host that lets go of an idle CLI: `<deadline> <period>`, both in whole seconds. */
export const IDLE_MARKER = 'idle-until';
/** What the watchdog renames the marker to when it ends the CLI for having been idle with no host. */
export const ENDED_IDLE = 'ended-idle';
/** The watchdog's stamp of the CLI's output it has seen since the marker came. */
const SEEN = '.seen';

export interface WatchdogTiming {
  /** How often it looks, in whole seconds; default 2. */
  readonly pollSeconds?: number;
  /** How long the CLI gets after SIGTERM before the group is sent SIGKILL, in whole seconds; default 3. */
  readonly termGraceSeconds?: number;
}

export const DEFAULT_WATCHDOG_POLL_SECONDS = 2;
export const DEFAULT_WATCHDOG_TERM_GRACE_SECONDS = 3;

const SHELL = '/bin/sh';

/** Whether detached CLIs get a watchdog on this platform. */
export const HAS_WATCHDOG = process.platform !== 'win32';

/** Set in the environment of what the watchdog runs (`sleep`, `date`…), to tell it from the CLI's own. */
const HELPER_VARIABLE = 'WARDEN_WATCHDOG';

// $1: the spool directory, $2: seconds between looks, $3: the SIGTERM grace; then the CLI's argv. The
// watchdog's PATH falls back to the usual places (options.env may have none); if `sleep` still cannot
// run, the watchdog gives up rather than spin. What it creates is its owner's only (umask 077), as
// everything in a data directory is. `.seen` is its stamp of the output it has seen since the marker
// came: made at its first look at a new marker (what the CLI wrote until then, such as the state frame
// that follows a turn's result by a few milliseconds, belongs to the host's time), touched again at every
// look that finds newer output. It never creates the marker itself (a host may have just removed it).
const SCRIPT = `d=$1 p=$2 g=$3
shift 3
(
  PATH=\${PATH:+$PATH:}/usr/bin:/bin
  ${HELPER_VARIABLE}=1
  export PATH ${HELPER_VARIABLE}
  umask 077
  cd / || exit 0
  cli=$$ last=0
  end() {
    trap '' TERM
    kill -TERM -"$cli"
    n=0
    while kill -0 "$cli" && [ "$n" -lt "$g" ]; do sleep 1; n=$((n + 1)); done
    kill -KILL -"$cli"
    exit 0
  }
  while sleep "$p"; do
    kill -0 "$cli" || exit 0
    s=
    read -r s < /proc/"$cli"/stat
    s=\${s##*") "}
    case $s in Z*|X*) exit 0 ;; esac
    [ -e "$d/output" ] || end
    [ -f "$d/${IDLE_MARKER}" ] || continue
    t= q=
    read -r t q < "$d/${IDLE_MARKER}"
    case $t in '' | *[!0-9]*) continue ;; esac
    case $q in '' | *[!0-9]*) continue ;; esac
    now=$(date +%s) || continue
    if [ ! -e "$d/${SEEN}" ]; then
      touch "$d/${SEEN}"
      last=0
    elif [ "$d/output" -nt "$d/${SEEN}" ]; then
      touch "$d/${SEEN}"
      last=$now
    fi
    [ "$now" -ge "$t" ] && [ "$now" -ge $((last + q)) ] || continue
    mv "$d/${IDLE_MARKER}" "$d/${ENDED_IDLE}" && end
  done
) </dev/null >/dev/null 2>&1 &
exec "$@"
`;

/**
 * The launch of `options` with a watchdog over it: `/bin/sh -c <script> warden-cli <dir> <poll> <grace>
 * <command> <args…>`. The command is resolved here as the spawn would (a path, or a name on options.env's
 * PATH) and checked executable, so a missing or unusable CLI is still a SpawnError before anything runs.
 */
export function withWatchdog(
  options: StartChildOptions,
  dir: string,
  timing: WatchdogTiming = {},
): StartChildOptions {
  const poll = wholeSeconds(timing.pollSeconds ?? DEFAULT_WATCHDOG_POLL_SECONDS, 'pollSeconds');
  const grace = wholeSeconds(
    timing.termGraceSeconds ?? DEFAULT_WATCHDOG_TERM_GRACE_SECONDS,
    'termGraceSeconds',
  );
  const command = resolveExecutable(options);
  return {
    ...options,
    command: SHELL,
    args: ['-c', SCRIPT, 'warden-cli', dir, String(poll), String(grace), command, ...options.args],
  };
}

function wholeSeconds(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1)
    throw new TypeError(`watchdog ${name} must be a whole number ≥ 1`);
  return value;
}

/** The absolute path the spawn would run; SpawnError (ENOENT, EACCES) when there is none it can. */
function resolveExecutable(options: StartChildOptions): string {
  const { command } = options;
  const base = options.cwd ?? process.cwd();
  if (command.includes('/')) {
    const file = isAbsolute(command) ? command : resolve(base, command);
    checkExecutable(command, file);
    return file;
  }
  const path = options.env['PATH'];
  // As launchChild says it for a CLI without a watchdog.
  if (!path)
    throw new SpawnError(
      command,
      'ENOENT',
      'options.env has no PATH, so a bare command name cannot be resolved: pass an absolute path or set PATH',
    );
  for (const entry of path.split(delimiter)) {
    const file = resolve(base, entry, command);
    if (isExecutableFile(file)) return file;
  }
  throw spawnErrorFor(command, 'ENOENT');
}

function checkExecutable(command: string, path: string): void {
  if (!existsSync(path)) throw spawnErrorFor(command, 'ENOENT');
  if (!isExecutableFile(path)) throw spawnErrorFor(command, 'EACCES');
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Ends the watchdog of a CLI that has exited, and what it runs, without a word: they are not leftovers of
 * the CLI, which the caller then looks for (killTree) and reports. The shell goes first, so that it starts
 * nothing more; a child it forked that has not exec'd yet still has the shell's command line.
 */
export async function endWatchdog(tree: ProcessTree): Promise<void> {
  if (!HAS_WATCHDOG) return;
  for (let round = 0; round < 2; round += 1) {
    const pids = (await findLeftovers(tree)).filter((pid) => pid !== tree.pgid && isWatchdogProcess(pid));
    for (const pid of pids) signalProcess(pid, 'SIGKILL');
    await waitUntilDead(pids, performance.now() + 1000);
  }
}

function isWatchdogProcess(pid: number): boolean {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    if (argv[0] === SHELL && argv[1] === '-c' && argv[2] === SCRIPT) return true;
    return `\0${readFileSync(`/proc/${pid}/environ`, 'latin1')}`.includes(`\0${HELPER_VARIABLE}=1\0`);
  } catch {
    return false; // Gone meanwhile.
  }
}

/**
 * The host lets go of an idle CLI: its watchdog ends it once `deadlineMs` (epoch milliseconds) has passed,
 * no host took it back and it wrote nothing for `periodMs` (from the watchdog's first look on). Written
 * whole (a temporary file renamed); the watchdog's stamp of an earlier marker goes first.
 */
export function markIdleUntil(dir: string, deadlineMs: number, periodMs: number): void {
  const temporary = join(dir, `.${IDLE_MARKER}.${process.pid}`);
  writeFileSync(temporary, `${Math.ceil(deadlineMs / 1000)} ${Math.ceil(periodMs / 1000)}\n`, {
    mode: 0o600,
  });
  rmSync(join(dir, SEEN), { force: true });
  renameSync(temporary, join(dir, IDLE_MARKER));
}

/**
 * A host takes the CLI back: the marker goes, so the watchdog leaves the CLI alone. `ending` when the
 * watchdog got there first (it has renamed the marker and is ending the CLI); `claimed` otherwise, also
 * when there was no marker (the CLI was busy when its host let go, or no host ever did).
 */
export function claimFromWatchdog(dir: string): 'claimed' | 'ending' {
  try {
    unlinkSync(join(dir, IDLE_MARKER));
    return 'claimed';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return existsSync(join(dir, ENDED_IDLE)) ? 'ending' : 'claimed';
  }
}

export interface Lifetime {
  /** When the watchdog ends the CLI if no host takes it back (epoch ms); null: no deadline. */
  readonly idleUntil: number | null;
  /** The idle period the deadline was set with, in ms (null without a deadline). */
  readonly periodMs: number | null;
  /** The watchdog ended (or is ending) the CLI for having been idle with no host. */
  readonly endedIdle: boolean;
}

/** What the spool directory says of the CLI's lifetime (for `warden agents` and open()). */
export function readLifetime(dir: string): Lifetime {
  const ended = readMarker(join(dir, ENDED_IDLE));
  if (ended !== undefined) return { ...ended, endedIdle: true };
  return { ...(readMarker(join(dir, IDLE_MARKER)) ?? NO_DEADLINE), endedIdle: false };
}

const NO_DEADLINE = { idleUntil: null, periodMs: null };

/** The marker's deadline and period; no deadline when it is not `<seconds> <seconds>` (the watchdog
 * ignores such a marker too); undefined when there is no marker. */
function readMarker(path: string): { idleUntil: number | null; periodMs: number | null } | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const match = /^(\d+) (\d+)\n?$/.exec(text);
  if (match === null) return NO_DEADLINE;
  return { idleUntil: Number(match[1]) * 1000, periodMs: Number(match[2]) * 1000 };
}
