#!/usr/bin/env node
// Runs the test suite with node:test through tsx. Node 20 cannot glob test files itself, so this script
// lists them. Usage: node scripts/test.mjs [folder-or-substring ...]  (e.g. `npm test -- unit e2e/sdk`).
//
// The tests run the Claude Code CLI bundled with Warden (pinnedClaudePath). Without filters, test/e2e then
// runs once more on every older CLI the package pins as a devDependency alias `claude-code-<version>`
// (WARDEN_TEST_CLI=<version> selects it), so Warden keeps working with the CLI a user happens to have;
// that pass leaves out the files about the `warden` command and the fleet (BUNDLED_CLI_ONLY), and runs
// with the sandbox off (WARDEN_SANDBOX=off): the first pass has it on wherever bubblewrap runs, so the
// e2e suite runs both with and without it.
// With filters, one pass runs, on whatever CLI WARDEN_TEST_CLI names (the bundled one by default);
// WARDEN_TEST_OLDER_CLIS=0 skips the older CLIs' passes. The end of the output says every failed test
// once more, with its error, whichever pass it failed in, and each pass's slowest files
// (scripts/summary-reporter.mjs).
//
// Afterwards it looks for CLI processes the tests left running: every process Warden starts carries the
// WARDEN_SESSION_MARKER variable, and every process of this run carries the run's own WARDEN_TEST_RUN
// (given to the tests here; the offline environment and the transport pass it on). A detached CLI outlives
// the test that forgot it. Any found are killed and fail the run, so a leak is seen where it happens
// instead of slowing every later run. Only this run's processes count (test/helpers/leak-check.ts): a
// real `warden serve` or another test run on the machine is left alone. WARDEN_TEST_LEAK_CHECK=0 skips it.
import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';

import { tsImport } from 'tsx/esm/api';

/**
 * The older CLIs' passes leave out the e2e files whose subject is Warden's own surface rather than the CLI:
 * the `warden` command's front ends, the PostgreSQL fleet, the TUI in tmux and a detached CLI's watchdog. They reach the CLI through the same
 * supervisor paths that the other e2e files take on every pinned CLI, so running them again would only
 * cost CI time (about three minutes on two cores).
 */
const BUNDLED_CLI_ONLY = [
  'cli-command-',
  'cli-inbox',
  'cli-attach-tmux',
  'cli-run-demo',
  'cli-decisions-run',
  'cli-usage-before-disk',
  'fleet-',
  // The Codex app-server is another agent altogether: the Claude CLI's version does not reach it.
  'codex-',
  // The TUI in tmux (the terminal front end of a session, not the hook protocol the headless tests
  // check on every CLI) and the watchdog of a detached CLI (Warden's own shell, not the CLI's).
  'external-tui-tmux',
  'supervisor-detached-lifetime',
  // Grants, deadlines and batches are the supervisor's own bookkeeping over approvals the other files
  // already take through every CLI (about 30 s a pass).
  'grants-deadlines-batches',
  // The twin suite compares Warden with the official SDK message by message on the same CLI: that is
  // about the SDKs, and the bundled CLI is the one the official SDK pins (about 40 s a pass).
  'twin/',
];
/** Processes still exiting when the runner ends get this long before they count as left behind. */
const EXIT_GRACE_MS = 3000;
/**
 * A test file that has not ended after this long is stopped and fails, naming itself: one stuck file must
 * not hold the whole run (the longest file takes about two minutes on two loaded cores). Its process is
 * also made to exit once its tests are done (--test-force-exit), so a handle a test forgot to close cannot
 * keep it waiting; the processes it started are still found and fail the run (the leak check below).
 */
const FILE_TIMEOUT_MS = Number(process.env.WARDEN_TEST_FILE_TIMEOUT_MS ?? 8 * 60_000);
/** How many of a pass's files the summary at the end names, slowest first. */
const SLOWEST_FILES = 8;

const filters = process.argv.slice(2);
const all = readdirSync('test', { recursive: true })
  .map((entry) => join('test', String(entry)))
  .filter((file) => file.endsWith('.test.ts'))
  .sort();
const files = filters.length === 0 ? all : all.filter((file) => filters.some((f) => file.includes(f)));
if (files.length === 0) {
  console.error(`no test files match ${JSON.stringify(filters)}`);
  process.exit(1);
}

const checkLeaks = process.env.WARDEN_TEST_LEAK_CHECK !== '0';
const leakCheck = await tsImport('../test/helpers/leak-check.ts', import.meta.url);
// A fresh id for every run, whatever the environment says: a run started from inside another one is a run
// of its own. Nothing carries it yet, so whatever carries it at the end was started by this run.
const runId = randomUUID();
const concurrency = process.env.WARDEN_TEST_CONCURRENCY ?? '2';

