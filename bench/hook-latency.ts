// What `warden hook run` costs a Claude Code session on every reported event, with the built command
// (`npm run build` first: the checkout's tsx loader would be measured otherwise). Median of N runs each:
// bare `node -e 0` (the floor), the hook with no server reachable (it must print nothing and exit at once),
// a report that needs no answer (UserPromptSubmit: start, HTTP, commit, exit), and a PermissionRequest
// answered by the API as soon as its approval exists (the decision's round trip to the CLI's stdin).
// Run: npm run build && node --import tsx bench/hook-latency.ts [runs]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { DeciderTokens } from '../src/server/deciders.js';
import { createServer } from '../src/server/index.js';
import { Supervisor } from '../src/supervisor/index.js';

const runs = Number(process.argv[2] ?? 15);
const MAIN = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
if (!existsSync(MAIN)) {
  console.error(`${MAIN} is missing: run npm run build first`);
  process.exit(1);
}

function timed(args: string[], stdin: string, onSpawned?: () => void): Promise<{ ms: number; out: string }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('close', () => resolve({ ms: performance.now() - started, out }));
    child.stdin.end(stdin);
    onSpawned?.();
  });
}

function median(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted[Math.floor(sorted.length / 2)] ?? 0;
  return `${mid.toFixed(0)} ms (${(sorted[0] ?? 0).toFixed(0)}–${(sorted.at(-1) ?? 0).toFixed(0)})`;
}

const dir = mkdtempSync(join(tmpdir(), 'warden-hook-bench-'));
try {
  const dataDir = join(dir, 'data');
  const supervisor = await Supervisor.open({ dataDir });
  const server = await createServer({ supervisor, dataDir, port: 0 });
  const { token } = new DeciderTokens(dataDir).create('hook', { role: 'hook' });
  const live = join(dir, 'live.json');
  const dead = join(dir, 'dead.json');
  writeFileSync(live, JSON.stringify({ token, url: server.url, waitMs: 30_000 }));
  writeFileSync(dead, JSON.stringify({ token, url: 'http://127.0.0.1:9' }));
  const hook = (event: string, config: string) => [MAIN, 'hook', 'run', event, '--config', config];
  const payload = (i: number, extra: Record<string, unknown>) =>
    JSON.stringify({ session_id: `bench-${i}`, cwd: dir, ...extra });

  const floor: number[] = [];
  const unreachable: number[] = [];
  const report: number[] = [];
  const asked: number[] = [];
  const decision: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    floor.push((await timed(['-e', '0'], '')).ms);
    const none = await timed(
      hook('PermissionRequest', dead),
      payload(i, { tool_name: 'Bash', tool_input: {} }),
    );
    if (none.out !== '') throw new Error(`the hook printed ${none.out} with no server`);
    unreachable.push(none.ms);
    report.push((await timed(hook('UserPromptSubmit', live), payload(i, { prompt: 'bench' }))).ms);
    // Answered the moment the approval is in the store (polled: this measures the hook, not a person).
    let approvedAt = 0;
    const answered = timed(
      hook('PermissionRequest', live),
      payload(i, { tool_name: 'Bash', tool_input: { command: `touch f${i}` } }),
    );
    for (;;) {
      const [pending] = supervisor.listApprovals({ status: 'pending' });
      if (pending !== undefined) {
        await supervisor.decide(pending.id, { behavior: 'allow' });
        approvedAt = performance.now();
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const { ms, out } = await answered;
    if (!out.includes('"allow"')) throw new Error(`the hook printed ${out}`);
    asked.push(ms);
    decision.push(performance.now() - approvedAt);
  }
  console.log(`node -e 0 (the floor)             ${median(floor)}`);
  console.log(`hook, no server reachable         ${median(unreachable)}`);
  console.log(`hook, UserPromptSubmit recorded   ${median(report)}`);
  console.log(`hook, PermissionRequest answered  ${median(asked)} (start to exit, answered at once)`);
  console.log(`  decision committed -> hook exit ${median(decision)}`);
  await server.close();
  await supervisor.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
