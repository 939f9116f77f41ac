// The PostgreSQL connection worker starts whatever flags the host runs with, and one that cannot load says
// so at once. Each case runs in a host of its own, started as `node --input-type=module -e …` (a worker
// thread inherits such flags by default, and a worker started from a file rejects this one).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const fixture = (name: string): URL => new URL(`../fixtures/postgres-worker/${name}`, import.meta.url);

interface Outcome {
  rows?: unknown;
  error?: { name: string; message: string };
  ms: number;
}

async function firstRequest(workerModule: URL): Promise<Outcome> {
  const host = fixture('channel-host.mjs').href;
  const { stdout } = await run(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `await import(${JSON.stringify(host)});`,
      workerModule.href,
    ],
    { cwd: fileURLToPath(new URL('../..', import.meta.url)), timeout: 60_000 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Outcome;
}

describe('PostgreSQL connection worker start-up', { timeout: 120_000 }, () => {
  it('a JavaScript worker module starts under a host run with --input-type=module', async () => {
    const outcome = await firstRequest(fixture('answering-worker.mjs'));
    assert.equal(outcome.error, undefined, JSON.stringify(outcome.error));
    assert.deepEqual(outcome.rows, [[{ answered: 'exec' }]]);
  });

  it('a worker module that cannot load fails the first request at once, with its own error', async () => {
    const outcome = await firstRequest(fixture('failing-worker.mjs'));
    assert.equal(outcome.error?.name, 'StoreError');
    assert.match(outcome.error.message, /^The PostgreSQL connection worker could not start: /);
    assert.match(outcome.error.message, /Cannot find package pg \(simulated\)/);
    // The request's own bound is 15 s; the answer comes from the worker, long before it.
    assert.ok(outcome.ms < 10_000, `answered after ${Math.round(outcome.ms)} ms`);
  });
});
