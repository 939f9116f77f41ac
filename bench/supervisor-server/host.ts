// Child process of the supervisor-server and fleet-fanout benchmarks: a Supervisor on the given data
// directory (SQLite, WAL, group commit, as it always opens it; or a named host of a PostgreSQL fleet)
// whose CLI is the scripted one, behind createServer() on 127.0.0.1. The benchmark's clients live in the parent, so that their work is not on this event loop.
// Prints JSON lines: `ready` ({url, token}) once listening, `turn` (the scripted CLI's report, plus the
// log's last seq) when the turn has ended, and `cpu` (this process's CPU time so far) for each `cpu` line
// on stdin. Closes the server and the supervisor and exits when its stdin ends (the parent is done, or
// gone); the parent owns and removes the data directory.
// Usage: node --import tsx bench/supervisor-server/host.ts '<HostConfig as JSON>'
import { writeSync } from 'node:fs';

import { createServer } from '../../src/server/index.js';
import { Supervisor } from '../../src/supervisor/index.js';
import { scriptedQuery, type Script, type TurnReport } from './scripted-cli.js';

export interface HostConfig {
  readonly dataDir: string;
  readonly script: Script;
  /** A postgres:// URL: the log lives there, and this process joins its fleet as `hostName`. */
  readonly store?: string;
  readonly hostName?: string;
  /** Threads that play the script, each its own CLI; `turn` waits for all of them. Default 1. */
  readonly agents?: number;
}

export type HostMessage =
  | { readonly event: 'ready'; readonly url: string; readonly token: string }
  | {
      readonly event: 'turn';
      readonly report: TurnReport;
      /** Every thread's report (`report` is the first). */
      readonly reports: TurnReport[];
      readonly lastSeq: number;
      /** Warnings and server errors seen so far (each a failure of the run). */
      readonly problems: string[];
    }
  | { readonly event: 'cpu'; readonly us: number };

const say = (message: HostMessage): void => void writeSync(1, `${JSON.stringify(message)}\n`);

const config = JSON.parse(process.argv[2] ?? '') as HostConfig;
const problems: string[] = [];
const reports: TurnReport[] = [];
const describe = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);

const supervisor = await Supervisor.open({
  dataDir: config.dataDir,
  ...(config.store === undefined
    ? {}
    : { store: config.store, host: { name: config.hostName ?? `bench-${process.pid}` } }),
  query: scriptedQuery(config.script, (report) => {
    reports.push(report);
    if (reports.length < (config.agents ?? 1)) return;
    // Called once the turn's result frame has been read and committed (run.ended with it): once that is
    // on disk and shown to readers, the log's last seq is the last event the clients must see.
    const turn = (): void =>
      say({
        event: 'turn',
        report: reports[0]!,
        reports,
        lastSeq: supervisor.lastSeq(),
        problems: [...problems],
      });
    supervisor.durable().then(turn, (error: unknown) => {
      problems.push(`durable ${describe(error)}`);
      turn();
    });
  }),
  onWarning: (warning) => problems.push(`warning ${describe(warning)}`),
});
const server = await createServer({
  supervisor,
  dataDir: config.dataDir,
  onError: (error) => problems.push(`server error ${describe(error)}`),
});
say({ event: 'ready', url: server.url, token: server.token });

process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  for (const line of chunk.split('\n')) {
    if (line.trim() !== 'cpu') continue;
    const cpu = process.cpuUsage();
    say({ event: 'cpu', us: cpu.user + cpu.system });
  }
});
await new Promise<void>((resolve) => process.stdin.once('end', resolve).once('close', resolve));
await server.close();
await supervisor.close({ stopAgents: true });
process.exit(0);
