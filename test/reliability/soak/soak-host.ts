// The soak's host process (run with `node --expose-gc --import tsx`): a Supervisor and the HTTP/WebSocket
// server `warden serve` runs, on the data directory it is given. Threads whose cwd lies under
// `scriptedRoot` run a ScriptedCli in this process (through query()'s spawnClaudeCodeProcess, so every
// frame crosses the real line decoder, control channel and session); the others run the real Claude Code
// CLI, detached, as `warden serve` does. It reports JSON lines on stdout — `{"ready":…}` once listening,
// then `{"sample":…}` when asked — and obeys JSON lines on stdin: `{"sample":t}`, `{"crash":n}` (n random
// scripted CLIs die as if SIGKILLed), `{"close":true}` (stop every agent, close, exit 0). The driver kills
// it with SIGKILL to test a host crash. argv[2]: JSON HostConfig.
import { createInterface } from 'node:readline';

import { createServer } from '../../../src/server/index.js';
import { query as wardenQuery } from '../../../src/session/query.js';
import { Supervisor, type QueryFunction } from '../../../src/supervisor/index.js';
import { HostMetrics } from './host-metrics.js';
import { pick, seeded } from './random.js';
import { ScriptedCli } from './scripted-cli.js';

export interface HostConfig {
  dataDir: string;
  claudePath: string;
  /** The real CLIs' environment (offline, answered by the mock model). */
  env: Record<string, string>;
  /** The real CLIs' HOME, to count their processes. */
  home: string;
  scriptedRoot: string;
  defaultCwd: string;
  seed: number;
  /** The longest pause between two steps of a scripted turn. */
  maxStepMs: number;
  /** This host's lifetime number (1 for the first). */
  lifetime: number;
}

const config = JSON.parse(process.argv[2] ?? '{}') as HostConfig;
const report = (line: Record<string, unknown>): void =>
  void process.stdout.write(`${JSON.stringify(line)}\n`);
const random = seeded(config.seed);
const scripted = new Set<ScriptedCli>();
const warnings = new Map<string, number>();
/** The first message of each warning code, to tell the expected ones (a crash's cut frame) from others. */
const examples = new Map<string, string>();

const query: QueryFunction = ({ prompt, options }) => {
  if (options.cwd === undefined || !options.cwd.startsWith(config.scriptedRoot))
    return wardenQuery({ prompt, options });
  // A scripted CLI lives and dies with this process, as a piped child does: no detached transport.
  const { cliTransport: _detached, ...piped } = options;
  return wardenQuery({
    prompt,
    options: {
      ...piped,
      spawnClaudeCodeProcess: ({ args }) => {
        const cli = new ScriptedCli({ random, maxStepMs: config.maxStepMs }, args);
        scripted.add(cli);
        cli.once('exit', () => scripted.delete(cli));
        return cli;
      },
    },
  });
};

const sup = await Supervisor.open({
  dataDir: config.dataDir,
  claudePath: config.claudePath,
  env: config.env,
  query,
  onWarning: (warning) => {
    warnings.set(warning.code, (warnings.get(warning.code) ?? 0) + 1);
    if (!examples.has(warning.code)) examples.set(warning.code, warning.message.slice(0, 300));
  },
});
const unexpected: string[] = [];
const server = await createServer({
  supervisor: sup,
  dataDir: config.dataDir,
  defaultCwd: config.defaultCwd,
  onError: (error) =>
    unexpected.push(error instanceof Error ? (error.stack ?? error.message) : String(error)),
});
const metrics = new HostMetrics(config.home);
report({ ready: { url: server.url, token: server.token, pid: process.pid, recovered: sup.recovered } });

let closing = false;
for await (const line of createInterface({ input: process.stdin })) {
  const command = JSON.parse(line) as { sample?: number; crash?: number; close?: boolean };
  if (command.sample !== undefined) {
    const sample = metrics.sample(command.sample, config.lifetime, {
      webSocketClients: server.openSockets,
      scriptedClis: scripted.size,
      liveThreads: sup.listThreads().filter((thread) => thread.status === 'live').length,
      pendingApprovals: sup.listApprovals({ status: 'pending' }).length,
      lastSeq: sup.lastSeq(),
    });
    report({
      sample,
      warnings: Object.fromEntries(warnings),
      examples: Object.fromEntries(examples),
      unexpected: unexpected.splice(0),
    });
  }
  if (command.crash !== undefined) {
    let crashed = 0;
    for (let i = 0; i < command.crash; i += 1) {
      const cli = pick(
        random,
        [...scripted].filter((c) => c.live),
      );
      if (cli === undefined) break;
      cli.crash();
      crashed += 1;
    }
    report({ crashed });
  }
  if (command.close === true) {
    closing = true;
    break;
  }
}
// Asked to close, or the driver went away (stdin ended): stop everything, as `warden serve --stop-agents`.
metrics.stop();
await server.close();
await sup.close({ stopAgents: true });
report({ closed: { scriptedLeft: scripted.size, asked: closing, unexpected } });
process.exit(0);
