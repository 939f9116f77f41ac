// Starting the CLI: pipes (never a pty: the CLI decides it is non-interactive because stdout is not a
// TTY), its own process group, an explicit environment, and spawn failures turned into SpawnError with a
// hint, promptly. Conditions that spawn reports obscurely (a missing cwd looks like a missing binary) are
// checked up front.

import { spawn, type ChildProcess, type ChildProcessByStdio, type StdioOptions } from 'node:child_process';
import { statSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { SpawnError } from '../protocol/errors.js';
import { SESSION_MARKER_VARIABLE, TEST_RUN_VARIABLE } from './process-tree.js';

export type PipedChild = ChildProcessByStdio<Writable, Readable, Readable>;

export interface StartChildOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string | undefined;
  /** Replaces process.env entirely; undefined values are left out. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Written to SESSION_MARKER_VARIABLE so that escaped descendants can be found later. */
  readonly marker: string;
}

export interface StartedChild {
  readonly child: PipedChild;
  /** Resolves on 'spawn'; rejects with SpawnError. */
  readonly spawned: Promise<void>;
}

/**
 * Spawns at once, so the caller can attach its listeners before any event fires. Throws SpawnError
 * synchronously for failures found before spawning.
 */
export function startChild(options: StartChildOptions): StartedChild {
  const { child, spawned } = launchChild(options, ['pipe', 'pipe', 'pipe']);
  return { child: child as PipedChild, spawned };
}

/**
 * The spawn behind startChild, with the child's stdio chosen by the caller (descriptors for a detached
 * CLI, see detached-child.ts). Same up-front checks, same SpawnError.
 */
export function launchChild(
  options: StartChildOptions,
  stdio: StdioOptions,
): { child: ChildProcess; spawned: Promise<void> } {
  const { command } = options;
  checkCwd(command, options.cwd);
  if (!command.includes('/') && !options.env['PATH']) {
    throw new SpawnError(
      command,
      'ENOENT',
      'options.env has no PATH, so a bare command name cannot be resolved: pass an absolute path or set PATH',
    );
  }

  let child: ChildProcess;
  try {
    child = spawn(command, [...options.args], {
      cwd: options.cwd,
      env: childEnv(options.env, options.marker),
      stdio,
      detached: true,
      windowsHide: true,
    });
  } catch (error) {
    throw toSpawnError(command, error);
  }

  const spawned = new Promise<void>((resolve, reject) => {
    const onSpawn = (): void => {
      child.off('error', onError);
      resolve();
    };
    const onError = (error: Error): void => {
      child.off('spawn', onSpawn);
      reject(toSpawnError(command, error));
    };
    child.once('spawn', onSpawn);
    child.once('error', onError);
  });
  return { child, spawned };
}

function childEnv(env: Readonly<Record<string, string | undefined>>, marker: string): NodeJS.ProcessEnv {
  const result: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined) result[key] = value;
  }
  result[SESSION_MARKER_VARIABLE] = marker;
  // Only ever set inside Warden's own test runs: their leak check must see every CLI a test starts.
  const testRun = process.env[TEST_RUN_VARIABLE];
  if (testRun !== undefined && result[TEST_RUN_VARIABLE] === undefined) result[TEST_RUN_VARIABLE] = testRun;
  return result;
}

function checkCwd(command: string, cwd: string | undefined): void {
  if (cwd === undefined) return;
  let isDirectory: boolean;
  try {
    isDirectory = statSync(cwd).isDirectory();
  } catch (error) {
    const errno = (error as NodeJS.ErrnoException).code;
    throw new SpawnError(command, errno, `the working directory ${cwd} cannot be used`, { cause: error });
  }
  if (!isDirectory)
    throw new SpawnError(command, 'ENOTDIR', `the working directory ${cwd} is not a directory`);
}

function toSpawnError(command: string, error: unknown): SpawnError {
  const errno = (error as NodeJS.ErrnoException | undefined)?.code;
  return new SpawnError(command, errno, hintFor(command, errno), { cause: error });
}

/** The SpawnError the spawn of `command` would give for `errno`, for a failure found before spawning. */
export function spawnErrorFor(command: string, errno: string): SpawnError {
  return new SpawnError(command, errno, hintFor(command, errno));
}

const HINTS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied: the file is not executable, or is a directory',
  EMFILE: 'too many open files in the host',
  ENFILE: 'too many open files in the system',
  EAGAIN: 'the system refused to create another process',
};

function hintFor(command: string, errno: string | undefined): string | undefined {
  if (errno === 'ENOENT') {
    return command.includes('/')
      ? 'no such file, or the interpreter named on its #! line does not exist'
      : 'not found on the PATH given in options.env';
  }
  return errno === undefined ? undefined : HINTS[errno];
}
