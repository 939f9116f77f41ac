// A short verify run in the suite: two `warden serve` hosts on a PostgreSQL of their own, people racing
// over HTTP, and one fault of each quick kind (SIGKILL and restart, link cut, delayed and reset, PostgreSQL
// restarted); the checker finds no anomaly in the whole history. (The pause past a 15 s lease is left to
// `npm run verify`: it alone would take longer than this file may.)
import assert from 'node:assert/strict';
import { it } from 'node:test';

import { postgresBinDir } from '../../src/testing/postgres-cluster.js';
import { runVerify } from './run-verify.js';

const skip = postgresBinDir() === undefined ? 'no PostgreSQL server binaries' : false;

it(
  'a short verify run over one fault of each kind finds no anomaly',
  { timeout: 240_000, skip },
  async (t) => {
    const result = await runVerify({
      seconds: 12,
      seed: 20261203,
      hosts: 2,
      faults: ['kill', 'link-cut', 'link-delay', 'link-reset', 'pg-restart'],
      eachOnce: true,
      faultGapMs: [300, 1000],
      log: (line) => t.diagnostic(line),
    });
    assert.deepEqual(result.anomalies, []);
    assert.deepEqual(
      Object.entries(result.faults)
        .filter(([, n]) => n > 0)
        .map(([kind]) => kind),
      ['kill', 'link-cut', 'link-delay', 'link-reset', 'pg-restart'],
    );
    assert.ok(result.approvals > 0, `approvals were decided (${result.approvals})`);
    t.diagnostic(`${result.operations} operations, ${result.approvals} approvals in ${result.seconds} s`);
  },
);
