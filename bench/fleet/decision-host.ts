// Child process of the fleet-decision-latency benchmark: a Supervisor on the given data directory (SQLite,
// or a named host of a PostgreSQL fleet) whose CLI is bench/fleet/decision-cli.mjs — a process of its own,
// spawned as the real CLI is — behind createServer() on 127.0.0.1. Prints JSON lines; reads commands, one
// JSON line each, on stdin:
//   {cmd:'start', cwd}          create a supervised thread here and send it a prompt → {event:'started'}
//   {cmd:'await', toolUseId}    once that request's approval is pending here → {event:'visible', approvalId}
//   {cmd:'decide', toolUseId}   the same, then allows it with supervisor.decide(), taking the wall clock just
//                               before the call → {event:'decided', calledAt, resolvedAt}
// Any failure is a line {event:'failed', error}. Closes the server and the supervisor (stopping its CLIs)
// and exits when its stdin ends; the parent owns and removes the data directory.
// Usage: node --import tsx bench/fleet/decision-host.ts '<DecisionHostConfig as JSON>'
import { writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { createServer } from '../../src/server/index.js';
import { Supervisor } from '../../src/supervisor/index.js';
import { wallClock } from '../lib/fake-cli.js';

export const DECISION_CLI = fileURLToPath(new URL('./decision-cli.mjs', import.meta.url));

export interface DecisionHostConfig {
  readonly dataDir: string;
  /** The CLI's whole environment (BENCH_COUNT, BENCH_RECEIPTS, PATH, the run's marker). */
  readonly cliEnv: Record<string, string>;
  /** A postgres:// URL: the log lives there, and this process joins its fleet as `hostName`. */
  readonly store?: string;
  readonly hostName?: string;
}

export type DecisionCommand =
  | { readonly cmd: 'start'; readonly cwd: string }
  | { readonly cmd: 'await' | 'decide'; readonly toolUseId: string };

export type DecisionHostMessage =
  | { readonly event: 'ready'; readonly url: string; readonly token: string }
  | { readonly event: 'started' }
  | { readonly event: 'visible'; readonly toolUseId: string; readonly approvalId: string }
  | {
      readonly event: 'decided';
      readonly toolUseId: string;
      /** Wall clock (ms) just before supervisor.decide() was called, and when its promise resolved. */
      readonly calledAt: number;
      readonly resolvedAt: number;
    }
  | { readonly event: 'failed'; readonly error: string };

const say = (message: DecisionHostMessage): void => void writeSync(1, `${JSON.stringify(message)}\n`);
const describe = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);

const config = JSON.parse(process.argv[2] ?? '') as DecisionHostConfig;
const problems: string[] = [];
const supervisor = await Supervisor.open({
  dataDir: config.dataDir,
  claudePath: DECISION_CLI,
  env: config.cliEnv,
  ...(config.store === undefined
    ? {}
    : { store: config.store, host: { name: config.hostName ?? `bench-${process.pid}` } }),
  onWarning: (warning) => problems.push(`warning ${describe(warning)}`),
});
const server = await createServer({
  supervisor,
  dataDir: config.dataDir,
  onError: (error) => problems.push(`server error ${describe(error)}`),
});

// Every approval this host has seen requested, by the CLI's tool use id; and who waits for one.
const requested = new Map<string, string>();
const waiting = new Map<string, (approvalId: string) => void>();
const following = new AbortController();
void (async () => {
  for await (const event of supervisor.events({ signal: following.signal })) {
    if (event.type !== 'approval.requested') continue;
    requested.set(event.data.toolUseId, event.data.approvalId);
    waiting.get(event.data.toolUseId)?.(event.data.approvalId);
    waiting.delete(event.data.toolUseId);
  }
})().catch((error: unknown) => problems.push(`events ${describe(error)}`));

function visible(toolUseId: string): Promise<string> {
  const known = requested.get(toolUseId);
  if (known !== undefined) return Promise.resolve(known);
  return new Promise((resolve) => waiting.set(toolUseId, resolve));
}

async function run(command: DecisionCommand): Promise<void> {
  if (command.cmd === 'start') {
    const thread = await supervisor.createThread({ cwd: command.cwd, mode: 'supervised' });
    await supervisor.send(thread.id, 'go');
    say({ event: 'started' });
    return;
  }
  const approvalId = await visible(command.toolUseId);
  if (command.cmd === 'await') {
    say({ event: 'visible', toolUseId: command.toolUseId, approvalId });
    return;
  }
  const calledAt = wallClock();
  await supervisor.decide(approvalId, { behavior: 'allow' });
  const resolvedAt = wallClock();
  say({ event: 'decided', toolUseId: command.toolUseId, calledAt, resolvedAt });
}

say({ event: 'ready', url: server.url, token: server.token });

let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  pending += chunk;
  for (let newline = pending.indexOf('\n'); newline !== -1; newline = pending.indexOf('\n')) {
    const line = pending.slice(0, newline);
    pending = pending.slice(newline + 1);
    if (line.trim() === '') continue;
    run(JSON.parse(line) as DecisionCommand).catch((error: unknown) =>
      say({ event: 'failed', error: describe(error) }),
    );
  }
});
await new Promise<void>((resolve) => process.stdin.once('end', resolve).once('close', resolve));
following.abort();
await server.close();
await supervisor.close({ stopAgents: true });
if (problems.length > 0) {
  process.stderr.write(`${problems.join('; ')}\n`);
  process.exit(1);
}
process.exit(0);
