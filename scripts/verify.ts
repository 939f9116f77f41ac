// `npm run verify -- --minutes N [--seed S] [--hosts H] [--proof]`: drives a fleet of `warden serve` hosts on
// one PostgreSQL through faults (test/verify/run-verify.ts), checks the whole history, and writes
// VERIFICATION.md at the repository root. The seed is printed; the same seed replays the fault schedule and
// the people's choices. With --proof it runs the two proof runs instead (a broken compare-and-set, dropped
// NOTIFY; N minutes each, no other faults) and records what the checker said of them in
// docs/reliability/verify-proofs.md. Exits 1 when a (non-proof) run has an anomaly.
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

import { runVerify, type VerifyResult } from '../test/verify/run-verify.js';
import { proofReport, verificationReport, type ProofRun } from '../test/verify/report.js';

const args = process.argv.slice(2);
const valueOf = (flag: string): string | undefined => {
  const at = args.indexOf(flag);
  return at < 0 ? undefined : args[at + 1];
};
const log = (line: string): void => void process.stderr.write(`${line}\n`);
const minutes = Number(valueOf('--minutes') ?? 5);
const seed = Number(valueOf('--seed') ?? Math.floor(Math.random() * 2 ** 31));
const hosts = Number(valueOf('--hosts') ?? 3);
if (!(minutes > 0) || !Number.isInteger(seed) || !(hosts >= 2)) {
  console.error('usage: npm run verify -- --minutes N [--seed S] [--hosts H] [--proof]');
  process.exit(2);
}
log(`verify: seed ${seed} (replay with --seed ${seed})`);
const loadAtStart = loadavg().map((n) => Math.round(n * 100) / 100);
const command = `npm run verify -- ${args.join(' ')}`.trim();
if (args.includes('--proof')) {
  // Everyone decides at once, so that races between hosts happen in the time.
  const proof = { seconds: minutes * 60, seed, hosts, faults: [], raceMs: 0, lanes: 3, log };
  const brokenCas = fileURLToPath(new URL('../test/verify/broken-cas.ts', import.meta.url));
  const proofs: ProofRun[] = [
    {
      name: 'A broken compare-and-set (every host imports test/verify/broken-cas.ts)',
      result: await runVerify({ ...proof, preload: brokenCas }),
    },
    {
      name: "Dropped NOTIFY (every host's proxy drops PostgreSQL's NotificationResponse messages)",
      result: await runVerify({ ...proof, dropNotify: true }),
    },
  ];
  const loadAtEnd = loadavg().map((n) => Math.round(n * 100) / 100);
  writeFileSync(
    fileURLToPath(new URL('../docs/reliability/verify-proofs.md', import.meta.url)),
    proofReport({ command, cores: cpus().length, loadAtStart, loadAtEnd, proofs }),
  );
  for (const { name, result } of proofs) log(`${name}: ${result.anomalies.length} anomalies`);
  process.exit(0);
}
const main: VerifyResult = await runVerify({ seconds: minutes * 60, seed, hosts, log });
const loadAtEnd = loadavg().map((n) => Math.round(n * 100) / 100);
writeFileSync(
  fileURLToPath(new URL('../VERIFICATION.md', import.meta.url)),
  verificationReport({ command, cores: cpus().length, loadAtStart, loadAtEnd, main }),
);
for (const anomaly of main.anomalies)
  log(`ANOMALY ${anomaly.kind} ${anomaly.approvalId ?? ''}: ${anomaly.detail}`);
log(`verify: ${main.operations} operations, ${main.approvals} approvals, ${main.anomalies.length} anomalies`);
process.exit(main.anomalies.length === 0 ? 0 : 1);
