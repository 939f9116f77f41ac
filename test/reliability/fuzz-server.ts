// The server the HTTP and WebSocket fuzzers aim at: a real server over a Supervisor whose CLI processes are
// scripted (FakeQuery), with one thread that has a live turn, a running subagent and a pending approval, so
// that random requests naming them reach past the lookups. Unexpected errors (what would be a 500) are kept.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';

import { createServer, type WardenServer } from '../../src/server/index.js';
import { Supervisor } from '../../src/supervisor/index.js';
import { fakeQueries, frames, startTurn } from '../fixtures/supervisor-fake-query.js';
import { until } from './supervisor-model.js';

export interface FuzzServer {
  readonly server: WardenServer;
  readonly sup: Supervisor;
  /** Ids a request may name: real ones first, then strays. */
  readonly ids: { thread: string; approval: string; subagent: string };
  /** Errors the server reported as unexpected. */
  readonly unexpected: unknown[];
}

export async function startFuzzServer(t: TestContext): Promise<FuzzServer> {
  const dir = mkdtempSync(join(tmpdir(), 'warden-fuzz-'));
  const cwd = join(dir, 'work');
  mkdirSync(cwd);
  const dataDir = join(dir, 'data');
  const { query, made } = fakeQueries();
  const sup = await Supervisor.open({ dataDir, query, onWarning: () => undefined });
  const unexpected: unknown[] = [];
  const started: { server?: WardenServer } = {};
  t.after(async () => {
    try {
      await started.server?.close();
      await sup.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  const thread = await sup.createThread({ cwd, mode: 'supervised' });
  const { fake } = await startTurn(sup, made, thread.id, 'fuzz');
  fake.emit(frames.agentCall('toolu_fuzz'));
  fake.emit(frames.taskStarted('task-fuzz', 'toolu_fuzz'));
  fake.ask('Bash', { command: 'npm test' });
  await until(() => sup.listApprovals({ status: 'pending' }).length === 1);
  const approval = sup.listApprovals({ status: 'pending' })[0]!;
  const server = await createServer({
    supervisor: sup,
    dataDir,
    defaultCwd: cwd,
    onError: (e) => unexpected.push(e),
  });
  started.server = server;
  return {
    server,
    sup,
    ids: { thread: thread.id, approval: approval.id, subagent: 'task-fuzz' },
    unexpected,
  };
}
