// One offline test world: private scratch directories, the mock model, the environment that points the real
// CLI at it, the CLI's path, and one teardown that ends it all and proves that no process is left. Every
// helper of Warden's own tests is built on it; a user's host can be tested the same way (docs/testing.md).
import { join } from 'node:path';

import { pinnedClaudePath } from '../session/resolve-cli.js';
import { startMockModel, type MockModel } from './mock-model.js';
import type { MockScript } from './mock-model-types.js';
import { createScratch, offlineClaudeEnv, type Scratch } from './offline-env.js';
import { poll } from './until.js';
import { isGone, killProcesses, processesUsingHome } from './world-processes.js';

/** Where the world's teardown is registered: node:test's TestContext, or anything with `after(fn)`. */
export interface AfterHook {
  after(fn: () => unknown): unknown;
}

export interface TestWorldOptions {
  /** The mock's script. Without it (and without `scriptFor`) no mock is started and the environment
   * points at a port where nothing listens. */
  readonly script?: MockScript;
  /** The mock's script, made from the scratch (for scripts that name its files). */
  readonly scriptFor?: (scratch: Scratch) => MockScript;
  /** The scratch directory's name prefix; default `warden-`. */
  readonly prefix?: string;
  /** Added to the offline environment (a value of `undefined` removes a variable). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The CLI; default the pinned one (pinnedClaudePath). */
  readonly claudePath?: string;
  /** How long the world's processes get to exit by themselves at teardown; default 10 s. */
  readonly exitGraceMs?: number;
  /** Teardown fails when a process of the world was still running after the grace (it is killed first). */
  readonly failOnLeftover?: boolean;
}

export interface TestWorld {
  readonly scratch: Scratch;
  /** The mock, when a script was given. */
  readonly mock: MockModel | undefined;
  readonly mockUrl: string;
  /** The CLI's complete offline environment (HOME and TMPDIR in the scratch). */
  readonly env: Record<string, string>;
  readonly claudePath: string;
  /** `<scratch>/data`, for a Supervisor or `warden serve` (not created). */
  readonly dataDir: string;
  /** Names a process the test started (a host, a CLI): teardown kills it, and the group it leads, right
   * after the deferred steps, and checks that it is gone. */
  track(pid: number | undefined): void;
  /** A teardown step, run before the mock closes; the step added last runs first. */
  defer(step: () => unknown): void;
  /** Live processes of the world: the tracked ones and every one using the scratch HOME. */
  processes(): number[];
  /** Ends the world (idempotent): the deferred steps, the tracked processes (killed), the mock, the other
   * processes (waited for, then killed), the scratch. Throws when a step failed or a process is left. */
  teardown(): Promise<void>;
}

export interface MockedTestWorld extends TestWorld {
  readonly mock: MockModel;
}

type WithScript = TestWorldOptions & ({ readonly script: MockScript } | { readonly scriptFor: object });

/** Where the environment points without a mock: the discard port, where nothing listens. */
const NO_MOCK_URL = 'http://127.0.0.1:9';
const DEFAULT_EXIT_GRACE_MS = 10_000;
/** A SIGKILLed process is gone within milliseconds; this bound only catches the impossible. */
const KILLED_EXIT_MS = 5_000;

/** Starts a world whose teardown `t.after` runs (also when a later set-up step of the test fails). */
export function startTestWorld(t: AfterHook, options: WithScript): Promise<MockedTestWorld>;
export function startTestWorld(t: AfterHook, options?: TestWorldOptions): Promise<TestWorld>;
export async function startTestWorld(t: AfterHook, options: TestWorldOptions = {}): Promise<TestWorld> {
  if (typeof t?.after !== 'function') throw new TypeError('startTestWorld: t must have an after(fn) method');
  if (options.script !== undefined && options.scriptFor !== undefined)
    throw new TypeError('startTestWorld: give script or scriptFor, not both');
  const scratch = createScratch(options.prefix);
  const steps: (() => unknown)[] = [];
  const tracked = new Set<number>();
  let mock: MockModel | undefined;
  let ending: Promise<void> | undefined;
  const processes = (): number[] => [
    ...new Set([...[...tracked].filter((pid) => !isGone(pid)), ...processesUsingHome(scratch.home)]),
  ];
  const end = async (): Promise<void> => {
    const failures: unknown[] = [];
    for (const step of steps.reverse()) {
      try {
        await step();
      } catch (error) {
        failures.push(error);
      }
    }
    // What the test named goes at once (a host it SIGKILLs as a crash, a detached CLI its host left).
    killProcesses(tracked);
    try {
      await mock?.close();
    } catch (error) {
      failures.push(error);
    }
    // Everything else of the world gets the grace to exit by itself (a stopped CLI exits after its stdin
    // closes, then SIGTERM): whatever is still running then is killed.
    const grace = options.exitGraceMs ?? DEFAULT_EXIT_GRACE_MS;
    const leftover = (await poll(() => processes().length === 0, { timeoutMs: grace })) ? [] : processes();
    killProcesses(processes());
    const seen = [...new Set([...tracked, ...leftover])];
    await poll(() => seen.every(isGone) && processesUsingHome(scratch.home).length === 0, {
      timeoutMs: KILLED_EXIT_MS,
    });
    const alive = [...new Set([...seen.filter((pid) => !isGone(pid)), ...processesUsingHome(scratch.home)])];
    scratch.cleanup();
    if (alive.length > 0)
      failures.push(new Error(`processes of the test survived SIGKILL: ${alive.join(', ')}`));
    if (options.failOnLeftover === true && leftover.length > 0)
      failures.push(new Error(`processes were still running at the end of the test: ${leftover.join(', ')}`));
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, 'the test world did not end cleanly');
  };
  const teardown = (): Promise<void> => (ending ??= end());
  t.after(teardown);

  const script = options.scriptFor?.(scratch) ?? options.script;
  if (script !== undefined) mock = await startMockModel({ script });
  const mockUrl = mock?.url ?? NO_MOCK_URL;
  return {
    scratch,
    mock,
    mockUrl,
    env: offlineClaudeEnv({ mockUrl, home: scratch.home, tmpdir: scratch.tmpdir, extra: options.env ?? {} }),
    claudePath: options.claudePath ?? pinnedClaudePath(),
    dataDir: join(scratch.dir, 'data'),
    track: (pid) => {
      if (pid !== undefined) tracked.add(pid);
    },
    defer: (step) => steps.push(step),
    processes,
    teardown,
  };
}
