// `npm run soak -- --minutes N [--seed S] [--host-kills K] [--write] [--note TEXT]`: the long soak with
// chaos (test/reliability/soak).
// A run of 10 minutes or more (or one given --write) records its figures in
// docs/reliability/results/soak.json and regenerates RELIABILITY.md and docs/reliability/soak.svg;
// a shorter one only prints, so that trial runs never overwrite the published figures.
// Exits 1 when a check fails.
// `npm run soak -- --refit RESULT.json [--load-ended SECONDS] [--note TEXT]` fits the growth of a recorded
// run again as this code does (its samples under load only) and publishes it in place of soak.json.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, cpus } from 'node:os';

import { growthChecks, runSoak, type SoakResult } from '../test/reliability/soak/soak.js';
import { soakOptions } from '../test/reliability/soak/soak-options.js';
import { RESULTS_DIR, writeReport } from './reliability-report.js';

const args = process.argv.slice(2);
const valueOf = (flag: string): string | undefined => {
  const at = args.indexOf(flag);
  return at < 0 ? undefined : args[at + 1];
};
const log = (line: string): void => void process.stderr.write(`${line}\n`);
const refit = valueOf('--refit');
if (refit !== undefined) {
  refitRun(refit);
  process.exit(0);
}
const minutes = Number(valueOf('--minutes') ?? 30);
if (!Number.isFinite(minutes) || minutes <= 0) {
  console.error('usage: npm run soak -- --minutes N [--seed S] [--write]');
  process.exit(2);
}
const seedArg = valueOf('--seed');
const hostKills = valueOf('--host-kills');
const options = {
  ...soakOptions(minutes, log, seedArg === undefined ? undefined : Number(seedArg)),
  ...(hostKills === undefined ? {} : { hostKills: Number(hostKills) }),
};
const loadAtStart = loadavg()[0]!;
const result = await runSoak(options);
for (const check of result.checks) log(`${check.ok ? 'ok  ' : 'FAIL'} ${check.name} — ${check.detail}`);
const slopes = Object.entries(result.slopes).map(([key, fit]) => `${key} ${fit.perHour}/h`);
log(`soak: ${result.seconds} s; slopes over the last lifetime: ${slopes.join(', ')}`);
if (minutes >= 10 || args.includes('--write')) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const command = `npm run soak -- --minutes ${minutes}`;
  const machine = {
    cores: cpus().length,
    loadAverageAtStart: Math.round(loadAtStart * 100) / 100,
    node: process.version,
  };
  const path = `${RESULTS_DIR}/soak.json`;
  const note = valueOf('--note');
  const output = {
    command,
    machine,
    ...(note === undefined ? {} : { notes: [note] }),
    ...result,
    earlier: earlierRuns(path),
  };
  writeFileSync(path, `${JSON.stringify(output, null, 1)}\n`);
  writeReport();
  log('soak: wrote docs/reliability/results/soak.json, RELIABILITY.md and docs/reliability/soak.svg');
}
process.exit(result.ok ? 0 : 1);

/** The runs this one replaces, in brief (the newest first, at most three), so that a failure stays on record. */
function earlierRuns(path: string): unknown[] {
  if (!existsSync(path)) return [];
  const before = JSON.parse(readFileSync(path, 'utf8')) as {
    command: string;
    startedAt: string;
    seconds: number;
    load: { events: number };
    slopes: Record<string, { perHour: number }>;
    checks: { name: string; ok: boolean; detail: string }[];
    notes?: string[];
    earlier?: unknown[];
  };
  const brief = {
    command: before.command,
    startedAt: before.startedAt,
    seconds: before.seconds,
    events: before.load.events,
    slopes: Object.fromEntries(Object.entries(before.slopes).map(([key, fit]) => [key, fit.perHour])),
    failed: before.checks.filter((c) => !c.ok).map((c) => `${c.name} — ${c.detail}`),
    ...(before.notes === undefined ? {} : { notes: before.notes }),
  };
  return [brief, ...(before.earlier ?? [])].slice(0, 3);
}

/** Fits a recorded run again; keeps its samples under load and its last one (the state at the end). */
function refitRun(file: string): void {
  const run = JSON.parse(readFileSync(file, 'utf8')) as SoakResult & { notes?: string[]; command: string };
  const loadEnded = valueOf('--load-ended');
  const loadEndedAt = loadEnded === undefined ? run.loadEndedAt : Number(loadEnded) * 1000;
  if (!Number.isFinite(loadEndedAt))
    throw new TypeError('this result does not say when its load ended: --load-ended');
  const last = run.samples.at(-1)!;
  const samples = [...run.samples.filter((s) => s.t <= loadEndedAt), last];
  const { slopes, checks } = growthChecks(
    samples.filter((s) => s.host === last.host && s !== last),
    run.options,
    loadEndedAt,
  );
  const others = run.checks.filter((c) => !/grows less than/.test(c.name));
  const note = valueOf('--note');
  const path = `${RESULTS_DIR}/soak.json`;
  const output = {
    ...run,
    loadEndedAt,
    samples,
    slopes,
    checks: [...checks, ...others],
    ok: [...checks, ...others].every((c) => c.ok),
    notes: [...(run.notes ?? []), ...(note === undefined ? [] : [note])],
    earlier: earlierRuns(path),
  };
  writeFileSync(path, `${JSON.stringify(output, null, 1)}\n`);
  writeReport();
  for (const check of output.checks) log(`${check.ok ? 'ok  ' : 'FAIL'} ${check.name} — ${check.detail}`);
}