const passes = [
  { label: `${files.length} test files, CLI ${process.env.WARDEN_TEST_CLI || 'bundled'}`, files, env: {} },
];
if (filters.length === 0 && process.env.WARDEN_TEST_OLDER_CLIS !== '0') {
  const e2e = all.filter(
    (file) =>
      file.startsWith(join('test', 'e2e') + sep) &&
      !BUNDLED_CLI_ONLY.some((prefix) => file.startsWith(join('test', 'e2e', prefix))),
  );
  for (const version of olderClis()) {
    passes.push({
      label: `test/e2e again, CLI ${version}, sandbox off`,
      files: e2e,
      env: { WARDEN_TEST_CLI: version, WARDEN_SANDBOX: 'off' },
    });
  }
}
const postgresEnv = await sharedPostgres(files);
const tmpRoots = await tsImport('../test/helpers/tmp-roots.ts', import.meta.url);
const markersBefore = new Set(tmpRoots.projectMarkersInTmp());
// Each pass's failures and file times, written beside the spec output by scripts/summary-reporter.mjs.
const summariesDir = mkdtempSync(join(tmpdir(), 'warden-test-summary-'));
const outcomes = passes.map((pass, index) => {
  const banner = passes.length > 1 ? `pass ${index + 1}/${passes.length}: ${pass.label}` : pass.label;
  console.log(`\n== ${banner}\n`);
  const started = Date.now();
  const summary = join(summariesDir, `pass-${index + 1}.jsonl`);
  const { status } = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      `--test-reporter=${join(import.meta.dirname, 'summary-reporter.mjs')}`,
      `--test-reporter-destination=${summary}`,
      `--test-concurrency=${concurrency}`,
      `--test-timeout=${FILE_TIMEOUT_MS}`,
      '--test-force-exit',
      ...pass.files,
    ],
    {
      stdio: 'inherit',
      env: { ...process.env, ...postgresEnv, ...pass.env, [leakCheck.TEST_RUN_VARIABLE]: runId },
    },
  );
  return { banner, status: status ?? 1, seconds: Math.round((Date.now() - started) / 1000), summary };
});
printSummaries(outcomes);
rmSync(summariesDir, { recursive: true, force: true });
if (outcomes.length > 1) {
  console.log('');
  for (const { banner, status, seconds } of outcomes) {
    console.log(`== ${status === 0 ? 'passed' : 'FAILED'} in ${seconds} s: ${banner}`);
  }
}
const failed = outcomes.find((outcome) => outcome.status !== 0);
const result = { status: failed === undefined ? 0 : failed.status };

const strays = tmpRoots.projectMarkersInTmp().filter((path) => !markersBefore.has(path));
if (strays.length > 0) {
  console.error(
    `\nThe tests left ${strays.join(', ')}: later runs would see the temporary directory as a project.`,
  );
  if (result.status === 0) result.status = 1;
}

const left = checkLeaks ? await leakCheck.killLeftovers(runId, { graceMs: EXIT_GRACE_MS }) : [];
if (left.length > 0) {
  console.error(`\nThe tests left ${left.length} process(es) running; they were killed:`);
  for (const { pid, command } of left) console.error(`  ${pid} ${command}`);
  process.exit(result.status === 0 ? 1 : (result.status ?? 1));
}
process.exit(result.status ?? 1);

/**
 * One throwaway PostgreSQL server for the whole run instead of one per test file, handed to the tests that
 * run on both store backends (test/helpers/store-backends.ts) as WARDEN_TEST_PG_URL; removed when this
 * runner exits. Not when a server is given already, PostgreSQL is not wanted or not installed.
 */
async function sharedPostgres(selected) {
  const stores = process.env.WARDEN_TEST_STORES;
  if (process.env.WARDEN_TEST_PG_URL || (stores && !stores.split(',').some((s) => s.trim() === 'postgres')))
    return {};
  if (!selected.some((file) => readFileSync(file, 'utf8').includes('helpers/store-backends'))) return {};
  const cluster = await tsImport('../src/testing/postgres-cluster.ts', import.meta.url);
  if (cluster.postgresBinDir() === undefined) return {};
  try {
    return { WARDEN_TEST_PG_URL: (await cluster.startThrowawayCluster()).url() };
  } catch (error) {
    console.error(
      `Could not start a PostgreSQL server for the tests (each test file starts its own): ${error}`,
    );
    return {};
  }
}

/** Each pass's slowest files, then every failed test of every pass once more, with its error. */
function printSummaries(outcomes) {
  const passes = outcomes.map(({ banner, summary }) => {
    let text = '';
    try {
      text = readFileSync(summary, 'utf8');
    } catch {
      // The pass wrote no summary (it ended before any test ran): its status says so below.
    }
    // A line cut short (the run was stopped while the reporter wrote) is left out, not the whole pass.
    const lines = text.split('\n').flatMap((line) => {
      try {
        return line === '' ? [] : [JSON.parse(line)];
      } catch {
        return [];
      }
    });
    const fileMs = {};
    for (const { file, ms } of lines) if (file !== undefined) fileMs[file] = (fileMs[file] ?? 0) + ms;
    return { banner, failed: lines.flatMap((line) => line.failed ?? []), fileMs };
  });
  for (const { banner, fileMs } of passes) {
    const slowest = Object.entries(fileMs)
      .sort(([, a], [, b]) => b - a)
      .slice(0, SLOWEST_FILES);
    if (slowest.length === 0) continue;
    console.log(`\n== slowest files in ${banner}:`);
    for (const [file, ms] of slowest)
      console.log(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${relative(process.cwd(), file)}`);
  }
  for (const { banner, failed } of passes) {
    if (failed.length === 0) continue;
    console.log(`\n== failed in ${banner}:`);
    for (const { file, name, error } of failed) {
      const where = file === undefined ? '' : ` (${relative(process.cwd(), file)})`;
      console.log(`\n✖ ${name}${where}\n${error.replace(/^/gm, '  ')}`);
    }
  }
}

/** Versions of the older CLIs the package pins as devDependency aliases `claude-code-<version>`. */
function olderClis() {
  const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
  return Object.keys(manifest.devDependencies ?? {})
    .map((name) => /^claude-code-(.+)$/.exec(name)?.[1])
    .filter((version) => version !== undefined);
}
