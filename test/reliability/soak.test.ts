// The short soak `npm test` runs: about a minute of the full soak (soak/soak.ts) — a hundred scripted
// threads and two on the real CLI, people racing on approvals over HTTP, WebSocket clients replaying and
// vanishing, scripted CLIs crashing, a real CLI SIGKILLed and the host SIGKILLed and reopened — then every
// check: growth within its (loose, at this length) bound, descriptors and processes back to the baseline,
// the log's invariants, every 200 decided exactly once in the log, every event a client saw unchanged in
// the log. `npm run soak -- --minutes N` runs the long one.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { runSoak } from './soak/soak.js';
import { soakOptions } from './soak/soak-options.js';

test('a one-minute soak with chaos loses nothing and leaks nothing', { timeout: 300_000 }, async () => {
  const result = await runSoak(soakOptions(1, (line) => console.log(line)));
  console.log(
    `[reliability] soak: ${result.seconds} s, ${result.load.threads} threads, ${result.load.events} events, ` +
      `${result.people.ok} approvals decided (${result.people.races} races), ${result.ws.connected} WebSocket ` +
      `clients, chaos ${JSON.stringify(result.chaos)}`,
  );
  for (const check of result.checks) assert.ok(check.ok, `${check.name}: ${check.detail}`);
  assert.equal(result.chaos.hostKilled, 1, 'the host was killed and reopened');
  assert.ok(result.chaos.scriptedCrashed > 0, 'scripted CLIs crashed');
  assert.ok(result.people.ok > 0 && result.people.races > 0, 'people decided, some of them racing');
  assert.ok(result.ws.droppedMidReplay > 0, 'clients dropped mid-replay');
});
