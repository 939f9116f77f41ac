// How long Warden-started processes outlive their data directory, and what a detached CLI's watchdog costs
// (real CLI, mock model, Linux). N threads each answer one message; close() lets go of their CLIs (idle,
// so each gets its deadline, the watchdog's costlier state: it reads the clock on every look); for a
// window the watchdogs' CPU time (their own and their `sleep`s', clock ticks from /proc/<pid>/stat) and
// resident memory are read; then the data directory is removed and the time until no process of the run
// is left is measured (processes found by the scratch HOME in their environment).
// Usage: node --import tsx bench/detached-lifetime.ts [--clis 4] [--window 60]
import { readdirSync, readFileSync, rmSync } from 'node:fs';
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
import { processesUsingHome } from '../src/testing/world-processes.js';

const { values } = parseArgs({
  options: { clis: { type: 'string', default: '4' }, window: { type: 'string', default: '60' } },
});
const CLIS = Number(values.clis);
const WINDOW_S = Number(values.window);
/** USER_HZ: /proc reports CPU time in these. */
const TICKS_PER_SECOND = 100;

async function next(sup: Supervisor, match: (e: StoredEvent) => boolean): Promise<StoredEvent> {
  for await (const event of sup.events({ signal: AbortSignal.timeout(60_000) }))
    if (match(event)) return event;
  throw new Error('no such event within 60 s');
}

function statFields(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** The watchdog of the CLI `pid`: the shell in its process group (the CLI leads the group). */
function watchdogOf(pid: number): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === pid) continue;
    const fields = statFields(Number(entry));
    if (fields?.[2] !== String(pid)) continue;
    if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'sh') return Number(entry);
  }
  return undefined;
}

/** Its CPU time so far, with that of the children it waited for (each `sleep`, `date`), in ticks. */
function cpuTicks(pid: number): number {
  const fields = statFields(pid) ?? [];
  // utime, stime, cutime, cstime: fields 14-17 of stat, 11-14 after the state.
  return [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index] ?? 0), 0);
}

function rssKb(pid: number): number {
  const line = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return line === null ? NaN : Number(line[1]);
}

const scratch = createScratch('warden-bench-lifetime-');
const mock = await startMockModel({ script: scenario().on().thenAnswer('Noted.').build() });
const dataDir = join(scratch.dir, 'data');
try {
  const sup = await Supervisor.open({
    dataDir,
    claudePath: pinnedClaudePath(),
    env: offlineClaudeEnv({ mockUrl: mock.url, home: scratch.home, tmpdir: scratch.tmpdir }),
  });
  for (let i = 0; i < CLIS; i += 1) {
    const thread = await sup.createThread({ cwd: scratch.cwd, mode: 'supervised' });
    const run = await sup.send(thread.id, `hello ${i}`);
    await next(sup, (e) => e.type === 'run.ended' && e.data.runId === run.id);
  }
  const { leftRunning } = await sup.close();
  if (leftRunning.some((left) => left.idleUntil === null)) throw new Error('a CLI was not let go of idle');
  const watchdogs = leftRunning.map((left) => watchdogOf(left.pid));
  if (watchdogs.some((pid) => pid === undefined)) throw new Error('a CLI has no watchdog');
  const pids = watchdogs as number[];

  const before = pids.map(cpuTicks);
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, WINDOW_S * 1000));
  const seconds = (performance.now() - started) / 1000;
  const cpuPerHour = pids.map(
    (pid, i) => ((cpuTicks(pid) - (before[i] ?? 0)) / TICKS_PER_SECOND) * (3600 / seconds),
  );
  const rss = pids.map(rssKb);

  const processes = processesUsingHome(scratch.home).length;
  const removedAt = performance.now();
  rmSync(dataDir, { recursive: true, force: true });
  while (processesUsingHome(scratch.home).length > 0) {
    if (performance.now() - removedAt > 60_000) throw new Error('processes outlived the data dir by 60 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const goneS = (performance.now() - removedAt) / 1000;

  const mean = (list: readonly number[]): number => list.reduce((a, b) => a + b, 0) / list.length;
  console.log(
    `${CLIS} detached real CLIs (idle, let go of by close()), ${processes} processes with their watchdogs`,
  );
  console.log(`  rm -rf of the data dir → no process of the run left: ${goneS.toFixed(1)} s`);
  console.log(
    `  watchdog CPU over ${seconds.toFixed(0)} s, as seconds per hour: ` +
      `mean ${mean(cpuPerHour).toFixed(2)} (each: ${cpuPerHour.map((s) => s.toFixed(2)).join(', ')})`,
  );
  console.log(`  watchdog resident memory: mean ${(mean(rss) / 1024).toFixed(1)} MB (${rss.join(', ')} kB)`);
} finally {
  await mock.close();
  scratch.cleanup();
}
