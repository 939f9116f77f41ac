// Spawns the real Claude Code CLI in stream-json mode with node:child_process, the way an SDK does
// (wire.md §1, §8): piped stdio, its own process group, the control protocol written by hand.
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';

import { readJsonLines } from './json-lines.js';
import type { Frame } from './json-lines.js';

export const STREAM_JSON_ARGS = [
  '--output-format',
  'stream-json',
  '--verbose',
  '--input-format',
  'stream-json',
];

/** Generous bound that only catches hangs; a healthy wait takes milliseconds to a few seconds. */
const WAIT_MS = 60_000;
const STOP_GRACE_MS = 5_000;

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface CliProcess {
  readonly pid: number;
  readonly child: ChildProcessWithoutNullStreams;
  /** Every stdout line so far, parsed, in order. */
  readonly frames: readonly Frame[];
  /** performance.now() at which each frame was parsed, index-aligned with `frames`. */
  readonly arrivals: readonly number[];
  /** Every line written to stdin so far, in order. */
  readonly written: readonly Frame[];
  readonly exited: Promise<Exit>;
  stderr(): string;
  send(frame: Frame): Promise<void>;
  /** Writes the initialize control request (as the SDK does with no options) and returns its request id. */
  initialize(extra?: Frame): Promise<string>;
  sendUserText(text: string): Promise<void>;
  /** The first frame at index >= from that matches; rejects if stdout ends first or after a long timeout. */
  waitFor(predicate: (frame: Frame) => boolean, from?: number): Promise<Frame>;
  endInput(): void;
  /** Ends stdin, waits for the exit, then SIGKILLs the process group if it is still there. Idempotent. */
  stop(): Promise<Exit>;
}

export interface SpawnCliOptions {
  readonly executable: string;
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly args?: readonly string[];
}

let requestCounter = 0;

export function spawnCli(options: SpawnCliOptions): CliProcess {
  const child = spawn(options.executable, [...STREAM_JSON_ARGS, ...(options.args ?? [])], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  const frames: Frame[] = [];
  const arrivals: number[] = [];
  const written: Frame[] = [];
  const listeners = new Set<() => void>();
  let stdoutEnded = false;
  let stderr = '';
  const wake = (): void => listeners.forEach((listener) => listener());

  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    stderr = (stderr + text).slice(-16_384);
  });
  child.stdin.on('error', () => {
    // EPIPE after the CLI exits: the exit promise reports what happened.
  });
  readJsonLines(
    child.stdout,
    (frame) => {
      frames.push(frame);
      arrivals.push(performance.now());
      wake();
    },
    () => {
      stdoutEnded = true;
      wake();
    },
  );
  const exited: Promise<Exit> = new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  if (child.pid === undefined) throw new Error(`could not spawn ${options.executable}`);
  const pid = child.pid;

  const send = (frame: Frame): Promise<void> =>
    new Promise((resolve, reject) => {
      written.push(frame);
      child.stdin.write(`${JSON.stringify(frame)}\n`, (error) => (error ? reject(error) : resolve()));
    });

  const waitFor = (predicate: (frame: Frame) => boolean, from = 0): Promise<Frame> =>
    new Promise((resolve, reject) => {
      let cursor = from;
      const check = (): void => {
        for (; cursor < frames.length; cursor += 1) {
          const frame = frames[cursor]!;
          if (predicate(frame)) return done(() => resolve(frame));
        }
        if (stdoutEnded)
          done(() => reject(new Error(`stdout ended before the awaited frame; stderr: ${stderr}`)));
      };
      const timer = setTimeout(
        () => done(() => reject(new Error(`no matching frame after ${WAIT_MS} ms; stderr: ${stderr}`))),
        WAIT_MS,
      );
      const done = (settle: () => void): void => {
        clearTimeout(timer);
        listeners.delete(check);
        settle();
      };
      listeners.add(check);
      check();
    });

  let stopping: Promise<Exit> | undefined;
  const stop = (): Promise<Exit> => {
    stopping ??= (async () => {
      child.stdin.end();
      const timer = setTimeout(() => killGroup(pid), STOP_GRACE_MS);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
        // Whatever the CLI left in its group (tool shells) goes too.
        killGroup(pid);
      }
    })();
    return stopping;
  };

  return {
    pid,
    child,
    frames,
    arrivals,
    written,
    exited,
    stderr: () => stderr,
    send,
    async initialize(extra = {}) {
      const requestId = `init_${++requestCounter}`;
      await send({
        request_id: requestId,
        type: 'control_request',
        request: { subtype: 'initialize', systemPrompt: [''], ...extra },
      });
      return requestId;
    },
    sendUserText: (text) =>
      send({
        type: 'user',
        session_id: '',
        message: { role: 'user', content: [{ type: 'text', text }] },
        parent_tool_use_id: null,
      }),
    waitFor,
    endInput: () => child.stdin.end(),
    stop,
  };
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: the group is already gone.
  }
}

/** True while a process with this pid exists (signal 0 probes without sending anything). */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}
