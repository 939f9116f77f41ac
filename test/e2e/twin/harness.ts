// Runs one scenario on both SDKs, each against the pinned real CLI and a fresh mock model. Each SDK has a
// world of its own — a scratch HOME, TMPDIR and cwd that lives for a whole test file — so the transcripts
// its runs leave accumulate there, and the session functions can be compared on them at the end.
import type { Options, SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { join } from 'node:path';

import {
  createScratch,
  offlineClaudeEnv,
  pinnedClaudePath,
  startMockModel,
  type MockModel,
  type MockScript,
  type Scratch,
} from '../../../src/testing/index.js';
import type { WardenError } from '../../../src/index.js';
import { processesUsingHome } from '../helpers/sdk-session.js';
import { SDKS, type AgentSdk, type SdkName } from './sdks.js';

export interface World {
  readonly name: SdkName;
  readonly sdk: AgentSdk;
  readonly scratch: Scratch;
  /** Where the CLI of this world writes transcripts (its HOME/.claude). */
  readonly configDir: string;
  /** Problems Warden reported through onWarning (always empty for the official SDK). */
  readonly warnings: WardenError[];
}

/** What a scenario gets for one run. */
export interface RunEnv {
  readonly world: World;
  readonly sdk: AgentSdk;
  /** Starts this run's mock model; returns Options that point the CLI at it. Call once per query. */
  readonly start: (script: MockScript, extraEnv?: Record<string, string | undefined>) => Promise<Options>;
  /** The mock of the last start(). */
  readonly mock: MockModel;
}

/** What a scenario reports; the suite compares the two SDKs' observations. */
export interface Observation {
  messages: SDKMessage[];
  /** Callback invocations (canUseTool, hooks, MCP tools), normalised by the scenario. */
  calls?: unknown[] | undefined;
  /** What the iteration threw, if anything. */
  error?: unknown;
  /** Anything else the scenario wants compared. */
  facts?: Record<string, unknown> | undefined;
}

export interface TwinScenario {
  readonly name: string;
  run(env: RunEnv): Promise<Observation>;
}

export type TwinResult = Record<SdkName, Observation>;

export function createWorlds(): World[] {
  return SDKS.map(({ name, sdk }) => {
    const scratch = createScratch(`warden-twin-${name}-`);
    return { name, sdk, scratch, configDir: join(scratch.home, '.claude'), warnings: [] };
  });
}

/** Waits (bounded) for every CLI of the worlds to be gone, then removes them. */
export async function disposeWorlds(worlds: readonly World[]): Promise<void> {
  for (let i = 0; i < 400 && worlds.some((w) => processesUsingHome(w.scratch.home).length > 0); i++)
    await new Promise((resolve) => setTimeout(resolve, 25));
  for (const world of worlds) world.scratch.cleanup();
}

/** Runs the scenario on the official SDK, then on Warden (one after the other: the machine is small). */
export async function runTwin(worlds: readonly World[], scenario: TwinScenario): Promise<TwinResult> {
  const result: Partial<TwinResult> = {};
  for (const world of worlds) result[world.name] = await runOnce(world, scenario);
  return result as TwinResult;
}

async function runOnce(world: World, scenario: TwinScenario): Promise<Observation> {
  const mocks: MockModel[] = [];
  const env: RunEnv = {
    world,
    sdk: world.sdk,
    get mock(): MockModel {
      const mock = mocks.at(-1);
      if (mock === undefined) throw new Error(`${scenario.name}: start() was not called`);
      return mock;
    },
    start: async (script, extraEnv = {}) => {
      const mock = await startMockModel({ script });
      mocks.push(mock);
      const { scratch } = world;
      const options: Options = {
        cwd: scratch.cwd,
        pathToClaudeCodeExecutable: pinnedClaudePath(),
        env: offlineClaudeEnv({
          mockUrl: mock.url,
          home: scratch.home,
          tmpdir: scratch.tmpdir,
          extra: extraEnv,
        }),
      };
      // Warden's own option; the official SDK would ignore it, but keep its options exactly as written.
      if (world.name === 'warden')
        Object.assign(options, { onWarning: (warning: WardenError) => world.warnings.push(warning) });
      return options;
    },
  };
  try {
    const observed = await scenario.run(env);
    return { ...observed, calls: portable(observed.calls, world), facts: portable(observed.facts, world) };
  } finally {
    await Promise.all(mocks.map((mock) => mock.close()));
  }
}

/**
 * Calls and facts as JSON, with the world's scratch path and every uuid replaced: paths and ids differ per
 * world, and a key whose value is undefined is the same as no key to any application.
 */
function portable<T>(value: T, world: World): T {
  if (value === undefined) return value;
  const text = JSON.stringify(value)
    .replaceAll(world.scratch.dir, '<scratch>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>');
  return JSON.parse(text) as T;
}

/** Iterates a query to its end; what it threw is part of the observation, not a test failure. */
export async function drain(
  messages: AsyncIterable<SDKMessage>,
  onMessage?: (message: SDKMessage) => void,
): Promise<Observation> {
  const seen: SDKMessage[] = [];
  try {
    for await (const message of messages) {
      seen.push(message);
      onMessage?.(message);
    }
    return { messages: seen };
  } catch (error) {
    return { messages: seen, error };
  }
}
