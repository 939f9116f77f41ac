// One offline query() setup for SDK tests: the test world (a scratch HOME/TMPDIR/cwd, the mock model running
// a script) and Options that point the pinned real CLI at it. The world's teardown checks that no process
// whose environment names this test's HOME is left running (killing any first).
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';

import type { Options, Query, SDKMessage, WardenError } from '../../../src/index.js';
import { startTestWorld, type MockModel, type MockScript, type Scratch } from '../../../src/testing/index.js';
import { killProcessesUsingHome, processesUsingHome } from '../../../src/testing/world-processes.js';

export { killProcessesUsingHome, processesUsingHome };

export interface SdkSession {
  readonly mock: MockModel;
  readonly scratch: Scratch;
  /** Options for query(): cwd, env and the pinned CLI. Spread your own on top. */
  readonly options: Options;
  /** Warnings reported through onWarning. */
  readonly warnings: WardenError[];
}

export async function startSdkSession(
  t: TestContext,
  script: MockScript,
  env: Record<string, string | undefined> = {},
): Promise<SdkSession> {
  const world = await startTestWorld(t, { script, env });
  const warnings: WardenError[] = [];
  const options: Options = {
    cwd: world.scratch.cwd,
    pathToClaudeCodeExecutable: world.claudePath,
    env: world.env,
    onWarning: (warning) => warnings.push(warning),
  };
  return { mock: world.mock, scratch: world.scratch, options, warnings };
}

export function assertNoProcessLeft(session: SdkSession): void {
  assert.deepEqual(processesUsingHome(session.scratch.home), [], 'no CLI process is left running');
}

/** Iterates the query to its end, collecting every message; rethrows what the iteration threw. */
export async function collect(q: Query, onMessage?: (message: SDKMessage) => void): Promise<SDKMessage[]> {
  const messages: SDKMessage[] = [];
  for await (const message of q) {
    messages.push(message);
    onMessage?.(message);
  }
  return messages;
}

/** An async iterable of user messages that stays open until `end()` is called. */
export function heldInput(): {
  input: AsyncIterable<{
    type: 'user';
    message: { role: 'user'; content: string };
    parent_tool_use_id: null;
    session_id: string;
  }>;
  send(text: string): void;
  end(): void;
} {
  type Message = {
    type: 'user';
    message: { role: 'user'; content: string };
    parent_tool_use_id: null;
    session_id: string;
  };
  const pending: Message[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  return {
    input: {
      async *[Symbol.asyncIterator]() {
        for (;;) {
          while (pending.length > 0) yield pending.shift()!;
          if (ended) return;
          await new Promise<void>((resolve) => (wake = resolve));
        }
      },
    },
    send(text) {
      pending.push({
        type: 'user',
        message: { role: 'user', content: text },
        parent_tool_use_id: null,
        session_id: '',
      });
      wake?.();
    },
    end() {
      ended = true;
      wake?.();
    },
  };
}

/** A deferred signal a test fires and the mock script awaits. */
export function signal(): { promise: Promise<void>; fire(): void; fired: boolean } {
  let fire!: () => void;
  const promise = new Promise<void>((resolve) => (fire = resolve));
  const state = {
    promise,
    fired: false,
    fire() {
      state.fired = true;
      fire();
    },
  };
  return state;
}
