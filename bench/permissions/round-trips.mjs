// Child process of the permission benchmark: one host answers the fake CLI's can_use_tool requests, with
// nothing else in the process (so its CPU time is its own, and it can be pinned to a core as a whole with
// the fake CLI it starts). Plain JavaScript run by plain `node`, as a client runs: no TypeScript loader
// in the measured process (tsx's loader thread would otherwise work beside Warden's many modules, and
// not beside the official SDK's one bundle). Warden is the built package (dist/, which the benchmark
// builds first), the official SDK its published bundle.
//
// The fake CLI sends 2 × <requests> requests. The first <requests> are a new process's first (*cold*:
// V8 is still compiling the code on the path, on the same core), the next <requests> the same process
// warmed up (*steady*). Prints one JSON line: for each phase the p50 and p99 of the round trips as the
// CLI timed them (µs) and the host's CPU per round trip (µs) over that phase.
// Usage: node bench/permissions/round-trips.mjs <warden|official> <requests>
import { writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const RUN_MARKER_VARIABLE = 'WARDEN_BENCH_RUN';
const BENCH_CLI = fileURLToPath(new URL('../fake-cli/bench-cli.mjs', import.meta.url));
const WARDEN = new URL('../../dist/index.js', import.meta.url).href;

const [host, requestsArg] = process.argv.slice(2);
const requests = Number(requestsArg);
if (!['warden', 'official'].includes(host) || !(requests > 0))
  throw new TypeError('usage: round-trips.mjs <warden|official> <requests>');
const { query } = await import(host === 'warden' ? WARDEN : '@anthropic-ai/claude-agent-sdk');

/** Nearest rank, as bench/lib/stats.ts computes it. */
function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

// CPU at the first request of each phase, and at the result.
const marks = [];
let answered = 0;
const q = query({
  prompt: 'go',
  options: {
    pathToClaudeCodeExecutable: BENCH_CLI,
    // As bench/lib/fake-cli.ts: the official SDK runs a .mjs CLI with `node` from PATH.
    env: {
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      [RUN_MARKER_VARIABLE]: process.env[RUN_MARKER_VARIABLE] ?? '',
      BENCH_MODE: 'permissions',
      BENCH_COUNT: String(2 * requests),
    },
    // Warden reports leftovers it killed and similar events here; the official SDK has no equivalent.
    ...(host === 'warden' ? { onWarning: () => undefined } : {}),
    canUseTool: (_toolName, input) => {
      if (answered % requests === 0) marks.push(process.cpuUsage());
      answered += 1;
      return Promise.resolve({ behavior: 'allow', updatedInput: input });
    },
  },
});
let latencies;
for await (const message of q) {
  if (message.type !== 'result') continue;
  marks.push(process.cpuUsage());
  latencies = message.bench_latencies_ms;
}
if (latencies?.length !== 2 * requests || marks.length !== 3)
  throw new Error(`the CLI reported ${latencies?.length ?? 0} of ${2 * requests} round trips`);
const phase = (index) => {
  // The CLI reports milliseconds; a round trip is a fraction of one, so µs read better.
  const times = latencies.slice(index * requests, (index + 1) * requests);
  const cpu =
    (marks[index + 1].user + marks[index + 1].system - marks[index].user - marks[index].system) / requests;
  return { p50: percentile(times, 50) * 1000, p99: percentile(times, 99) * 1000, cpuPerRequest: cpu };
};
writeSync(1, `${JSON.stringify({ cold: phase(0), steady: phase(1) })}\n`);
process.exit(0);
