// `npm run soak -- --minutes N [--seed S] [--host-kills K] [--write] [--note TEXT]`: the long soak with chaos (test/reliability/soak).
// A run of 10 minutes or more (or one given --write) records its figures in
// docs/reliability/results/soak.json and regenerates RELIABILITY.md and docs/reliability/soak.svg;
// a shorter one only prints, so that trial runs never overwrite the published figures.
// Exits 1 when a check fails.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, cpus } from 'node:os';

import { runSoak } from '../test/reliability/soak/soak.js';
import { soakOptions } from '../test/reliability/soak/soak-options.js';
import { RESULTS_DIR, writeReport } from './reliability-report.js';

const args = process.argv.slice(2);
const valueOf = (flag: string): string | undefined => {
  const at = args.indexOf(flag);
  return at < 0 ? undefined : args[at + 1];
};
const minutes = Number(valueOf('--minutes') ?? 30);
if (!Number.isFinite(minutes) || minutes <= 0) {
  console.error('usage: npm run soak -- --minutes N [--seed S] [--write]');
  process.exit(2);
}
const seedArg = valueOf('--seed');
const log = (line: string): void => void process.stderr.write(`${line}\n`);
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
