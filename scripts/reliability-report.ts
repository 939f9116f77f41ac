// Renders RELIABILITY.md (and docs/reliability/soak.svg) from the results each reliability run leaves in
// docs/reliability/results/: campaign.json (the model-based test and the fuzzers, written by
// scripts/reliability-campaign.ts), soak.json (scripts/soak.ts) and storage-faults.json (the storage fault
// tests, when they have written one). Each run rewrites only its own file, and every run re-renders the
// whole page, so the sections merge. The bugs these runs found and what became of them are kept by hand in
// docs/reliability/fixed.json ([{ "part", "bug", "test" }]): a fix is a commit, not a run's result. `node --import tsx scripts/reliability-report.ts` re-renders alone.
//
// A results file other than the soak's may take this generic shape (fields optional but `command`):
//   { "command": "…", "date": "…", "seconds": 60, "summary": ["[reliability] … lines"],
//     "held": ["what was checked and held"], "fixed": [{ "bug": "…", "test": "path — test name" }] }
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { renderSoakSvg, type PlotSample } from './reliability-plot.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const RESULTS_DIR = `${ROOT}docs/reliability/results`;
const REPORT = `${ROOT}RELIABILITY.md`;
const SVG = `${ROOT}docs/reliability/soak.svg`;
const FIXED = `${ROOT}docs/reliability/fixed.json`;

interface Fixed {
  /** Which run found it (the hand-kept list says; a run's own results leave it out). */
  part?: string;
  bug: string;
  test: string;
}

interface Generic {
  command: string;
  date?: string;
  seconds?: number;
  summary?: string[];
  held?: string[];
  fixed?: Fixed[];
  recorded?: string;
}

interface Campaign {
  model: Generic;
  fuzz: Generic & { boundaries: { boundary: string; ran: string }[] };
}

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

interface Soak {
  command: string;
  machine: { cores: number; loadAverageAtStart: number; node: string };
  startedAt: string;
  seconds: number;
  options: Record<string, unknown> & {
    loadMs: number;
    scriptedThreads: number;
    realThreads: number;
    sampleMs: number;
    warmupMs: number;
    bounds: Record<string, number>;
  };
  samples: (PlotSample & Record<string, number>)[];
  slopes: Record<string, { perHour: number; samples: number; first: number; last: number }>;
  load: {
    threads: number;
    messagesSent: number;
    interrupts: number;
    stops: number;
    events: number;
    warnings?: Record<string, number>;
    warningExamples?: Record<string, string>;
  };
  people: {
    decisions: number;
    ok: number;
    conflicts: number;
    unreachable: number;
    races: number;
    racesOneWinner: number;
    racesNoWinner: number;
  };
  ws: {
    connected: number;
    droppedMidReplay: number;
    dropped: number;
    closed: number;
    eventsReceived: number;
  };
  chaos: { scriptedCrashed: number; realKilled: number; hostKilled: number };
  checks: Check[];
  ok: boolean;
  fixed?: Fixed[];
  notes?: string[];
  earlier?: {
    command: string;
    startedAt: string;
    seconds: number;
    events: number;
    slopes: Record<string, number>;
    failed: string[];
    notes?: string[];
  }[];
}

function read<T>(name: string): T | undefined {
  const path = `${RESULTS_DIR}/${name}`;
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as T) : undefined;
}

