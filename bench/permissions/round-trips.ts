// Child process of the permission benchmark: one host answers the fake CLI's can_use_tool requests, with
// nothing else in the process (so its CPU time is its own, and it can be pinned to a core as a whole with
// the fake CLI it starts). Prints one JSON line: p50 and p99 of the round trips as the CLI timed them (µs)
// and the host's CPU per round trip (µs), from the first request to the result (spawn and exit excluded).
// Usage: node --import tsx bench/permissions/round-trips.ts <warden|official> <requests>
import { writeSync } from 'node:fs';
import { BENCH_CLI, benchCliEnv } from '../lib/fake-cli.js';
import { allowAll, HOST_NAMES, loadHost, type HostName } from '../lib/hosts.js';
import { RUN_MARKER_VARIABLE } from '../lib/processes.js';
import { percentile } from '../lib/stats.js';

export interface RoundTripSample {
  readonly p50: number;
  readonly p99: number;
  readonly cpuPerRequest: number;
}

const [hostArg, requestsArg] = process.argv.slice(2);
if (!HOST_NAMES.includes(hostArg as HostName)) throw new TypeError('usage: round-trips.ts <host> <requests>');
const requests = Number(requestsArg);
const query = await loadHost(hostArg as HostName);

let cpuBefore: NodeJS.CpuUsage | undefined;
let cpuAtResult: NodeJS.CpuUsage | undefined;
const q = query({
  prompt: 'go',
  options: {
    pathToClaudeCodeExecutable: BENCH_CLI,
    env: benchCliEnv(process.env[RUN_MARKER_VARIABLE] ?? '', {
      BENCH_MODE: 'permissions',
      BENCH_COUNT: String(requests),
    }),
    canUseTool: (toolName, input, context) => {
      cpuBefore ??= process.cpuUsage();
      return allowAll(toolName, input, context);
    },
  },
});
let latencies: number[] | undefined;
for await (const message of q) {
  if (message.type !== 'result') continue;
  cpuAtResult = process.cpuUsage(cpuBefore);
  latencies = message.bench_latencies_ms as number[];
}
if (latencies?.length !== requests || cpuAtResult === undefined)
  throw new Error(`the CLI reported ${latencies?.length ?? 0} of ${requests} round trips`);
const sample: RoundTripSample = {
  // The CLI reports milliseconds; a round trip is a fraction of one, so µs read better.
  p50: percentile(latencies, 50) * 1000,
  p99: percentile(latencies, 99) * 1000,
  cpuPerRequest: (cpuAtResult.user + cpuAtResult.system) / requests,
};
writeSync(1, `${JSON.stringify(sample)}\n`);
process.exit(0);
