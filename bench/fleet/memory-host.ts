// Child process of the fleet-memory benchmark: one host (a Supervisor on SQLite) with many threads, a few
// of them at work, the real CLI answered by the mock model (in this process too), and its memory.
// `parked`: `threads` threads, `atWork` of them at work (a Bash call waiting for its approval: a turn
// running, never parked), the others idle and parked. The idle ones but one had their conversation through
// an in-process scripted CLI (starting hundreds of real CLIs only to park them would take the machine for
// many minutes); they are parked as the real ones are, and a parked thread holds no process either way.
// One idle thread, the probe, talks to the real CLI: its next message after each park is timed.
// `live`: `threads` threads with a real CLI each and no parking, `atWork` of them at work, the others
// idle after one answered message; one idle thread is the probe. Then: send → the mock's first request
// with the message, and → run completed, `probes` times.
// Prints JSON lines: `progress` ({text}) and one `result` (MemoryHostResult).
// Usage: node --expose-gc --import tsx bench/fleet/memory-host.ts '<MemoryHostConfig as JSON>'
import { readdirSync, readFileSync, writeSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';

import { query as sdkQuery } from '../../src/session/query.js';
import type { QueryFunction, StoredEvent } from '../../src/supervisor/index.js';
import { Supervisor } from '../../src/supervisor/index.js';
import {
  createScratch,
  offlineClaudeEnv,
  pinnedClaudePath,
  scenario,
  startMockModel,
} from '../../src/testing/index.js';
import { collectGarbage } from '../lib/gc.js';
import { pidsWithEnv, RUN_MARKER_VARIABLE } from '../lib/processes.js';
import { scriptedQuery } from '../supervisor-server/scripted-cli.js';

export interface MemoryHostConfig {
  readonly mode: 'parked' | 'live';
  readonly threads: number;
  readonly atWork: number;
  readonly probes: number;
  readonly idleParkMs: number;
  /** How many real CLIs may be starting at once. */
  readonly startConcurrency: number;
}

/**
 * Memory of a set of processes, MiB: resident (shared pages counted in each), proportional (shared pages
 * divided among their sharers) and unique (pages no other process maps: what one more process adds).
 */
export interface ProcessMemory {
  readonly count: number;
  readonly rssMiB: number;
  readonly pssMiB: number;
  readonly ussMiB: number;
}

export interface MemoryHostResult {
  readonly event: 'result';
  readonly mode: 'parked' | 'live';
  readonly threads: number;
  readonly parked: number;
  readonly atWork: number;
  /** This process before the Supervisor opened (Node, tsx, the mock model), after full GCs. */
  readonly baselineRssMiB: number;
  readonly hostRssMiB: number;
  readonly hostHeapUsedMiB: number;
  /** Every CLI process and its descendants (the sandbox's bubblewrap and socat among them). */
  readonly clis: ProcessMemory;
  /** The CLIs themselves: marked processes whose parent is not one (a sandbox's helpers are not counted). */
  readonly cliCount: number;
  /** The process trees of the threads at work, and of the idle live ones (live mode). */
  readonly atWorkClis: ProcessMemory;
  readonly idleClis: ProcessMemory;
  readonly loadAverageAtMeasure: number;
  /** send → the mock's first request carrying the message (ms), per probe. */
  readonly toModelMs: number[];
  /** send → run.ended (completed) (ms), per probe. */
  readonly toCompletedMs: number[];
  readonly loadAverageAtProbes: number;
  readonly seconds: number;
}

const CLI_MARKER_VARIABLE = 'WARDEN_BENCH_FLEET_CLI';
const config = JSON.parse(process.argv[2] ?? '') as MemoryHostConfig;
const began = performance.now();
const say = (message: Record<string, unknown>): void => void writeSync(1, `${JSON.stringify(message)}\n`);
const progress = (text: string): void =>
  say({ event: 'progress', text: `${((performance.now() - began) / 1000).toFixed(0)} s: ${text}` });
const MiB = 1024 * 1024;

function statusKiB(pid: number, field: string, file = 'status'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(
      readFileSync(`/proc/${pid}/${file}`, 'utf8'),
    );
    return match === null ? 0 : Number(match[1]);
  } catch {
    return 0;
  }
}

/** pid → its parent, for every live process. */
function parents(): Map<number, number> {
  const map = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z') map.set(Number(entry), Number(fields[1]));
    } catch {
      // Gone while we looked.
    }
  }
  return map;
}

