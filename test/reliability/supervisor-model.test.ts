// Model-based test of the supervisor: random histories of thread, run, subagent and approval operations,
// CLI frames and requests from a scripted CLI, process deaths and host restarts, each step checked against
// a small model and the invariants (supervisor-invariants.ts). Bounded for `npm test`; WARDEN_MODEL_RUNS
// raises the number of histories (and WARDEN_MODEL_SECONDS the time allowed) for a longer campaign.
import { test } from 'node:test';

import fc from 'fast-check';

import { storeBackends } from '../helpers/store-backends.js';
import { commandArbitrary } from './supervisor-commands.js';
import { runHistory } from './supervisor-history.js';

const RUNS = Number(process.env.WARDEN_MODEL_RUNS ?? 40);
const SECONDS = Number(process.env.WARDEN_MODEL_SECONDS ?? (process.env.WARDEN_MODEL_RUNS ? 3600 : 30));
/** On PostgreSQL by default a shorter bound: the same histories, fewer of them (WARDEN_MODEL_SECONDS sets both). */
const PG_SECONDS = Number(process.env.WARDEN_MODEL_SECONDS ?? (process.env.WARDEN_MODEL_RUNS ? 3600 : 15));
const MAX_COMMANDS = Number(process.env.WARDEN_MODEL_COMMANDS ?? 40);

for (const backend of storeBackends())
  test(`random histories keep the supervisor consistent with its model and its invariants (${backend.name})`, async () => {
    const started = Date.now();
    let histories = 0;
    let steps = 0;
    const operations = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.commands([commandArbitrary], { maxCommands: MAX_COMMANDS, size: 'max' }),
        async (commands) => {
          histories += 1;
          for (const [name, n] of await runHistory(backend, commands)) {
            operations.set(name, (operations.get(name) ?? 0) + n);
            steps += n;
          }
        },
      ),
      {
        numRuns: RUNS,
        interruptAfterTimeLimit: (backend.name === 'postgres' ? PG_SECONDS : SECONDS) * 1000,
        ...(process.env.WARDEN_MODEL_SEED === undefined
          ? {}
          : { seed: Number(process.env.WARDEN_MODEL_SEED) }),
      },
    );
    const ops = [...operations].map(([name, n]) => `${name}=${n}`).join(' ');
    console.log(
      `[reliability] supervisor model (${backend.name}): ${histories} histories, ${steps} steps checked, ${((Date.now() - started) / 1000).toFixed(1)} s (${ops})`,
    );
  });
