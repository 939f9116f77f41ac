// Time from Supervisor.open() to every approval answerable again, after a host with N detached CLIs was
// SIGKILLed (real CLI, mock model). Reports open() alone and open() + `reattached` (every CLI answered the
// second initialize and its re-delivered requests reached the gate); then decides every approval and
// checks each run completes. Usage: node --import tsx bench/durable-reattach.ts [--sessions 1,10,50]
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { Supervisor } from '../src/supervisor/index.js';
import {
  createScratch,
  offlineClaudeEnv,
  pinnedClaudePath,
  scenario,
  startMockModel,
} from '../src/testing/index.js';
import { signalGroup } from '../src/transport/process-tree.js';

const { values } = parseArgs({ options: { sessions: { type: 'string', default: '1,10,50' } } });
const SIZES = (values.sessions ?? '1,10,50').split(',').map(Number);
const HOST = fileURLToPath(new URL('./durable/host.ts', import.meta.url));

async function measure(
  sessions: number,
): Promise<{ openMs: number; answerableMs: number; allDoneMs: number }> {
  const scratch = createScratch('warden-bench-durable-');
  const mock = await startMockModel({
    script: scenario()
      .on('ask')
      .callTool('Bash', { command: 'touch bench.txt', description: 'Create a file' })
      .thenAnswer('done')
      .build(),
  });
  const dataDir = join(scratch.dir, 'data');
  const env = offlineClaudeEnv({ mockUrl: mock.url, home: scratch.home, tmpdir: scratch.tmpdir });
  const cwds = Array.from({ length: sessions }, (_, i) => {
    const cwd = join(scratch.cwd, `s${i}`);
    mkdirSync(cwd);
    return cwd;
  });
  const config = { dataDir, claudePath: pinnedClaudePath(), env };
  const host = spawn(process.execPath, ['--import', 'tsx', HOST, JSON.stringify({ ...config, cwds })], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let sup: Supervisor | undefined;
  const pids: number[] = [];
  try {
    for await (const line of createInterface({ input: host.stdout })) if (line === 'ready') break;
    const exited = once(host, 'exit');
    host.kill('SIGKILL');
    await exited;

    const started = performance.now();
    const opened = await Supervisor.open(config);
    sup = opened;
    const openMs = performance.now() - started;
    for (const thread of opened.listThreads())
      if (thread.cliProcess !== null) pids.push(thread.cliProcess.pid);
    await opened.reattached;
    const answerableMs = performance.now() - started;
    const approvals = opened.listApprovals({ status: 'pending' });
    if (approvals.length !== sessions)
      throw new Error(`${approvals.length} approvals pending, not ${sessions}`);
    const ended = (async () => {
      let done = 0;
      for await (const event of opened.events({ since: opened.lastSeq() }))
        if (event.type === 'run.ended' && event.data.status === 'completed' && ++done === sessions) return;
    })();
    await Promise.all(approvals.map((approval) => opened.decide(approval.id, { behavior: 'allow' })));
    await ended;
    return { openMs, answerableMs, allDoneMs: performance.now() - started };
  } finally {
    await sup?.close({ stopAgents: true });
    if (host.exitCode === null && host.signalCode === null) host.kill('SIGKILL');
    for (const pid of pids) signalGroup(pid, 'SIGKILL');
    await mock.close();
    scratch.cleanup();
  }
}

console.log('sessions  open()  all answerable  all runs completed after allow');
for (const sessions of SIZES) {
  const { openMs, answerableMs, allDoneMs } = await measure(sessions);
  console.log(
    `${String(sessions).padStart(8)}  ${openMs.toFixed(0).padStart(5)} ms  ${answerableMs.toFixed(0).padStart(11)} ms  ${allDoneMs.toFixed(0).padStart(10)} ms`,
  );
}
