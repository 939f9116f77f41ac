// `npm run bench [-- --quick] [-- name ...]`: runs the benchmarks, Warden and the official SDK side by
// side, and reports. A full run rewrites BENCHMARKS.md and bench/results/latest.json; a quick run or a
// selection by name only prints its report, so that development runs never overwrite committed figures.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BENCHMARKS } from './benchmarks/index.js';
import { ensureBuilt } from './lib/built-package.js';
import { loadHosts } from './lib/hosts.js';
import { loadAverageNow, machineInfo, versions } from './lib/machine.js';
import type { BenchmarkResult, PendingBenchmark } from './lib/model.js';
import { renderJson, renderMarkdown, type Session } from './lib/report.js';

const REPORT = fileURLToPath(new URL('../BENCHMARKS.md', import.meta.url));
const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const names = args.filter((arg) => !arg.startsWith('--'));
const known = BENCHMARKS.map((benchmark) => benchmark.name);

if (args.includes('--help')) {
  console.log(`usage: npm run bench [-- --quick] [-- ${known.join(' | ')} ...]`);
  process.exit(0);
}
const unknown = names.filter((name) => !known.includes(name));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${known.join(', ')}`);
  process.exit(2);
}

const log = (line: string): void => void process.stderr.write(`${line}\n`);
const selected = BENCHMARKS.filter((benchmark) => names.length === 0 || names.includes(benchmark.name));
const startedAt = new Date();
const machine = machineInfo();
ensureBuilt(log);
const hosts = await loadHosts();
if (quick) log('quick mode: fewer runs and smaller sizes; the report is printed, nothing is written');
if (machine.loadAverageAtStart > machine.cores)
  log(
    `note: the machine is busy (load average ${machine.loadAverageAtStart} on ${machine.cores} cores); ` +
      'wall-clock figures will be noisy',
  );

const results: (BenchmarkResult | PendingBenchmark)[] = [];
for (const benchmark of selected) {
  if ('pending' in benchmark) {
    log(`${benchmark.title}: not measured yet (${benchmark.pending})`);
    results.push(benchmark);
    continue;
  }
  log(`\n== ${benchmark.title}`);
  const began = performance.now();
  results.push(await benchmark.run({ quick, hosts, log }));
  log(`== ${benchmark.title}: ${((performance.now() - began) / 1000).toFixed(1)} s`);
}

const session: Session = {
  command: ['npm run bench', ...(args.length > 0 ? ['--', ...args] : [])].join(' '),
  quick,
  partial: names.length > 0,
  startedAt: startedAt.toISOString(),
  durationSeconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
  machine,
  loadAverageAtEnd: loadAverageNow(),
  versions: versions(),
  results,
};

const markdown = renderMarkdown(session);
if (quick || names.length > 0) {
  process.stdout.write(markdown);
} else {
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(REPORT, markdown);
  writeFileSync(`${RESULTS_DIR}latest.json`, renderJson(session));
  log(`\nwrote BENCHMARKS.md and bench/results/latest.json (${session.durationSeconds} s)`);
}
// A host stuck past its bound may still hold handles; the report is out, so leave now.
process.exit(0);