export function writeReport(): void {
  const campaign = read<Campaign>('campaign.json');
  const soak = read<Soak>('soak.json');
  const storage = read<Generic>('storage-faults.json');
  const lines: string[] = [
    '# Reliability',
    '',
    "Warden's promise is that nothing is lost: not a permission request, not a decision, not an event. This page",
    'says what was run to check it, what held, and what failed and was fixed. It is generated: each run writes its',
    'results to `docs/reliability/results/` and re-renders this page (`scripts/reliability-report.ts`); see',
    '[docs/testing.md](docs/testing.md) for how to run each part.',
    '',
    '| Part | What ran | Result |',
    '| --- | --- | --- |',
    `| Model-based test of the supervisor | ${plain(campaign?.model.summary?.[0]) ?? 'not yet measured'} | ${verdict(campaign?.model)} |`,
    `| Fuzzing of every input boundary | ${campaign === undefined ? 'not yet measured' : `${campaign.fuzz.boundaries.length} boundaries`} | ${verdict(campaign?.fuzz)} |`,
    `| Storage faults | ${plain(storage?.summary?.[0]) ?? (storage === undefined ? 'not yet measured' : storage.command)} | ${storage === undefined ? '—' : verdict(storage)} |`,
    `| Soak | ${soak === undefined ? 'not yet measured' : `${minutes(soak.options.loadMs)} of load, ${soak.load.threads} threads, ${soak.load.events.toLocaleString('en')} events`} | ${soak === undefined ? '—' : soakChecks(soak).every((c) => c.ok) ? 'held' : 'FAILED'} |`,
    `| Chaos (during the soak) | ${soak === undefined ? 'not yet measured' : `${soak.chaos.scriptedCrashed} scripted CLI crashes, ${soak.chaos.realKilled} real CLIs SIGKILLed, host SIGKILLed ${soak.chaos.hostKilled} time(s), ${soak.ws.droppedMidReplay} clients dropped mid-replay`} | ${soak === undefined ? '—' : chaosChecks(soak).every((c) => c.ok) ? 'held' : 'FAILED'} |`,
    '',
  ];
  lines.push(...genericSection('Model-based test of the supervisor', campaign?.model));
  lines.push(...fuzzSection(campaign?.fuzz));
  lines.push(
    ...genericSection('Storage faults', storage, 'The storage fault tests have not written results yet.'),
  );
  lines.push(...soakSections(soak));
  lines.push(...fixedSection([campaign?.model, campaign?.fuzz, storage, soak]));
  writeFileSync(REPORT, `${lines.join('\n').trimEnd()}\n`);
  if (soak !== undefined) {
    mkdirSync(`${ROOT}docs/reliability`, { recursive: true });
    const caption = `${soak.command}: ${soak.load.threads} threads; host SIGKILLed and reopened: ${soak.chaos.hostKilled} (dashed)`;
    writeFileSync(SVG, renderSoakSvg(soak.samples, caption));
  }
}

/** The soak's own checks: growth and the state at the end; the rest are the chaos checks on the log. */
const SOAK_CHECK = /grows less than|back to the lifetime baseline|left at the end/;

function soakChecks(soak: Soak): Check[] {
  return soak.checks.filter((c) => SOAK_CHECK.test(c.name));
}

function chaosChecks(soak: Soak): Check[] {
  return soak.checks.filter((c) => !SOAK_CHECK.test(c.name));
}

function checkLines(checks: Check[]): string[] {
  return checks.map(
    (c) => `- ${c.ok ? '✓' : '✗'} ${c.name}${c.detail.trim() === '' ? '' : ` — ${c.detail.trim()}`}`,
  );
}

function plain(line: string | undefined): string | undefined {
  return line?.replace(/^\[reliability\] /, '');
}

function verdict(part: Generic | undefined): string {
  if (part === undefined) return '—';
  const fixed = part.fixed?.length ?? 0;
  return fixed === 0 ? 'held' : `held after ${fixed} fix(es)`;
}

function minutes(ms: number): string {
  return ms >= 120_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`;
}

function runLine(part: Generic): string[] {
  const when = [part.date, part.seconds === undefined ? undefined : `${part.seconds} s`]
    .filter(Boolean)
    .join(', ');
  return [
    `Command: \`${part.command}\`${when === '' ? '' : ` (${when})`}.`,
    ...(part.recorded === undefined ? [] : ['', part.recorded]),
    '',
  ];
}

