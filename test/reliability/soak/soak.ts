// The soak: a real host (soak-host.ts: Supervisor + the server `warden serve` runs) in a child process,
// hundreds of threads on the scripted CLI and a handful on the real Claude Code CLI answered by the mock
// model, people deciding approvals over HTTP, WebSocket clients coming and going — and chaos: scripted
// CLIs crash, real CLIs are SIGKILLed, the host itself is SIGKILLed and reopened on the same data
// directory, clients drop mid-replay. The host is sampled throughout; afterwards the growth of each
// measure over the last host lifetime is fitted and the log is checked (soak-checks.ts).
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
  createScratch,
  offlineClaudeEnv,
  pinnedClaudePath,
  startMockModel,
  type MockScript,
} from '../../../src/testing/index.js';
import { processesUsingHome } from '../../e2e/helpers/sdk-session.js';
import type { HostSample } from './host-metrics.js';
import { HostProcess, type SampleReport } from './host-process.js';
import { People, type Api } from './people.js';
import { between, pick, seeded } from './random.js';
import { checkLog, type Check } from './soak-checks.js';
import { fitPerHour, windowFloors, type Fit } from './slope.js';
import type { HostConfig } from './soak-host.js';
import { WsClients } from './ws-clients.js';

export interface SoakOptions {
  /** How long the load runs. */
  readonly loadMs: number;
  readonly scriptedThreads: number;
  readonly realThreads: number;
  readonly sampleMs: number;
  /** Samples of the last host lifetime taken before this much of it has passed are left out of the fit. */
  readonly warmupMs: number;
  /** Host kills, spread over the first 40% of the load (the rest is one lifetime, for the fit). */
  readonly hostKills: number;
  readonly scriptedCrashEveryMs: number;
  readonly realKillEveryMs: number;
  /** WebSocket clients connected at any moment. */
  readonly wsClients: number;
  readonly maxStepMs: number;
  readonly maxDecisionDelayMs: number;
  /** Growth allowed over the last lifetime, per hour. */
  readonly bounds: Bounds;
  readonly seed: number;
  readonly log: (line: string) => void;
}

export interface Bounds {
  readonly heapMB: number;
  readonly rssMB: number;
  readonly fds: number;
  readonly activeResources: number;
  readonly processListeners: number;
}

export const FITTED = ['heapMB', 'rssMB', 'fds', 'activeResources', 'processListeners'] as const;
/** Fitted through their per-minute floors (slope.ts, windowFloors). */
export const FLOORED: ReadonlySet<string> = new Set(['fds', 'activeResources']);

export interface SoakResult {
  readonly options: Omit<SoakOptions, 'log'>;
  readonly startedAt: string;
  readonly seconds: number;
  /** ms since the start when the load ended (later samples are of the shutdown). */
  readonly loadEndedAt: number;
  readonly samples: HostSample[];
  readonly slopes: Record<(typeof FITTED)[number], Fit>;
  readonly load: {
    threads: number;
    messagesSent: number;
    interrupts: number;
    stops: number;
    events: number;
    warnings: Record<string, number>;
    warningExamples: Record<string, string>;
  };
  readonly people: People['stats'];
  readonly ws: WsClients['stats'] & { distinctEventsSeen: number };
  readonly chaos: { scriptedCrashed: number; realKilled: number; hostKilled: number };
  readonly checks: Check[];
  readonly ok: boolean;
}

const realScript: MockScript = (ctx) => {
  if (ctx.kind !== 'main') return null;
  if (ctx.turnRounds === 0)
    return {
      content: [
        {
          type: 'tool_use',
          name: 'Bash',
          input: { command: `touch soak-${ctx.turns}.txt`, description: 'Touch' },
        },
      ],
    };
  return { content: [{ type: 'text', text: 'Done.' }] };
};