/** `roots` and all their descendants. */
function trees(roots: readonly number[], parentOf: Map<number, number>): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, parent] of parentOf) children.set(parent, [...(children.get(parent) ?? []), pid]);
  const found = new Set<number>();
  const stack = roots.filter((pid) => parentOf.has(pid));
  while (stack.length > 0) {
    const pid = stack.pop()!;
    if (found.has(pid)) continue;
    found.add(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return [...found];
}

function memoryOf(pids: readonly number[]): ProcessMemory {
  let rss = 0;
  let pss = 0;
  let uss = 0;
  for (const pid of pids) {
    rss += statusKiB(pid, 'VmRSS');
    pss += statusKiB(pid, 'Pss', 'smaps_rollup');
    uss += statusKiB(pid, 'Private_Clean', 'smaps_rollup') + statusKiB(pid, 'Private_Dirty', 'smaps_rollup');
  }
  return { count: pids.length, rssMiB: rss / 1024, pssMiB: pss / 1024, ussMiB: uss / 1024 };
}

function hostMemory(): { rssMiB: number; heapUsedMiB: number } {
  collectGarbage();
  collectGarbage();
  const usage = process.memoryUsage();
  return { rssMiB: usage.rss / MiB, heapUsedMiB: usage.heapUsed / MiB };
}

/** Resolves when `count` events after `since` have matched (bounded). */
async function awaitEvents(
  sup: Supervisor,
  since: number,
  match: (event: StoredEvent) => boolean,
  count = 1,
  boundMs = 120_000,
): Promise<void> {
  if (count <= 0) return;
  let seen = 0;
  for await (const event of sup.events({ since, signal: AbortSignal.timeout(boundMs) }))
    if (match(event) && ++seen >= count) return;
  throw new Error(`${seen} of ${count} events within ${boundMs / 1000} s`);
}

/** Polls `check` every 200 ms until it holds (bounded). */
async function until(what: string, check: () => boolean, boundMs = 300_000): Promise<void> {
  const deadline = performance.now() + boundMs;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`not within ${boundMs / 1000} s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Runs `work` over `items`, at most `limit` at a time. */
async function pooled<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

const scratch = createScratch('warden-bench-fleet-mem-');
const mock = await startMockModel({
  script: scenario()
    .on('work')
    .callTool('Bash', { command: 'touch work.txt', description: 'Create a file' })
    .thenAnswer('Done.')
    .on()
    .thenAnswer('Noted.')
    .build(),
});
const baseline = hostMemory();
let seeding = config.mode === 'parked';
const seedQuery = scriptedQuery({ kind: 'events', count: 2, textBytes: 200 }, () => undefined);
const query: QueryFunction = (args) => (seeding ? seedQuery(args) : sdkQuery(args));
const cliMarker = `${process.pid}-${Date.now()}`;
const sup = await Supervisor.open({
  dataDir: join(scratch.dir, 'data'),
  claudePath: pinnedClaudePath(),
  env: offlineClaudeEnv({
    mockUrl: mock.url,
    home: scratch.home,
    tmpdir: scratch.tmpdir,
    // The run's marker (leftovers are killed by it) and one to find this host's CLIs by.
    extra: { [RUN_MARKER_VARIABLE]: process.env[RUN_MARKER_VARIABLE], [CLI_MARKER_VARIABLE]: cliMarker },
  }),
  idleParkMs: config.mode === 'parked' ? config.idleParkMs : 0,
  query,
});

const newThread = async (): Promise<string> =>
  (await sup.createThread({ cwd: scratch.cwd, mode: 'supervised' })).id;
/** Sends `text` and resolves once its run has ended. */
const converse = async (threadId: string, text: string): Promise<void> => {
  const since = sup.lastSeq();
  const run = await sup.send(threadId, text);
  await awaitEvents(sup, since, (e) => e.type === 'run.ended' && e.data.runId === run.id);
};

try {
  const idleCount = config.threads - config.atWork;
  const idle: string[] = [];
  if (config.mode === 'parked') {
    // The idle threads but the probe: one message each through the scripted CLI, then parked.
    const seeded = idleCount - 1;
    for (let i = 0; i < seeded; i += 1) idle.push(await newThread());
    await pooled(idle, 50, (id) => converse(id, 'hello'));
    progress(`${seeded} idle threads answered (scripted CLI); waiting for them to park`);
    await until(
      `${seeded} threads parked`,
      () => sup.listThreads().filter((t) => t.status === 'parked').length >= seeded,
    );
    seeding = false;
  }
  const probe = await newThread();
  await converse(probe, 'hello');
  if (config.mode === 'live') {
    for (let i = 0; i < idleCount - 1; i += 1) idle.push(await newThread());
    await pooled(idle, config.startConcurrency, (id) => converse(id, 'hello'));
    progress(`${idleCount} idle threads answered (real CLI, kept live)`);
  }
  idle.push(probe);
  const working: string[] = [];
  for (let i = 0; i < config.atWork; i += 1) working.push(await newThread());
  await pooled(working, config.startConcurrency, async (id) => {
    const since = sup.lastSeq();
    await sup.send(id, '[[work]] create the file');
    await awaitEvents(sup, since, (e) => e.type === 'approval.requested' && e.threadId === id);
  });
  progress(`${config.atWork} threads at work (an approval pending each)`);
  const parkedCount = (): number => sup.listThreads().filter((t) => t.status === 'parked').length;
  const cliOf = (id: string): number | undefined => sup.getThread(id).thread.cliProcess?.pid;
  if (config.mode === 'parked')
    await until(
      'every idle thread parked, its CLI gone',
      () => parkedCount() === idleCount && cliOf(probe) === undefined,
    );

  // Memory, with everything in place.
  const host = hostMemory();
  const parentOf = parents();
  const pidsOf = (ids: readonly string[]): number[] =>
    trees(
      ids.flatMap((id) => cliOf(id) ?? []),
      parentOf,
    );
  const marked = pidsWithEnv(CLI_MARKER_VARIABLE, cliMarker).filter((pid) => parentOf.has(pid));
  const markedSet = new Set(marked);
  const cliCount = marked.filter((pid) => !markedSet.has(parentOf.get(pid) ?? 0)).length;
  const clis = memoryOf(marked);
  const atWorkClis = memoryOf(pidsOf(working));
  const idleClis = memoryOf(pidsOf(idle));
  const loadAverageAtMeasure = loadavg()[0] ?? 0;
  const parkedAtMeasure = parkedCount();
  progress(
    `host RSS ${host.rssMiB.toFixed(0)} MiB, heap ${host.heapUsedMiB.toFixed(0)} MiB; ` +
      `${cliCount} CLIs (${clis.count} processes with their helpers), RSS ${clis.rssMiB.toFixed(0)} MiB, PSS ${clis.pssMiB.toFixed(0)} MiB`,
  );

  // The probe's next messages: parked before each (its CLI gone), or live all along.
  const toModelMs: number[] = [];
  const toCompletedMs: number[] = [];
  const loadAverageAtProbes = loadavg()[0] ?? 0;
  for (let i = 0; i < config.probes; i += 1) {
    if (config.mode === 'parked')
      await until(
        'the probe parked, its CLI gone',
        () => sup.getThread(probe).thread.status === 'parked' && cliOf(probe) === undefined,
        60_000,
      );
    const text = `probe message ${i} ${cliMarker}`;
    const since = sup.lastSeq();
    const started = performance.now();
    const reached = mock.waitForRequest((r) => r.kind === 'main' && (r.lastUserText ?? '').includes(text), {
      signal: AbortSignal.timeout(120_000),
    });
    const run = await sup.send(probe, text);
    await reached;
    toModelMs.push(performance.now() - started);
    await awaitEvents(sup, since, (e) => e.type === 'run.ended' && e.data.runId === run.id);
    toCompletedMs.push(performance.now() - started);
    if (sup.listApprovals({ threadId: probe, status: 'pending' }).length > 0)
      throw new Error('the probe asked');
  }
  progress(`probe: ${toModelMs.map((ms) => ms.toFixed(0)).join(', ')} ms to the model`);
  const result: MemoryHostResult = {
    event: 'result',
    mode: config.mode,
    threads: sup.listThreads().length,
    parked: parkedAtMeasure,
    atWork: sup.listApprovals({ status: 'pending' }).length,
    baselineRssMiB: baseline.rssMiB,
    hostRssMiB: host.rssMiB,
    hostHeapUsedMiB: host.heapUsedMiB,
    clis,
    cliCount,
    atWorkClis,
    idleClis,
    loadAverageAtMeasure,
    toModelMs,
    toCompletedMs,
    loadAverageAtProbes,
    seconds: (performance.now() - began) / 1000,
  };
  say(result as unknown as Record<string, unknown>);
} finally {
  await sup.close({ stopAgents: true });
  await mock.close();
  scratch.cleanup();
}
process.exit(0);
