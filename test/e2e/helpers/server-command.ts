// Running the `warden` command as a user would (`node --import tsx src/cli/main.ts …`), offline: the mock
// model runs in the test, the command gets the offline environment and the pinned CLI through
// CLAUDE_CODE_EXECUTABLE. Output is collected; tests await patterns in it, never a timer.
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import {
  startTestWorld,
  type MockModel,
  type MockScript,
  type Scratch,
  type TestWorld,
} from '../../../src/testing/index.js';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const MAIN = join(REPO_ROOT, 'src', 'cli', 'main.ts');

export interface CommandSession {
  readonly scratch: Scratch;
  readonly mock: MockModel | undefined;
  readonly dataDir: string;
  /** The offline environment for the command (and the CLI it starts). */
  readonly env: Record<string, string>;
  /** The world behind it, to track the processes a test starts. */
  readonly world: TestWorld;
}

export async function startCommandSession(t: TestContext, script?: MockScript): Promise<CommandSession> {
  const world = await startTestWorld(t, {
    prefix: 'warden-cmd-',
    ...(script === undefined ? {} : { script }),
  });
  const env = { ...world.env, CLAUDE_CODE_EXECUTABLE: world.claudePath };
  return { scratch: world.scratch, mock: world.mock, dataDir: world.dataDir, env, world };
}

export interface WardenProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Resolves when the stream's text matches; rejects if the process exits first. */
  waitFor(stream: 'stdout' | 'stderr', pattern: RegExp): Promise<void>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Spawns `warden <args>`; `command` replaces the argv (e.g. to run it under `script` for a TTY). */
export function spawnWarden(
  args: readonly string[],
  env: Record<string, string>,
  options: { command?: { file: string; args: string[] }; closeStdin?: boolean } = {},
): WardenProcess {
  const file = options.command?.file ?? process.execPath;
  const argv = options.command?.args ?? ['--import', 'tsx', MAIN, ...args];
  const child = spawn(file, argv, { cwd: REPO_ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  if (options.closeStdin === true) child.stdin.end();
  const text = { stdout: '', stderr: '' };
  const waiters: {
    stream: 'stdout' | 'stderr';
    pattern: RegExp;
    resolve: () => void;
    reject: (e: Error) => void;
  }[] = [];
  const check = (): void => {
    for (const waiter of [...waiters])
      if (waiter.pattern.test(text[waiter.stream])) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
  };
  child.stdout.on('data', (chunk: Buffer) => {
    text.stdout += chunk.toString('utf8');
    check();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    text.stderr += chunk.toString('utf8');
    check();
  });
  child.stdin.on('error', () => undefined);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  void exited.then(() => {
    for (const waiter of waiters.splice(0))
      waiter.reject(
        new Error(
          `warden exited before ${waiter.stream} matched ${waiter.pattern}\nstdout:\n${text.stdout}\nstderr:\n${text.stderr}`,
        ),
      );
  });
  return {
    child,
    stdout: () => text.stdout,
    stderr: () => text.stderr,
    waitFor(stream, pattern) {
      if (pattern.test(text[stream])) return Promise.resolve();
      return new Promise((resolve, reject) => waiters.push({ stream, pattern, resolve, reject }));
    },
    exited,
  };
}

/**
 * Runs `warden …` to its end, with `env` (default: this process's); resolves with the exit code and the
 * output whatever the code.
 */
export async function runWarden(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', ...args],
      { cwd: REPO_ROOT, env, timeout: 60_000 },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** Drops terminal control sequences (colours, the spinner's line clearing) and carriage returns. */
export function plain(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');
}
