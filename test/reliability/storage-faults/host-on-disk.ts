// A Warden host (supervisor + HTTP server) whose data directory is on a small real disk, with the CLI
// played by the scripted stand-in (FakeQuery): the test fills the disk, makes room again, and watches what
// the CLI heard, what the API answered and what the log holds.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { PermissionResult } from '../../../src/protocol/control.js';
import type { WardenError } from '../../../src/protocol/errors.js';
import { createServer, type WardenServer } from '../../../src/server/index.js';
import type { ThreadDeadlines, ThreadMode, ThreadRecord } from '../../../src/store/records.js';
import { Supervisor } from '../../../src/supervisor/index.js';
import { fakeQueries, type FakeQuery } from '../../fixtures/supervisor-fake-query.js';
import { assertLogInvariants } from '../supervisor-invariants.js';
import { until } from '../supervisor-model.js';
import { mountSmallDisk, type SmallDisk } from './small-disk.js';

export interface HostOnDisk {
  readonly disk: SmallDisk;
  readonly sup: Supervisor;
  readonly server: WardenServer;
  readonly thread: ThreadRecord;
  readonly made: FakeQuery[];
  readonly warnings: WardenError[];
  /** What the server reported as unexpected (every 5xx). */
  readonly serverErrors: unknown[];
  readonly api: (
    path: string,
    body?: unknown,
  ) => Promise<{ status: number; json: ApiJson; headers: Headers }>;
}

export interface ApiJson {
  error?: { code: string; message: string };
  status?: string;
  [key: string]: unknown;
}

type ThreadOptions = { mode?: ThreadMode; deadlines?: ThreadDeadlines };

export async function hostOnSmallDisk(
  t: { after(fn: () => Promise<void>): void },
  thread: ThreadOptions = {},
): Promise<HostOnDisk> {
  return hostOn(t, mountSmallDisk(8 << 20), thread);
}

/** The same host on the ordinary temporary directory (for faults injected another way). */
export function hostOnTmp(
  t: { after(fn: () => Promise<void>): void },
  thread: ThreadOptions = {},
): Promise<Omit<HostOnDisk, 'disk'> & { dataDir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'warden-faults-data-'));
  const plain: SmallDisk = {
    dir,
    fill: () => assert.fail('not a small disk'),
    makeRoom: () => undefined,
    free: () => Number.POSITIVE_INFINITY,
    unmount: () => rmSync(dir, { recursive: true, force: true }),
  };
  return hostOn(t, plain, thread);
}

async function hostOn(
  t: { after(fn: () => Promise<void>): void },
  disk: SmallDisk,
  thread: ThreadOptions,
): Promise<HostOnDisk & { dataDir: string }> {
  const work = mkdtempSync(join(tmpdir(), 'warden-faults-'));
  const cwd = join(work, 'project');
  mkdirSync(cwd);
  const { query, made } = fakeQueries();
  const warnings: WardenError[] = [];
  const serverErrors: unknown[] = [];
  const opened: { sup?: Supervisor; server?: WardenServer } = {};
  t.after(async () => {
    try {
      await opened.server?.close();
      await opened.sup?.close();
    } finally {
      disk.unmount();
      rmSync(work, { recursive: true, force: true });
    }
  });
  const dataDir = join(disk.dir, 'data');
  const sup = await Supervisor.open({
    dataDir,
    query,
    onWarning: (w) => warnings.push(w),
    detached: false,
  });
  opened.sup = sup;
  const server = await createServer({ supervisor: sup, dataDir, onError: (e) => serverErrors.push(e) });
  opened.server = server;
  const created = await sup.createThread({
    cwd,
    mode: thread.mode ?? 'supervised',
    ...(thread.deadlines === undefined ? {} : { deadlines: thread.deadlines }),
  });
  const live = server;
  return {
    disk,
    dataDir,
    sup,
    server,
    thread: created,
    made,
    warnings,
    serverErrors,
    api: async (path, body) => {
      const response = await fetch(`${live.url}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          authorization: `Bearer ${live.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, json: (await response.json()) as ApiJson, headers: response.headers };
    },
  };
}

/** A CLI permission request and every answer it got (a correct host gives exactly one). */
export interface TrackedAsk {
  readonly requestId: string;
  answers: number;
  answer: PermissionResult | undefined;
}

export function track(ask: { result: Promise<PermissionResult>; requestId: string }): TrackedAsk {
  const tracked: TrackedAsk = { requestId: ask.requestId, answers: 0, answer: undefined };
  ask.result.then(
    (answer) => {
      tracked.answers += 1;
      tracked.answer = answer;
    },
    () => {
      tracked.answers += 1;
    },
  );
  return tracked;
}

/** The approval made for a request, once there is one. */
export function approvalOf(sup: Supervisor, threadId: string, ask: TrackedAsk): string | undefined {
  return sup.listApprovals({ threadId }).find((a) => a.requestId === ask.requestId)?.id;
}

/**
 * The log's invariants (supervisor-invariants.ts), once what was just committed is on disk: readers see
 * the log only up to the last durable event while the projections already hold what was committed.
 */
export async function assertLogSettled(sup: Supervisor): Promise<void> {
  await until(() => {
    try {
      assertLogInvariants(sup);
      return true;
    } catch {
      return false;
    }
  });
  assertLogInvariants(sup);
}
