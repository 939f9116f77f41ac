// One offline Supervisor for e2e tests, in a test world: a scratch HOME/TMPDIR/cwd, a dataDir inside it, the
// mock model running a script, and the pinned real CLI. Waiting is done on the supervisor's own event log.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';

import type { WardenError } from '../../../src/index.js';
import {
  Supervisor,
  type StoredEvent,
  type SupervisorOptions,
  type ThreadMode,
  type ThreadRecord,
} from '../../../src/supervisor/index.js';
import {
  poll,
  startTestWorld,
  type MockModel,
  type MockScript,
  type Scratch,
} from '../../../src/testing/index.js';
import { projectDirName } from '../../../src/sessions/paths.js';
import { processesUsingHome } from './sdk-session.js';

export interface SupervisorSession {
  readonly sup: Supervisor;
  readonly mock: MockModel;
  readonly scratch: Scratch;
  readonly dataDir: string;
  /** Options to open another Supervisor on the same dataDir and mock. */
  readonly options: SupervisorOptions;
  readonly warnings: WardenError[];
  readonly thread: ThreadRecord;
}

export async function startSupervisorSession(
  t: TestContext,
  script: MockScript,
  {
    mode = 'supervised',
    env = {},
    idleParkMs,
  }: { mode?: ThreadMode; env?: Record<string, string | undefined>; idleParkMs?: number } = {},
): Promise<SupervisorSession> {
  const world = await startTestWorld(t, { prefix: 'warden-sup-', script, env });
  const { scratch, mock, dataDir } = world;
  const warnings: WardenError[] = [];
  const options: SupervisorOptions = {
    dataDir,
    claudePath: world.claudePath,
    env: world.env,
    onWarning: (warning) => warnings.push(warning),
    ...(idleParkMs === undefined ? {} : { idleParkMs }),
  };
  const sup = await Supervisor.open(options);
  world.defer(() => sup.close({ stopAgents: true }));
  const thread = await sup.createThread({ cwd: scratch.cwd, mode });
  return { sup, mock, scratch, dataDir, options, warnings, thread };
}

/** The first event (replayed or live) that matches; fails after `timeoutMs` instead of hanging. */
export async function waitForEvent<T extends StoredEvent['type']>(
  sup: Supervisor,
  type: T,
  predicate: (event: Extract<StoredEvent, { type: T }>) => boolean = () => true,
  timeoutMs = 60_000,
): Promise<Extract<StoredEvent, { type: T }>> {
  const signal = AbortSignal.timeout(timeoutMs);
  for await (const event of sup.events({ signal })) {
    if (event.type === type && predicate(event as Extract<StoredEvent, { type: T }>))
      return event as Extract<StoredEvent, { type: T }>;
  }
  throw new Error(`No ${type} event within ${timeoutMs} ms`);
}

/** Every event of the log so far. */
export async function allEvents(sup: Supervisor): Promise<StoredEvent[]> {
  const controller = new AbortController();
  const events: StoredEvent[] = [];
  const last = sup.listThreads().reduce((n, t) => n + t.lastThreadSeq, 0);
  if (last === 0) return events;
  for await (const event of sup.events({ signal: controller.signal })) {
    events.push(event);
    if (events.length === last) break;
  }
  return events;
}

/** The global and per-thread sequence numbers run 1, 2, 3… without a gap. */
export { assertContiguousLog as assertContiguous } from '../../helpers/log-assertions.js';

/**
 * Waits (bounded) until no process with this HOME is left: a stopped CLI exits asynchronously after
 * close() (stdin end → SIGTERM → SIGKILL). Polls a condition; it orders nothing.
 */
export async function waitForNoProcess(home: string, timeoutMs = 10_000): Promise<void> {
  await poll(() => processesUsingHome(home).length === 0, { timeoutMs });
}

export function assertNoProcessLeft(home: string): void {
  assert.deepEqual(processesUsingHome(home), [], 'no CLI process is left running');
}

/** Where the CLI writes a session's transcript under a scratch HOME. */
export function transcriptPath(home: string, cwd: string, sessionId: string): string {
  return join(home, '.claude', 'projects', projectDirName(cwd), `${sessionId}.jsonl`);
}

/**
 * Waits (bounded) until the CLI's transcript of a session holds `text`. The CLI writes its transcript
 * in batches shortly after the events happen, so a process killed at once may never write the tail;
 * tests that kill it and then resume wait for what the resume needs. Polls a condition; it orders nothing.
 */
export async function waitForTranscript(path: string, text: string, timeoutMs = 10_000): Promise<void> {
  const holds = (): boolean => existsSync(path) && readFileSync(path, 'utf8').includes(text);
  assert.ok(
    (await poll(holds, { timeoutMs })) === true,
    `the CLI wrote ${JSON.stringify(text)} to ${path} within ${timeoutMs} ms`,
  );
}
