// Child process of the real-CLI benchmark: one host runs one query against the real Claude Code CLI
// (pointed at the benchmark's mock model), with nothing else in the process, so that process.cpuUsage()
// is the host's own. Prints JSON lines: {event:'root-result'} at the first result (the mock waits for it
// in the background-subagent scenario), then {event:'done', …}.
// Usage: node --import tsx bench/real-cli/host-run.ts '<json RunConfig>'
import { writeSync } from 'node:fs';
import { loadHost, type HostName } from '../lib/hosts.js';

export interface RunConfig {
  readonly host: HostName;
  readonly prompt: string;
  readonly cli: string;
  readonly cwd: string;
  readonly env: Record<string, string>;
}

export interface RunReport {
  readonly event: 'done';
  readonly wallMs: number;
  /** From query() to the first message the host yielded (the CLI's startup, mostly). */
  readonly firstMessageMs: number | undefined;
  /** From the last `result` to the end of iteration: the host's shutdown path. */
  readonly afterLastResultMs: number | undefined;
  readonly cpuMs: number;
  readonly asks: readonly { toolName: string; agentID: string | undefined }[];
  readonly results: readonly { subtype: unknown; result: unknown }[];
  readonly error: string | undefined;
}

const config = JSON.parse(process.argv[2] ?? '') as RunConfig;
const query = await loadHost(config.host);
const print = (message: object): void => void writeSync(1, `${JSON.stringify(message)}\n`);

const asks: { toolName: string; agentID: string | undefined }[] = [];
const results: { subtype: unknown; result: unknown }[] = [];
let error: string | undefined;
let firstMessageAt: number | undefined;
let lastResultAt: number | undefined;
const cpuBefore = process.cpuUsage();
const startedAt = performance.now();
try {
  const q = query({
    prompt: config.prompt,
    options: {
      pathToClaudeCodeExecutable: config.cli,
      cwd: config.cwd,
      env: config.env,
      canUseTool: (toolName, input, { agentID }) => {
        asks.push({ toolName, agentID });
        return Promise.resolve({ behavior: 'allow', updatedInput: input });
      },
    },
  });
  for await (const message of q) {
    firstMessageAt ??= performance.now();
    if (message.type !== 'result') continue;
    lastResultAt = performance.now();
    results.push({ subtype: message.subtype, result: message.result });
    if (results.length === 1) print({ event: 'root-result' });
  }
} catch (thrown) {
  error = thrown instanceof Error ? thrown.message.split('\n')[0] : String(thrown);
}
const endedAt = performance.now();
const cpu = process.cpuUsage(cpuBefore);
const report: RunReport = {
  event: 'done',
  wallMs: endedAt - startedAt,
  firstMessageMs: firstMessageAt === undefined ? undefined : firstMessageAt - startedAt,
  afterLastResultMs: lastResultAt === undefined ? undefined : endedAt - lastResultAt,
  cpuMs: (cpu.user + cpu.system) / 1000,
  asks,
  results,
  error,
};
print(report);
process.exit(0);
