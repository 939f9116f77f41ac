// VERIFICATION.md: what a verify run checked and found, with the seed that replays it, the machine's load
// and the command; then the proof runs, where the checker must report the anomaly that was planted.
import type { VerifyResult } from './run-verify.js';

export interface ProofRun {
  readonly name: string;
  readonly result: VerifyResult;
}

export interface ReportInput {
  readonly command: string;
  readonly cores: number;
  readonly loadAtStart: readonly number[];
  readonly loadAtEnd: readonly number[];
  readonly main: VerifyResult;
}

function figures(result: VerifyResult): string[] {
  const faults = Object.entries(result.faults).map(([kind, n]) => `${kind} ${n}`);
  const ops = Object.entries(result.operationsByKind).map(([kind, n]) => `${kind} ${n}`);
  return [
    `- Seed: ${result.seed} (\`--seed ${result.seed}\` replays the fault schedule and the people's choices)`,
    `- Duration: ${result.seconds} s; rounds played: ${result.rounds} (${result.unsettledRounds} did not settle within the round's 60 s)`,
    `- Histories checked: ${result.approvals} approvals, over one history of ${result.operations} operations (${ops.join(', ')})`,
    `- Events in the log: ${result.events}`,
    `- Faults injected: ${faults.join(', ')}`,
    `- From a winning decide's answer to its tool result at the mock: median ${result.deliveryMs.median} ms, slowest ${result.deliveryMs.max} ms`,
    ...(result.notificationsDropped > 0 ? [`- NOTIFY messages dropped: ${result.notificationsDropped}`] : []),
    `- Anomalies found: ${result.anomalies.length}`,
  ];
}

function anomalies(result: VerifyResult): string[] {
  if (result.anomalies.length === 0) return [];
  const lines = result.anomalies
    .slice(0, 20)
    .map((a) => `${a.kind}${a.approvalId === undefined ? '' : ` ${a.approvalId}`}: ${a.detail}`);
  const more = result.anomalies.length > 20 ? [`… and ${result.anomalies.length - 20} more`] : [];
  return ['', '```', ...lines, ...more, '```'];
}

const INTRO = [
  'A fleet of `warden serve` hosts on one real PostgreSQL, the real Claude Code CLI answered by the mock',
  'model, simulated people racing each other over HTTP from every host, WebSocket clients on every host, and',
  'faults injected one after another: hosts SIGKILLed and restarted, hosts paused (SIGSTOP) past their lease',
  "and resumed, each host's link to PostgreSQL cut, delayed and reset through a TCP proxy, PostgreSQL",
  'restarted. The history checker (test/verify/checker.ts) proves over the whole history: one winner per',
  'approval; no decision applied twice to a CLI; no acknowledged decision lost; status monotone on each',
  'host; every event a WebSocket client saw is in the log, in order; deadlines never fire before their time.',
];

const machine = (input: Omit<ReportInput, 'main'>): string =>
  `Machine: ${input.cores} cores; load average (1, 5, 15 min) ${input.loadAtStart.join(', ')} at the start, ${input.loadAtEnd.join(', ')} at the end; Node ${process.version}.`;

export function verificationReport(input: ReportInput): string {
  return [
    '# Verification',
    '',
    ...INTRO,
    '',
    `Command: \`${input.command}\``,
    '',
    machine(input),
    '',
    '## The run',
    '',
    ...figures(input.main),
    ...anomalies(input.main),
    '',
    'That the checker can fail — a broken compare-and-set and dropped NOTIFY, the same runner with the',
    'anomaly planted — is shown in docs/reliability/verify-proofs.md (`npm run verify -- --proof`).',
    '',
  ].join('\n');
}

export function proofReport(input: Omit<ReportInput, 'main'> & { proofs: readonly ProofRun[] }): string {
  return [
    '# The verify checker can fail',
    '',
    'The runner of VERIFICATION.md with an anomaly planted on purpose and no other faults; everyone decides at',
    'once. What the checker reported of each run is below. A broken compare-and-set lets a second decision',
    'through, and the checker reports two winners. Dropped NOTIFY is not an anomaly of the guarantees: each',
    "host's one-second sweep of the log still delivers every decision and every event (on this loaded",
    'machine no slower that the run could tell), so the checker rightly finds none: the row is the truth.',
    '',
    `Command: \`${input.command}\``,
    '',
    machine(input),
    ...input.proofs.flatMap((proof) => [
      '',
      `## ${proof.name}`,
      '',
      ...figures(proof.result),
      ...anomalies(proof.result),
    ]),
    '',
  ].join('\n');
}
