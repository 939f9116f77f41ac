// `warden policy simulate`: a proposed change replayed over the recorded requests (docs/decisions.md).
// With the data directory's server running it asks the server (its store is locked to everyone else);
// without one it opens the store itself for the length of the simulation, changing nothing. The
// sandbox's state is this machine's (probed as a server would), so the policy is the one that would run.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { decidedOtherwise, type Simulation, type SimulatedRequest } from '../policy/simulate.js';
import { openStore } from '../store/open-store.js';
import { simulateOverLog } from '../supervisor/approvals/simulation.js';
import { probeSandbox } from '../supervisor/runtime/sandbox-probe.js';
import { DATABASE_FILE } from '../supervisor/supervisor.js';
import { terminalSafe } from '../view/visible-text.js';
import type { CommandOf } from './args/index.js';
import { ServerClient } from './client/server-client.js';
import { defaultDataDir } from './data-dir.js';

type PolicyCommand = CommandOf<'policy'>;
type Answer = Pick<Simulation, 'summary' | 'text'> & { requests: readonly SimulatedRequest[]; more: number };

/** How many requests decided otherwise the terminal lists (all of them with --json). */
const LISTED = 20;

export async function policyCommand(command: PolicyCommand): Promise<number> {
  const dataDir = command.dataDir ?? defaultDataDir();
  const client = ServerClient.locate(dataDir, command);
  const body = {
    scope: command.scope,
    change: command.change,
    ...(command.since === undefined ? {} : { since: command.since }),
    ...(command.until === undefined ? {} : { until: command.until }),
  };
  const answer =
    client !== undefined
      ? await client.post<Answer>('/api/policy/simulate', { ...body, limit: 5000 }, { timeoutMs: 0 })
      : here(dataDir, body);
  if (answer === undefined) {
    process.stderr.write(`warden: no store in ${dataDir}: nothing has been recorded there\n`);
    return 1;
  }
  if (command.json === true) process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
  else print(answer);
  return 0;
}

function here(dataDir: string, body: Parameters<typeof simulateOverLog>[1]): Answer | undefined {
  if (!existsSync(join(dataDir, DATABASE_FILE))) return undefined;
  const store = openStore(dataDir);
  try {
    const simulation = simulateOverLog(store, body, probeSandbox(process.env).available);
    const changed = simulation.requests.filter(decidedOtherwise);
    return { summary: simulation.summary, text: simulation.text, requests: changed, more: 0 };
  } finally {
    store.close();
  }
}

function subject(request: SimulatedRequest): string {
  const { input } = request;
  const value = input.command ?? input.file_path ?? input.notebook_path ?? input.url ?? input.path;
  const text = typeof value === 'string' ? value : JSON.stringify(input);
  const line = text.replace(/\s+/gu, ' ');
  // Model text: every invisible or control character shown as a marker, never sent to the terminal.
  return terminalSafe(line.length > 80 ? `${line.slice(0, 79)}…` : line);
}

/** What the change says: the verdict, or the deadline that would have answered the ask. */
function verdict({ now, deadline }: SimulatedRequest): string {
  return deadline === undefined ? now : `${deadline.behavior} by deadline at ${deadline.at.slice(0, 19)}`;
}

function print({ text, requests, more }: Answer): void {
  process.stdout.write(`${text}\n`);
  if (requests.length === 0) return;
  process.stdout.write('\n');
  for (const request of requests.slice(0, LISTED))
    process.stdout.write(
      `  #${request.seq} ${request.at.slice(0, 19)}  ${request.then} (${request.outcome}) → ${verdict(request)}  ` +
        `${terminalSafe(request.toolName)} ${subject(request)}\n      ${terminalSafe(request.reason)}\n`,
    );
  const rest = requests.length - LISTED + more;
  if (rest > 0) process.stdout.write(`  … and ${rest} more (--json lists them all)\n`);
}
