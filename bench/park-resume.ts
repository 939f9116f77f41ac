// How long a parked thread takes to answer its next message, against one whose CLI is still live (real
// CLI, mock model): send() → run.ended, N times each, on the same machine in the same run. The parked
// thread's CLI is stopped after each answer (a short idle period) and the next send resumes its session
// in a new process; the live thread keeps its CLI. Also prints the resident memory a live idle CLI holds,
// which parking gives back. Usage: node --import tsx bench/park-resume.ts [--runs 5]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { Supervisor, type StoredEvent } from '../src/supervisor/index.js';
import {
  createScratch,
  offlineClaudeEnv,
  pinnedClaudePath,
  scenario,
  startMockModel,
} from '../src/testing/index.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const RUNS = Number(values.runs ?? '5');
const PARK_AFTER_MS = 300;

/** The first event after `since` that matches (bounded). */
async function next(
  sup: Supervisor,
  since: number,
  match: (e: StoredEvent) => boolean,
): Promise<StoredEvent> {
  for await (const event of sup.events({ since, signal: AbortSignal.timeout(60_000) }))
    if (match(event)) return event;
  throw new Error('no such event within 60 s');
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return line === null ? NaN : Number(line[1]) / 1024;
}

function summary(samples: readonly number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? NaN;
  return `median ${median.toFixed(0)} ms (min ${sorted[0]?.toFixed(0)}, max ${sorted.at(-1)?.toFixed(0)}; ${samples.map((s) => s.toFixed(0)).join(', ')})`;
}

const scratch = createScratch('warden-bench-park-');
const mock = await startMockModel({ script: scenario().on().thenAnswer('Noted.').build() });
const base = {
  claudePath: pinnedClaudePath(),
  env: offlineClaudeEnv({ mockUrl: mock.url, home: scratch.home, tmpdir: scratch.tmpdir }),
};
const live = await Supervisor.open({ ...base, dataDir: join(scratch.dir, 'live'), idleParkMs: 0 });
const parking = await Supervisor.open({
  ...base,
  dataDir: join(scratch.dir, 'parking'),
  idleParkMs: PARK_AFTER_MS,
});
try {
  const liveThread = await live.createThread({ cwd: scratch.cwd, mode: 'supervised' });
  const parkedThread = await parking.createThread({ cwd: scratch.cwd, mode: 'supervised' });

  // One message each first: both threads then have a session (the CLI's start is not what is timed).
  for (const [sup, thread] of [
    [live, liveThread],
    [parking, parkedThread],
  ] as const) {
    const since = sup.lastSeq();
    const run = await sup.send(thread.id, 'hello');
    await next(sup, since, (e) => e.type === 'run.ended' && e.data.runId === run.id);
  }
  const idleCli = live.getThread(liveThread.id).thread.cliProcess;
  const idleRss = idleCli === null ? NaN : rssMb(idleCli.pid);

  const liveMs: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const since = live.lastSeq();
    const started = performance.now();
    const run = await live.send(liveThread.id, `message ${i}`);
    await next(live, since, (e) => e.type === 'run.ended' && e.data.runId === run.id);
    liveMs.push(performance.now() - started);
  }

  const parkedMs: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    if (parking.getThread(parkedThread.id).thread.status !== 'parked')
      await next(parking, 0, (e) => e.type === 'thread.parked' && e.data.generation === i + 1);
    // The process is gone once its exit is recorded; then the thread holds no CLI.
    if (parking.getThread(parkedThread.id).thread.cliProcess !== null)
      await next(parking, 0, (e) => e.type === 'session.process_exited' && e.data.generation === i + 1);
    const since = parking.lastSeq();
    const started = performance.now();
    const run = await parking.send(parkedThread.id, `message ${i}`);
    await next(parking, since, (e) => e.type === 'run.ended' && e.data.runId === run.id);
    parkedMs.push(performance.now() - started);
  }

  console.log(`send → run.ended, ${RUNS} runs each (real CLI, mock model; idle period ${PARK_AFTER_MS} ms)`);
  console.log(`  live CLI:    ${summary(liveMs)}`);
  console.log(`  parked CLI:  ${summary(parkedMs)}  (a new process resuming the session)`);
  console.log(`  resident memory of the live idle CLI: ${idleRss.toFixed(0)} MB (what parking gives back)`);
} finally {
  await live.close({ stopAgents: true });
  await parking.close({ stopAgents: true });
  await mock.close();
  scratch.cleanup();
}
