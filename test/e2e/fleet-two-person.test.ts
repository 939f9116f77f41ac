// Two-person approvals across a fleet: two `warden serve` processes — hosts A and B on one PostgreSQL
// database, each with `--require-two 'Bash(touch:*)'` — the real CLI on A answered by the mock model,
// decided only through the hosts' HTTP APIs with named decider tokens (a decider's name comes from its
// token). (1) alice's allow on A is recorded and is not enough: the approval stays pending on both hosts
// ("1 of 2"), alice again is a 409, and the CLI hears allow only once bob allows on B. (2) After alice's
// first allow, 50 second allows at once from 50 other deciders, half through each host: one 200, 49 ×
// 409; the log holds one endorsement and one decision, and the CLI got one answer.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';

import { scenario } from '../../src/testing/index.js';
import { postgresAvailable } from '../../src/testing/postgres-cluster.js';
import { freshDatabase, testCluster } from '../helpers/store-backends.js';
import { startCommandSession, type CommandSession } from './helpers/server-command.js';
import {
  pendingApproval,
  runCompleted,
  startServe,
  stopServeFleet,
  trackedCli,
  type Json,
  type ServeProcess,
} from './helpers/serve-process.js';
import { watchToolResults, type ToolResultLog } from './helpers/tool-results.js';

const HOST_NAMES = ['host-a', 'host-b'] as const;
const RULE = 'Bash(touch:*)';

interface Fleet {
  readonly session: CommandSession;
  readonly hosts: readonly [ServeProcess, ServeProcess];
  readonly storeUrl: string;
  readonly tools: ToolResultLog;
}