function genericSection(title: string, part: Generic | undefined, missing = 'Not yet measured.'): string[] {
  const lines = [`## ${title}`, ''];
  if (part === undefined) return [...lines, missing, ''];
  lines.push(...runLine(part));
  if (part.summary !== undefined && part.summary.length > 0) lines.push('```', ...part.summary, '```', '');
  if (part.held !== undefined && part.held.length > 0)
    lines.push('What held:', '', ...part.held.map((h) => `- ${h}`), '');
  return lines;
}

function fuzzSection(fuzz: Campaign['fuzz'] | undefined): string[] {
  const lines = genericSection('Fuzzing of every input boundary', fuzz);
  if (fuzz === undefined) return lines;
  lines.push('| Boundary | What ran |', '| --- | --- |');
  for (const { boundary, ran } of fuzz.boundaries) lines.push(`| ${boundary} | ${ran} |`);
  lines.push('');
  return lines;
}

function soakSections(soak: Soak | undefined): string[] {
  if (soak === undefined)
    return ['## Soak', '', 'Not yet measured.', '', '## Chaos', '', 'Not yet measured.', ''];
  const o = soak.options;
  const last = soak.samples.filter((s) => s.host === soak.samples.at(-1)!.host);
  const baseline = last[0]!;
  const end = last.at(-1)!;
  const loopP99 = Math.max(...soak.samples.map((s) => s.loopDelayP99Ms ?? 0));
  const loopMax = Math.max(...soak.samples.map((s) => s.loopDelayMaxMs ?? 0));
  const lines = [
    '## Soak',
    '',
    `Command: \`${soak.command}\` (started ${soak.startedAt}, ${soak.seconds} s in all). Node ${soak.machine.node} on ` +
      `${soak.machine.cores} cores, load average ${soak.machine.loadAverageAtStart} at the start: the machine was ` +
      'shared with other work (test runs of other changes) the whole time, so the event-loop delays are upper bounds.',
    '',
    `A host process (a Supervisor and the server \`warden serve\` runs, started with \`--expose-gc\`) on one data ` +
      `directory; ${o.scriptedThreads} threads on the scripted CLI (in-process, speaking the stream-json protocol ` +
      'through `query()`: permission requests, background subagents that ask after their turn ended, results, ' +
      `turns the CLI starts itself) and ${o.realThreads} on the real Claude Code CLI (detached, answered by the mock ` +
      `model). For ${minutes(o.loadMs)}: ${soak.load.messagesSent.toLocaleString('en')} messages sent over HTTP, ` +
      `${soak.load.interrupts} interrupts, ${soak.load.stops} stops; ${soak.people.decisions.toLocaleString('en')} ` +
      `decisions by simulated people (${soak.people.ok} got 200, ${soak.people.conflicts} got 409, ` +
      `${soak.people.unreachable} found the host down); ${soak.people.races} races of 2–3 people on one approval ` +
      `(${soak.people.racesOneWinner} with exactly one 200, ${soak.people.racesNoWinner} with none: settled first, or the ` +
      `host was down); ${soak.ws.connected.toLocaleString('en')} WebSocket clients, each replaying from a recent ` +
      `seq then vanishing (${soak.ws.eventsReceived.toLocaleString('en')} events received). The log ended with ` +
      `${soak.load.events.toLocaleString('en')} events.`,
    '',
    `Sampled every ${o.sampleMs / 1000} s. Growth is a least-squares slope over the last host lifetime, ` +
      `leaving out its first ${minutes(o.warmupMs)} (warm-up) and the final sample (after every thread was stopped). ` +
      'Descriptors and active handles count what is in flight at the sampling instant, so their per-minute floor ' +
      '(the lowest sample of each minute) is fitted: a leak raises the floor, the load only scatters points above it.',
    '',
    '| Measure | Fit window (first → last sample) | Slope | Bound | |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const [key, fit] of Object.entries(soak.slopes))
    lines.push(
      `| ${key} | ${fit.first} → ${fit.last} (${fit.samples} samples) | ${fit.perHour}/hour | < ${o.bounds[key]}/hour | ${fit.perHour < (o.bounds[key] ?? 0) ? '✓' : '✗'} |`,
    );
  lines.push(
    '',
    'At the end of the last lifetime, against its first sample:',
    '',
    '| | Baseline | End |',
    '| --- | --- | --- |',
  );
  for (const key of [
    'heapMB',
    'rssMB',
    'fds',
    'processListeners',
    'activeResources',
    'cliProcesses',
    'childProcesses',
    'scriptedClis',
    'webSocketClients',
  ])
    lines.push(`| ${key} | ${baseline[key]} | ${end[key]} |`);
  lines.push(
    '',
    `Event-loop delay per sample period: p99 at most ${loopP99} ms, longest single delay ${loopMax} ms.`,
    '',
    ...checkLines(soakChecks(soak)),
    '',
    ...warningLines(soak),
    '![heap, RSS, descriptors and CLI processes over the soak](docs/reliability/soak.svg)',
    '',
    ...(soak.notes ?? []).flatMap((note) => [`Note: ${note}`, '']),
    ...earlierLines(soak),
    '## Chaos',
    '',
    `During the soak: ${soak.chaos.scriptedCrashed} scripted CLIs died mid-frame (as if SIGKILLed), ` +
      `${soak.chaos.realKilled} real CLI processes were SIGKILLed, the host process was SIGKILLed ` +
      `${soak.chaos.hostKilled} time(s) and reopened on the same data directory (a real kill of a child ` +
      'process; its detached real CLIs were re-attached), and ' +
      `${soak.ws.droppedMidReplay} WebSocket clients were dropped in the middle of their replay ` +
      `(${soak.ws.dropped} more dropped without a close handshake, ${soak.ws.closed} closed cleanly). Afterwards:`,
    '',
    ...checkLines(chaosChecks(soak)),
    '',
  );
  return lines;
}

function earlierLines(soak: Soak): string[] {
  const earlier = soak.earlier ?? [];
  if (earlier.length === 0) return [];
  const lines = ['Other runs of the soak, replaced on this page by the one above:', ''];
  for (const run of earlier) {
    const slopes = Object.entries(run.slopes)
      .map(([key, perHour]) => `${key} ${perHour}/hour`)
      .join(', ');
    const outcome = run.failed.length === 0 ? 'every check held' : `failed: ${run.failed.join('; ')}`;
    lines.push(
      `- \`${run.command}\` (started ${run.startedAt}, ${run.seconds} s, ${run.events.toLocaleString('en')} events; ` +
        `slopes as fitted then: ${slopes}): ${outcome}.${(run.notes ?? []).map((n) => ` ${n}`).join('')}`,
    );
  }
  return [...lines, ''];
}

function warningLines(soak: Soak): string[] {
  const counts = Object.entries(soak.load.warnings ?? {});
  if (counts.length === 0) return [];
  const examples = soak.load.warningExamples ?? {};
  return [
    'Typed warnings the hosts reported (`onWarning`), by code, with the first of each:',
    '',
    ...counts.map(
      ([code, n]) => `- \`${code}\` × ${n}${examples[code] === undefined ? '' : ` — “${examples[code]}”`}`,
    ),
    '',
  ];
}

function fixedSection(parts: (Generic | Soak | undefined)[]): string[] {
  const kept = existsSync(FIXED) ? (JSON.parse(readFileSync(FIXED, 'utf8')) as Fixed[]) : [];
  const fixed = [...kept, ...parts.flatMap((p) => p?.fixed ?? [])];
  const lines = ['## Failed and fixed', ''];
  if (fixed.length === 0) return [...lines, 'No Warden bug has been found by these runs so far.', ''];
  lines.push('| Found by | Bug | Regression test |', '| --- | --- | --- |');
  for (const { part, bug, test } of fixed) lines.push(`| ${part ?? ''} | ${bug} | ${test} |`);
  return [...lines, ''];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeReport();
