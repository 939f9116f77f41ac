// One re-attach after a host crash (real CLI, mock model): a first host (host.ts, a process of its own)
// opens a Supervisor, starts N threads whose tool call needs an approval and is SIGKILLed once all N are
// pending; then Supervisor.open() here, on the same data directory, is timed to its return and to
// `reattached` (every CLI answered the second initialize and its re-delivered requests reached the gate:
// every approval answerable). Then every approval is allowed and every run must complete.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { Supervisor } from '../../src/supervisor/index.js';
import {
  createScratch,
  offlineClaudeEnv,
  pinnedClaudePath,
  scenario,
  startMockModel,
} from '../../src/testing/index.js';
import { killRun, newRunMarker, RUN_MARKER_VARIABLE } from '../lib/processes.js';

const HOST = fileURLToPath(new URL('./host.ts', import.meta.url));

export interface ReattachSample {
  /** Supervisor.open() until it returned. */
  readonly openMs: number;
  /** Supervisor.open() until `reattached`: every approval answerable. */
  readonly answerableMs: number;
  /** This process's CPU time over the same span (the host's share; the CLIs' is their own). */
  readonly answerableCpuMs: number;
  /** Supervisor.open() until every run completed after its approval was allowed. */
  readonly allDoneMs: number;
}

export async function reattachOnce(sessions: number, signal: AbortSignal): Promise<ReattachSample> {
  const marker = newRunMarker();
  const scratch = createScratch('warden-bench-durable-');
  const mock = await startMockModel({
    script: scenario()
      .on('ask')
      .callTool('Bash', { command: 'touch bench.txt', description: 'Create a file' })
      .thenAnswer('done')
      .build(),
  });
  const dataDir = join(scratch.dir, 'data');
  const env = {
    ...offlineClaudeEnv({ mockUrl: mock.url, home: scratch.home, tmpdir: scratch.tmpdir }),
    // Every CLI carries the run's marker, so whatever a failed or stopped run leaves is found and killed.
    [RUN_MARKER_VARIABLE]: marker,
  };
  const cwds = Array.from({ length: sessions }, (_, i) => {
    const cwd = join(scratch.cwd, `s${i}`);
    mkdirSync(cwd);
    return cwd;
  });
  const config = { dataDir, claudePath: pinnedClaudePath(), env };
  const host = spawn(process.execPath, ['--import', 'tsx', HOST, JSON.stringify({ ...config, cwds })], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, [RUN_MARKER_VARIABLE]: marker },
  });
  const stop = (): void => void killRun(marker);
  signal.addEventListener('abort', stop, { once: true });
  let sup: Supervisor | undefined;
  try {
    const exited = once(host, 'exit');
    let ready = false;
    for await (const line of createInterface({ input: host.stdout }))
      if (line === 'ready') {
        ready = true;
        break;
      }
    if (!ready) throw new Error('the first host ended before every approval was pending');
    host.kill('SIGKILL');
    await exited;
    if (signal.aborted) throw new Error('stopped');

    const cpu = process.cpuUsage();
    const started = performance.now();
    const opened = await Supervisor.open(config);
    sup = opened;
    const openMs = performance.now() - started;
    await opened.reattached;
    const answerableMs = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const approvals = opened.listApprovals({ status: 'pending' });
    if (approvals.length !== sessions)
      throw new Error(`${approvals.length} approvals pending after the re-attach, not ${sessions}`);
    const controller = new AbortController();
    const ended = (async () => {
      let done = 0;
      for await (const event of opened.events({ since: opened.lastSeq(), signal: controller.signal }))
        if (event.type === 'run.ended' && event.data.status === 'completed' && ++done === sessions) return;
    })();
    signal.addEventListener('abort', () => controller.abort(), { once: true });
    await Promise.all(approvals.map((approval) => opened.decide(approval.id, { behavior: 'allow' })));
    await ended;
    return {
      openMs,
      answerableMs,
      answerableCpuMs: (used.user + used.system) / 1000,
      allDoneMs: performance.now() - started,
    };
  } finally {
    signal.removeEventListener('abort', stop);
    await sup?.close({ stopAgents: true });
    if (host.exitCode === null && host.signalCode === null) host.kill('SIGKILL');
    killRun(marker);
    await mock.close();
    scratch.cleanup();
  }
}