async function startFleet(t: TestContext): Promise<Fleet> {
  const asking = scenario()
    .on('first')
    .callTool('Bash', { command: 'touch first.txt', description: 'Create a file' })
    .thenAnswer('The file is there.')
    .on('race')
    .callTool('Bash', { command: 'touch race.txt', description: 'Create a file' })
    .thenAnswer('The file is there.')
    .build();
  const { script, log } = watchToolResults(asking);
  const session = await startCommandSession(t, script);
  const storeUrl = await freshDatabase(t);
  const [a, b] = await Promise.all(
    HOST_NAMES.map((name) =>
      startServe(session.world, join(session.scratch.dir, `data-${name}`), session.env, {
        args: ['--store', storeUrl, '--host-name', name, '--stop-agents', '--require-two', RULE],
      }),
    ),
  );
  assert.ok(a !== undefined && b !== undefined);
  assert.match(a.process.stdout(), /Two-person rules: Bash\(touch:\*\) need two deciders' allows/);
  return { session, hosts: [a, b], storeUrl, tools: log };
}

/** A named decider's token, made on `host` (each host keeps its own deciders). */
async function deciderToken(host: ServeProcess, name: string): Promise<string> {
  const { token } = await host.api('/api/tokens', { name, role: 'approver' });
  return String(token);
}

/** POSTs an allow with `token`, without failing on a non-2xx answer. */
async function allow(
  host: ServeProcess,
  token: string,
  approvalId: string,
): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${host.url}/api/approvals/${approvalId}/decision`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ behavior: 'allow' }),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

/** A thread on A whose prompt asks for `touch`: its approval, pending on both hosts. */
async function askOnA(
  fleet: Fleet,
  prompt: string,
): Promise<{ threadId: string; runId: string; asked: Json }> {
  const [a, b] = fleet.hosts;
  const created = await a.api('/api/threads', { cwd: fleet.session.scratch.cwd, mode: 'supervised', prompt });
  const threadId = String(created.thread.id);
  const asked = await pendingApproval(a, 'Bash');
  assert.equal(asked.twoPerson, `rule ${RULE}`);
  assert.deepEqual(asked.endorsements, []);
  await trackedCli(a, threadId, { track: (pid) => fleet.session.world.track(pid) });
  await pendingApproval(b, 'Bash');
  return { threadId, runId: String(created.run.id), asked };
}

/** How many events of each type the database's log holds for the approval. */
async function decisionEvents(storeUrl: string, approvalId: string): Promise<Record<string, number>> {
  const rows = await (
    await testCluster()
  ).sql(
    `SELECT type, count(*) AS n FROM warden_events
      WHERE type LIKE 'approval.%' AND data::jsonb->>'approvalId' = $1 GROUP BY type`,
    [approvalId],
    new URL(storeUrl).pathname.slice(1),
  );
  return Object.fromEntries(rows.map((row) => [String(row.type), Number(row.n)]));
}

/** The audit trail's records of the approval, as the database holds them. */
async function auditOf(storeUrl: string, approvalId: string): Promise<Json[]> {
  const rows = await (
    await testCluster()
  ).sql('SELECT record FROM warden_audit ORDER BY seq', [], new URL(storeUrl).pathname.slice(1));
  return rows.map((row) => JSON.parse(String(row.record)) as Json).filter((r) => r.approvalId === approvalId);
}

/** Ends the servers and checks nothing is left. */
function stopFleet(fleet: Fleet): Promise<void> {
  return stopServeFleet(fleet.hosts, HOST_NAMES, fleet.session.scratch.home);
}

const skip = postgresAvailable() ? false : 'PostgreSQL is not available';

describe(
  'two-person approvals on a fleet of two warden serve processes (real CLI, HTTP only)',
  { timeout: 240_000, skip },
  () => {
    it("alice's allow on A is not enough; alice again is a 409; bob's allow on B completes it and the CLI on A hears allow once", async (t) => {
      const fleet = await startFleet(t);
      const [a, b] = fleet.hosts;
      const [alice, bob] = await Promise.all([deciderToken(a, 'alice'), deciderToken(b, 'bob')]);
      const { threadId, runId, asked } = await askOnA(fleet, '[[first]] make a file');
      const approvalId = String(asked.id);
      const toolUseId = String(asked.toolUseId);

      const first = await allow(a, alice, approvalId);
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal(first.body.approval.status, 'pending');
      for (const host of fleet.hosts) {
        const { approvals } = await host.api(`/api/approvals?threadId=${threadId}`);
        const seen = (approvals as Json[]).map((item): unknown[] => [
          item.status,
          (item.endorsements as Json[]).map(
            (e) => `${String(e.decidedBy.name)} via ${String(e.decidedBy.via)}`,
          ),
        ]);
        assert.deepEqual(seen, [['pending', ['alice via api']]], 'every host shows 1 of 2, allowed by alice');
      }
      const again = await allow(b, await deciderToken(b, 'alice'), approvalId);
      assert.equal(again.status, 409, 'alice again, with a token of her name on B: not a second person');
      assert.match(
        String(again.body.error?.message),
        /already allowed by alice; it needs a second person's allow/,
      );
      assert.deepEqual(await decisionEvents(fleet.storeUrl, approvalId), {
        'approval.requested': 1,
        'approval.endorsed': 1,
      });
      const { runs } = await a.api(`/api/threads/${threadId}`);
      assert.equal(
        (runs as Json[]).find((run) => run.id === runId)?.status,
        'running',
        'the CLI still waits',
      );

      const secondSentAt = Date.now();
      const second = await allow(b, bob, approvalId);
      assert.equal(second.status, 200, JSON.stringify(second.body));
      assert.equal(second.body.approval.status, 'allowed');
      assert.deepEqual(second.body.approval.decision.decidedBy, { name: 'bob', via: 'api' });
      assert.deepEqual(second.body.approval.decision.endorsedBy, { name: 'alice', via: 'api' });
      const resultAt = await fleet.tools.arrived(toolUseId);
      assert.ok(resultAt >= secondSentAt, 'the tool ran only after the second allow was sent');
      await runCompleted(a, threadId, runId);
      assert.equal(fleet.tools.count(toolUseId), 1, "A's CLI got one answer");
      assert.deepEqual(
        fleet.tools.results(toolUseId).map((r) => r.isError),
        [false],
      );
      assert.ok(existsSync(join(fleet.session.scratch.cwd, 'first.txt')));
      assert.deepEqual(await decisionEvents(fleet.storeUrl, approvalId), {
        'approval.requested': 1,
        'approval.endorsed': 1,
        'approval.decided': 1,
      });
      assert.deepEqual(
        (await auditOf(fleet.storeUrl, approvalId)).map((r): unknown[] => [
          r.kind,
          r.outcome,
          r.decidedBy.name,
        ]),
        [
          ['endorsement', 'allow', 'alice'],
          ['decision', 'allow', 'bob'],
        ],
        'the audit trail records both allows',
      );
      assert.equal((await b.api('/api/audit/verify')).ok, true);
      t.diagnostic(
        `the CLI's tool result reached the mock ${resultAt - secondSentAt} ms after bob's allow was sent`,
      );
      await stopFleet(fleet);
    });

    it('50 second allows at once, from 50 deciders over both hosts: one 200, 49 × 409, one decision in the log, one answer to the CLI', async (t) => {
      const fleet = await startFleet(t);
      const [a] = fleet.hosts;
      const deciders = await Promise.all(
        Array.from({ length: 50 }, async (_, i) => {
          const host = fleet.hosts[i % 2]!;
          return { host, name: `d${i}`, token: await deciderToken(host, `d${i}`) };
        }),
      );
      const alice = await deciderToken(a, 'alice');
      const { threadId, runId, asked } = await askOnA(fleet, '[[race]] make a file');
      const approvalId = String(asked.id);
      const toolUseId = String(asked.toolUseId);
      assert.equal((await allow(a, alice, approvalId)).body.approval.status, 'pending');
      // Both hosts have folded in the first allow before the race (a host that had not would still see it
      // inside its commit, as the unit tests show; here every allow is a second one).
      for (const host of fleet.hosts)
        assert.equal(
          ((await host.api(`/api/approvals?threadId=${threadId}`)).approvals as Json[])[0]?.endorsements
            .length,
          1,
        );

      const startedAt = Date.now();
      const outcomes = await Promise.all(
        deciders.map(async ({ host, name, token }) => ({
          name,
          host,
          ...(await allow(host, token, approvalId)),
        })),
      );
      const settledAt = Date.now();
      const won = outcomes.filter((o) => o.status === 200);
      const lost = outcomes.filter((o) => o.status !== 200);
      assert.equal(won.length, 1, `one allow won: ${JSON.stringify(outcomes.map((o) => o.status))}`);
      assert.deepEqual(
        [...new Set(lost.map((o) => `${o.status} ${String(o.body.error?.code)}`))],
        ['409 CONFLICT'],
        'every other allow is a 409 CONFLICT',
      );
      const winner = won[0]!;
      assert.equal(winner.body.approval.status, 'allowed');
      assert.equal(winner.body.approval.decision.decidedBy.name, winner.name);
      assert.equal(winner.body.approval.decision.endorsedBy.name, 'alice');

      await fleet.tools.arrived(toolUseId);
      await runCompleted(a, threadId, runId);
      assert.equal(fleet.tools.count(toolUseId), 1, "A's CLI got one answer");
      assert.deepEqual(await decisionEvents(fleet.storeUrl, approvalId), {
        'approval.requested': 1,
        'approval.endorsed': 1,
        'approval.decided': 1,
      });
      const byHost = HOST_NAMES.map((_, i) => lost.filter((o) => o.host === fleet.hosts[i]).length);
      t.diagnostic(
        `50 second allows (25/25 on A/B) answered in ${settledAt - startedAt} ms; ${winner.name} won on ` +
          `${winner.host === a ? 'A' : 'B'}; 409s on A/B: ${byHost.join('/')}`,
      );
      await stopFleet(fleet);
    });
  },
);