export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const { log } = options;
  const random = seeded(options.seed);
  const startedAt = new Date();
  const t0 = Date.now();
  const now = (): number => Date.now() - t0;
  const scratch = createScratch('warden-soak-');
  const mock = await startMockModel({ script: realScript });
  const dataDir = join(scratch.dir, 'data');
  const scriptedRoot = join(scratch.dir, 'scripted');
  const env = offlineClaudeEnv({ mockUrl: mock.url, home: scratch.home, tmpdir: scratch.tmpdir });
  const samples: HostSample[] = [];
  /** Each host lifetime's warning counts so far (a host reports its running totals). */
  const warningsByLife = new Map<number, Record<string, number>>();
  const unexpected: string[] = [];
  let lifetime = 1;
  const config = (): HostConfig => ({
    dataDir,
    claudePath: pinnedClaudePath(),
    env,
    home: scratch.home,
    scriptedRoot,
    defaultCwd: scratch.cwd,
    seed: options.seed + lifetime,
    maxStepMs: options.maxStepMs,
    lifetime,
  });
  const warningExamples: Record<string, string> = {};
  /** While the end waits for everything to stop, samples are polled often; only the last one is kept. */
  let quiescing: HostSample | undefined;
  const onSample = (report: SampleReport) => {
    Object.assign(warningExamples, report.examples);
    warningsByLife.set(report.sample.host, report.warnings);
    unexpected.push(...report.unexpected);
    if (quiescing !== undefined) return void (quiescing = report.sample);
    samples.push(report.sample);
    const { t, host: life, heapMB, rssMB, fds, liveThreads, pendingApprovals, lastSeq: seq } = report.sample;
    log(
      `soak: ${Math.round(t / 1000)} s host ${life}: heap ${heapMB} MB, rss ${rssMB} MB, ${fds} fds, ` +
        `${liveThreads} live threads, ${pendingApprovals} pending, seq ${seq}`,
    );
  };
  let host = await HostProcess.start(config(), onSample);
  await host.sample(now());

  const api: Api = {
    async request(method, path, body) {
      try {
        const response = await fetch(`${host.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(60_000),
        });
        const text = await response.text();
        return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
      } catch {
        return { status: 0, body: undefined };
      }
    },
  };

  const threads: { id: string; real: boolean }[] = [];
  for (let i = 0; i < options.scriptedThreads + options.realThreads; i += 1) {
    const real = i >= options.scriptedThreads;
    const cwd = join(real ? join(scratch.dir, 'real') : scriptedRoot, `t-${i}`);
    mkdirSync(cwd, { recursive: true });
    const { status, body } = await api.request('POST', '/api/threads', { cwd, mode: 'supervised' });
    if (status !== 201) throw new Error(`creating a thread: HTTP ${status} ${JSON.stringify(body)}`);
    threads.push({ id: (body as { thread: { id: string } }).thread.id, real });
  }
  log(`soak: ${threads.length} threads created; load for ${Math.round(options.loadMs / 1000)} s`);

  const people = new People(random, options.maxDecisionDelayMs);
  const clients = new WsClients(random);
  const load = { messagesSent: 0, interrupts: 0, stops: 0 };
  const chaos = { scriptedCrashed: 0, realKilled: 0, hostKilled: 0 };
  let lastSeq = 0;
  let restarting = false;
  const loadEnds = t0 + options.loadMs + 0;
  const loading = (): boolean => Date.now() < loadEnds;
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

  const sender = async (): Promise<void> => {
    while (loading()) {
      await sleep(1000);
      if (restarting) continue;
      const { status, body } = await api.request('GET', '/api/threads');
      if (status !== 200) continue;
      const list = body as { threads: { id: string; busy: boolean; status: string }[]; lastSeq: number };
      lastSeq = list.lastSeq;
      const byId = new Map(threads.map((t) => [t.id, t]));
      const sends: Promise<unknown>[] = [];
      for (const thread of list.threads) {
        if (thread.busy || random() > (byId.get(thread.id)?.real === true ? 0.8 : 0.3)) continue;
        const text =
          byId.get(thread.id)?.real === true ? '[[soak]] touch a file' : `scripted work ${load.messagesSent}`;
        load.messagesSent += 1;
        sends.push(api.request('POST', `/api/threads/${thread.id}/messages`, { text }));
      }
      const busy = list.threads.filter((t) => t.busy);
      const idleLive = list.threads.filter((t) => !t.busy && t.status === 'live');
      const interrupted = random() < 0.3 ? pick(random, busy) : undefined;
      if (interrupted !== undefined) {
        load.interrupts += 1;
        sends.push(api.request('POST', `/api/threads/${interrupted.id}/interrupt`));
      }
      const stopped = random() < 0.3 ? pick(random, idleLive) : undefined;
      if (stopped !== undefined) {
        load.stops += 1;
        sends.push(api.request('POST', `/api/threads/${stopped.id}/stop`));
      }
      await Promise.all(sends);
    }
  };

  const deciders = async (): Promise<void> => {
    while (loading()) {
      await sleep(500);
      if (!restarting) await people.poll(api);
    }
  };

  const visitors = async (): Promise<void> => {
    const visit = async (): Promise<void> => {
      while (loading()) {
        if (restarting) {
          await sleep(200);
          continue;
        }
        const since = Math.max(0, lastSeq - between(random, 0, 2000));
        await clients.visit(host.url, host.token, since, between(random, 200, 8000));
      }
    };
    await Promise.all(Array.from({ length: options.wsClients }, visit));
  };

  const sampler = async (): Promise<void> => {
    while (loading()) {
      await sleep(options.sampleMs);
      if (!restarting) await host.sample(now());
    }
  };

  const hostKillTimes = Array.from(
    { length: options.hostKills },
    (_, i) => t0 + (options.loadMs * 0.4 * (i + 1)) / (options.hostKills + 0.5),
  );
  const chaotic = async (): Promise<void> => {
    let nextCrash = Date.now() + options.scriptedCrashEveryMs;
    let nextRealKill = Date.now() + options.realKillEveryMs;
    while (loading()) {
      await sleep(250);
      if (Date.now() >= nextCrash) {
        nextCrash += options.scriptedCrashEveryMs;
        chaos.scriptedCrashed += await host.crashScripted(between(random, 1, 3));
      }
      if (Date.now() >= nextRealKill) {
        nextRealKill += options.realKillEveryMs;
        const pid = pick(random, realCliPids(scratch.home));
        if (pid !== undefined) {
          try {
            process.kill(pid, 'SIGKILL');
            chaos.realKilled += 1;
          } catch {
            // It ended meanwhile.
          }
        }
      }
      if (hostKillTimes[0] !== undefined && Date.now() >= hostKillTimes[0]) {
        hostKillTimes.shift();
        restarting = true;
        clients.dropAll();
        await host.kill();
        chaos.hostKilled += 1;
        lifetime += 1;
        log(`soak: host killed at ${Math.round(now() / 1000)} s; reopening the data directory`);
        host = await HostProcess.start(config(), onSample);
        await host.sample(now());
        restarting = false;
      }
    }
  };

  await Promise.all([sender(), deciders(), visitors(), sampler(), chaotic()]);
  const loadEndedAt = now();
  log(`soak: load ended at ${Math.round(loadEndedAt / 1000)} s; stopping every thread`);

  // Quiesce: answer what is under way, stop every thread, let the clients go, wait for the processes.
  await people.settle();
  const { body } = await api.request('GET', '/api/threads');
  const live = ((body as { threads?: { id: string; status: string }[] } | undefined)?.threads ?? []).filter(
    (t) => t.status === 'live',
  );
  for (const thread of live) await api.request('POST', `/api/threads/${thread.id}/stop`);
  clients.dropAll();
  const quietBy = Date.now() + 60_000;
  quiescing = samples.at(-1)!;
  for (;;) {
    await host.sample(now());
    const last = quiescing;
    const quiet =
      last.scriptedClis === 0 &&
      last.cliProcesses === 0 &&
      last.childProcesses === 0 &&
      last.webSocketClients === 0;
    if (quiet || Date.now() > quietBy) break;
    await sleep(500);
  }
  samples.push(quiescing);
  const closing = await host.close();
  unexpected.push(...(closing?.unexpected ?? []));

  const lastLife = samples.filter((s) => s.host === lifetime);
  const baseline = lastLife[0]!;
  const final = lastLife.at(-1)!;
  const { slopes, checks } = growthChecks(lastLife, options, loadEndedAt);
  checks.push(
    {
      name: 'file descriptors back to the lifetime baseline (+5) at the end',
      ok: final.fds <= baseline.fds + 5,
      detail: `baseline ${baseline.fds}, end ${final.fds}`,
    },
    {
      name: 'no CLI, child process, scripted CLI or WebSocket client left at the end',
      ok: final.cliProcesses + final.childProcesses + final.scriptedClis + final.webSocketClients === 0,
      detail: JSON.stringify({
        cli: final.cliProcesses,
        children: final.childProcesses,
        scripted: final.scriptedClis,
        ws: final.webSocketClients,
      }),
    },
    {
      name: 'process listeners back to the lifetime baseline at the end',
      ok: final.processListeners <= baseline.processListeners,
      detail: `baseline ${baseline.processListeners}, end ${final.processListeners}`,
    },
    {
      name: 'no unexpected server error',
      ok: unexpected.length === 0,
      detail: unexpected.slice(0, 3).join(' | '),
    },
    {
      name: 'the host closed cleanly with no scripted CLI left',
      ok: closing !== undefined && closing.scriptedLeft === 0,
      detail: JSON.stringify(closing ?? 'no closing report'),
    },
    {
      name: 'people: at most one 200 among racing decisions, only 200/409 statuses',
      ok: people.violations.length === 0,
      detail: people.violations.slice(0, 3).join(' | '),
    },
    {
      name: 'WebSocket clients: contiguous seqs from since+1, one event per seq',
      ok: clients.violations.length === 0,
      detail: clients.violations.slice(0, 3).join(' | '),
    },
  );
  const logChecks = await checkLog({
    dataDir,
    home: scratch.home,
    decisions: people.outcomes,
    seen: clients.seen,
  });
  checks.push(...logChecks.checks);
  await mock.close();
  const leftover = processesUsingHome(scratch.home);
  for (const pid of leftover) process.kill(pid, 'SIGKILL');
  scratch.cleanup();

  const warnings: Record<string, number> = {};
  for (const counts of warningsByLife.values())
    for (const [code, n] of Object.entries(counts)) warnings[code] = (warnings[code] ?? 0) + n;
  const { log: _log, ...recorded } = options;
  return {
    options: recorded,
    startedAt: startedAt.toISOString(),
    seconds: Math.round(now() / 1000),
    loadEndedAt,
    samples,
    slopes,
    load: { threads: threads.length, ...load, events: logChecks.events, warnings, warningExamples },
    people: people.stats,
    ws: { ...clients.stats, distinctEventsSeen: clients.seen.size },
    chaos,
    checks,
    ok: checks.every((c) => c.ok),
  };
}

/** The real CLIs' own processes (not what they run), found by their HOME. */
function realCliPids(home: string): number[] {
  return processesUsingHome(home).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('claude');
    } catch {
      return false;
    }
  });
}

/**
 * The growth of each measure over one host lifetime's samples under load (after the warm-up), against its
 * bound. Descriptors and handles count what is in flight at the instant: their per-minute floor is fitted.
 */
export function growthChecks(
  lifetime: readonly HostSample[],
  options: Pick<SoakOptions, 'warmupMs' | 'sampleMs' | 'bounds'>,
  loadEndedAt: number,
): { slopes: SoakResult['slopes']; checks: Check[] } {
  const start = lifetime[0]?.t ?? 0;
  const fitted = lifetime.filter((s) => s.t - start >= options.warmupMs && s.t <= loadEndedAt);
  const window = Math.max(1, Math.min(Math.round(60_000 / options.sampleMs), Math.floor(fitted.length / 5)));
  const slopes = Object.fromEntries(
    FITTED.map((key) => {
      const points = fitted.map((s) => ({ t: s.t, value: s[key] }));
      return [key, fitPerHour(FLOORED.has(key) ? windowFloors(points, window) : points)];
    }),
  ) as SoakResult['slopes'];
  const checks = FITTED.map((key) => ({
    name: `${key} grows less than ${options.bounds[key]}/hour over the last lifetime after warm-up`,
    ok: slopes[key].perHour < options.bounds[key],
    detail: `${slopes[key].perHour}/hour over ${slopes[key].samples} ${FLOORED.has(key) ? 'per-minute floors' : 'samples'}`,
  }));
  return { slopes, checks };
}
