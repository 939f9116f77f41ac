// Shared by the transport integration tests: start the fake CLI, drain frames, check order and that no
// process is left.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { TestContext } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import {
  spawnTransport,
  type ChildTransport,
  type ChildTransportOptions,
  type TransportDiagnostic,
} from '../../src/transport/index.js';

export const FAKE_CLI = fileURLToPath(new URL('../fixtures/fake-cli.mjs', import.meta.url));

export type Frame = Record<string, unknown>;

export interface FakeCli {
  readonly transport: ChildTransport;
  readonly diagnostics: TransportDiagnostic[];
}

/** Starts the fake CLI in `mode` under this Node; closed after the test whatever happens. */
export async function startFake(
  t: TestContext,
  mode: string,
  env: Record<string, string> = {},
  options: Partial<ChildTransportOptions> = {},
): Promise<FakeCli> {
  const diagnostics: TransportDiagnostic[] = [];
  const transport = await spawnTransport({
    command: process.execPath,
    args: [FAKE_CLI, '--mode', mode],
    env: { PATH: process.env['PATH'], ...env },
    onDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
    ...options,
  });
  t.after(() => transport.close());
  return { transport, diagnostics };
}

export interface Drained {
  readonly frames: Frame[];
  readonly error: unknown;
}

/** Reads frames() to its end; `each` may pace the consumer. */
export async function drain(
  transport: ChildTransport,
  each?: (frame: Frame, index: number) => Promise<void> | void,
): Promise<Drained> {
  const frames: Frame[] = [];
  try {
    for await (const frame of transport.frames()) {
      frames.push(frame);
      await each?.(frame, frames.length - 1);
    }
  } catch (error) {
    return { frames, error };
  }
  return { frames, error: undefined };
}

/** Every frame's seq is its position: nothing lost, nothing reordered, nothing duplicated. */
export function assertContiguous(frames: readonly Frame[], expectedCount?: number): void {
  if (expectedCount !== undefined) assert.equal(frames.length, expectedCount, 'frame count');
  frames.forEach((frame, index) => {
    if (frame['seq'] !== index) assert.fail(`frame ${index} has seq ${String(frame['seq'])}`);
  });
}

type ProcessState = 'running' | 'zombie' | 'gone';

function stateOf(pid: number): ProcessState {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return 'gone';
    throw error;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X' ? 'zombie' : 'running';
  } catch {
    return 'gone';
  }
}

/**
 * The process must already be dead; then it must disappear (`process.kill(pid, 0)` throws ESRCH). A dead
 * grandchild whose parent exited is a zombie until init reaps it, which some init processes only do every
 * few seconds, hence the bounded wait for that last step.
 */
export async function assertNoProcess(pid: number, { deadNow = true } = {}): Promise<void> {
  assert.ok(Number.isInteger(pid) && pid > 0, `bad pid ${String(pid)}`);
  if (deadNow) assert.notEqual(stateOf(pid), 'running', `process ${pid} is still running`);
  const deadline = performance.now() + 10_000;
  while (stateOf(pid) !== 'gone' && performance.now() < deadline) await delay(20);
  assert.throws(
    () => process.kill(pid, 0),
    (error: NodeJS.ErrnoException) => error.code === 'ESRCH',
    `process ${pid} still exists`,
  );
}

export async function assertNoProcesses(pids: readonly number[], { deadNow = true } = {}): Promise<void> {
  if (deadNow) {
    for (const pid of pids) assert.notEqual(stateOf(pid), 'running', `process ${pid} is still running`);
  }
  await Promise.all(pids.map((pid) => assertNoProcess(pid, { deadNow })));
}

/** Awaits a promise that must settle within `ms`; only there to turn a hang into a failure. */
export async function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
