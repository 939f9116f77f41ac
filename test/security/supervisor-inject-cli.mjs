#!/usr/bin/env node
// Runs the real CLI (WARDEN_INJECT_CLI) with its stdin and stdout passed through line by line, and writes
// extra lines to the host as if the CLI had written them: WARDEN_INJECT_AFTER_INIT (a JSON array of frames)
// right after the CLI's first system/init of each turn numbered in WARDEN_INJECT_TURNS (default "1"). Every
// line the host writes is appended to WARDEN_INJECT_LOG. Plain Node, no dependencies.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const cli = process.env.WARDEN_INJECT_CLI;
const frames = JSON.parse(process.env.WARDEN_INJECT_AFTER_INIT ?? '[]');
const turns = new Set((process.env.WARDEN_INJECT_TURNS ?? '1').split(',').map(Number));
const log = process.env.WARDEN_INJECT_LOG;
if (cli === undefined) {
  process.stderr.write('inject-cli: WARDEN_INJECT_CLI is not set\n');
  process.exit(64);
}

const child = spawn(cli, process.argv.slice(2), { stdio: ['pipe', 'pipe', 'inherit'] });
child.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 1 : 128)));
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => child.kill(sig));

createInterface({ input: process.stdin }).on('line', (line) => {
  if (log !== undefined) appendFileSync(log, `${line}\n`);
  child.stdin.write(`${line}\n`);
});
process.stdin.on('end', () => child.stdin.end());

let inits = 0;
createInterface({ input: child.stdout }).on('line', (line) => {
  process.stdout.write(`${line}\n`);
  let frame;
  try {
    frame = JSON.parse(line);
  } catch {
    return;
  }
  if (frame?.type !== 'system' || frame.subtype !== 'init') return;
  inits += 1;
  if (!turns.has(inits)) return;
  for (const extra of frames) process.stdout.write(`${JSON.stringify(extra)}\n`);
});
