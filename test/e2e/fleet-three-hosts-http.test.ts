// Three `warden serve` processes — hosts A, B and C of one fleet on one PostgreSQL database — with the real
// CLI answered by the mock model, driven only through their HTTP and WebSocket APIs, as a person's browsers
// on three machines would. (1) A background subagent of a thread on A asks after its root run completed;
// the approval is answered through C's API and reaches A's CLI; the subagent finishes; a WebSocket client
// on each host, connected before the thread began, saw every event of the log once, in seq order, with no
// gap. (2) 50 decisions on one approval at once, spread over the three hosts: one 200, 49 × 409 CONFLICT;
// A's CLI gets one answer, the winner's, and its run ends.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';

import { BACKGROUND_AGENT_PROMPT, backgroundSubagentScenario, scenario } from '../../src/testing/index.js';
import { postgresAvailable } from '../../src/testing/postgres-cluster.js';
import { freshDatabase, testCluster } from '../helpers/store-backends.js';
import { signal } from './helpers/sdk-session.js';
import { startCommandSession, type CommandSession } from './helpers/server-command.js';
import {
  pendingApproval,
  pollFor,
  runCompleted,
  startServe,
  stopServeFleet,
  threadEvents,
  trackedCli,
  type Json,
  type ServeProcess,
} from './helpers/serve-process.js';
import { connectSocket, type SocketClient } from './helpers/server-session.js';
import { watchToolResults, type ToolResultLog } from './helpers/tool-results.js';

const HOST_NAMES = ['host-a', 'host-b', 'host-c'] as const;
const ASK_PROMPT = '[[ask]] make a file';
const ASK_FILE = 'three-hosts.txt';

interface Fleet {
  readonly session: CommandSession;
  readonly hosts: readonly [ServeProcess, ServeProcess, ServeProcess];
  readonly storeUrl: string;
  readonly tools: ToolResultLog;
  readonly track: (pid: number) => void;
}

/**
 * The mock model (a `[[ask]]` thread asks to touch a file; the background-subagent scenario for the rest),
 * one fresh database and three `warden serve` processes on it, started at once.
 */
async function startFleet(t: TestContext, subagentMayAsk: Promise<void>): Promise<Fleet> {
  const asking = scenario()
    .on('ask')
    .callTool('Bash', { command: `touch ${ASK_FILE}`, description: 'Create a file' })
    .thenAnswer('The file is there.')
    .otherwise(backgroundSubagentScenario({ askAfter: subagentMayAsk }))
    .build();
  const { script, log } = watchToolResults(asking);
  const session = await startCommandSession(t, script);
  const storeUrl = await freshDatabase(t);
  const started = await Promise.all(
    HOST_NAMES.map((name) =>
      startServe(session.world, join(session.scratch.dir, `data-${name}`), session.env, {
        args: ['--store', storeUrl, '--host-name', name, '--stop-agents'],
      }),
    ),
  );
  const [a, b, c] = started;
  assert.ok(a !== undefined && b !== undefined && c !== undefined);
  for (const [i, host] of started.entries())
    assert.match(host.process.stdout(), new RegExp(`as host ${HOST_NAMES[i]} of its fleet`));
  const { hosts } = await a.api('/api/hosts');
  assert.deepEqual(
    (hosts as Json[]).map((h) => String(h.name)).sort(),
    [...HOST_NAMES],
    'the three hosts registered in the fleet',
  );
  return { session, hosts: [a, b, c], storeUrl, tools: log, track: (pid) => session.world.track(pid) };
}

/** A WebSocket client on every host, replaying from the start of the log; resolves once each is live. */
async function watchEveryHost(fleet: Fleet): Promise<SocketClient[]> {
  const clients = fleet.hosts.map((host) => connectSocket(host, '?since=0'));
  await Promise.all(clients.map((client) => client.opened));
  await Promise.all(clients.map((client) => client.waitFor((m) => m.type === 'live')));
  return clients;
}

interface LogRow {
  seq: number;
  threadId: string;
  threadSeq: number;
  type: string;
  host: string | null;
}

/** The event log as the database holds it: the reference every host's stream is held to. */
async function readLog(storeUrl: string): Promise<LogRow[]> {
  const rows = await (
    await testCluster()
  ).sql(
    'SELECT seq, thread_id, thread_seq, type, host FROM warden_events ORDER BY seq',
    [],
    new URL(storeUrl).pathname.slice(1),
  );
  return rows.map((row) => ({
    seq: Number(row.seq),
    threadId: String(row.thread_id),
    threadSeq: Number(row.thread_seq),
    type: String(row.type),
    host: typeof row.host === 'string' ? row.host : null,
  }));
}

function eventsSeen(client: SocketClient): Json[] {
  return client.messages.flatMap((m) => (m.type === 'event' ? [m.event as Json] : []));
}

/** POSTs a decision without failing on a non-2xx answer: the status and the JSON body. */
async function decide(
  host: ServeProcess,
  approvalId: string,
  behavior: 'allow' | 'deny',
): Promise<{ status: number; body: Json; answeredAt: number }> {
  const response = await fetch(`${host.url}/api/approvals/${approvalId}/decision`, {
    method: 'POST',
    headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(behavior === 'allow' ? { behavior } : { behavior, message: 'not now' }),
  });
  return { status: response.status, body: (await response.json()) as Json, answeredAt: Date.now() };
}

/** A copy of `items` in a random order (Fisher–Yates). */
function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/** Ends the servers and checks nothing is left. */
function stopFleet(fleet: Fleet): Promise<void> {
  return stopServeFleet(fleet.hosts, HOST_NAMES, fleet.session.scratch.home);
}

const skip = postgresAvailable() ? false : 'PostgreSQL is not available';

describe(
  'a fleet of three warden serve processes on one PostgreSQL (real CLI, HTTP and WebSocket only)',
  {
    timeout: 240_000,
    skip,
  },
  () => {
    it("a background subagent's late approval raised on A, answered through C's API, reaches A's CLI; every host's WebSocket saw every event once, in order", async (t) => {
      const rootEnded = signal();
      const fleet = await startFleet(t, rootEnded.promise);
      const [a, b, c] = fleet.hosts;
      const clients = await watchEveryHost(fleet);
      const liveFrom = clients.map((client) => Number(client.messages.find((m) => m.type === 'live')?.seq));

      const created = await a.api('/api/threads', {
        cwd: fleet.session.scratch.cwd,
        mode: 'supervised',
        prompt: BACKGROUND_AGENT_PROMPT,
      });
      const threadId = String(created.thread.id);
      const rootRunId = String(created.run.id);
      await runCompleted(a, threadId, rootRunId);
      const { host: owner } = await c.api(`/api/threads/${threadId}`);
      assert.deepEqual([owner?.name, owner?.reachable], ['host-a', true], 'A owns the thread');
      await trackedCli(a, threadId, { track: fleet.track });
      rootEnded.fire();

      // C's inbox shows the request A's CLI made after the root run completed.
      const read = await pendingApproval(c, 'Read');
      assert.equal(read.runId, rootRunId, 'the request is routed to the completed root run');
      assert.notEqual(read.subagentId, null, "it is the subagent's");
      assert.equal(read.host?.name, 'host-a');
      const decidedSeen = Promise.all(
        clients.map((client) =>
          client
            .waitFor((m) => m.type === 'event' && m.event.type === 'approval.decided')
            .then(() => Date.now()),
        ),
      );
      const decidedAt = Date.now();
      const allowed = await c.api(`/api/approvals/${String(read.id)}/decision`, { behavior: 'allow' });
      const answeredAt = Date.now();
      assert.equal(allowed.approval.status, 'allowed');
      const readResultAt = await fleet.tools.arrived(String(read.toolUseId));
      const seenAt = await decidedSeen;
      t.diagnostic(
        `Read decided on C: POST answered in ${answeredAt - decidedAt} ms; the CLI's tool result on A reached ` +
          `the mock ${readResultAt - decidedAt} ms after the POST; approval.decided on the WebSockets of ` +
          `A/B/C ${seenAt.map((at) => at - decidedAt).join('/')} ms`,
      );

      // The subagent asks again (Bash); answered on C as well, it finishes and the CLI reports back.
      const bash = await pendingApproval(c, 'Bash');
      assert.equal(bash.runId, rootRunId);
      const bashDecidedAt = Date.now();
      await c.api(`/api/approvals/${String(bash.id)}/decision`, { behavior: 'allow' });
      const bashResultAt = await fleet.tools.arrived(String(bash.toolUseId));
      t.diagnostic(`Bash decided on C -> the CLI's tool result on A: ${bashResultAt - bashDecidedAt} ms`);
      const events = await pollFor(
        'the CLI-started follow-up run ended',
        async () => {
          const all = await threadEvents(b, threadId);
          return all.some((e) => e.type === 'run.ended' && e.data.origin?.kind === 'task-notification')
            ? all
            : undefined;
        },
        120_000,
      );
      assert.deepEqual(
        events.filter((e) => e.type === 'subagent.ended').map((e) => String(e.data.status)),
        ['completed'],
        'the subagent finished',
      );
      assert.equal(fleet.tools.count(String(read.toolUseId)), 1, "A's CLI got the Read decision once");
      assert.equal(fleet.tools.count(String(bash.toolUseId)), 1, "A's CLI got the Bash decision once");
      assert.deepEqual(
        [...fleet.tools.results(String(read.toolUseId)), ...fleet.tools.results(String(bash.toolUseId))].map(
          (r) => r.isError,
        ),
        [false, false],
        'both tools ran',
      );

      // The log in the database: the decisions were committed by C, everything else of the thread by A.
      const log = await readLog(fleet.storeUrl);
      assert.deepEqual(
        log.map((e) => e.seq),
        log.map((_, i) => i + 1),
        'the log has no gap',
      );
      const threadLog = log.filter((e) => e.threadId === threadId);
      const rootEndedSeq = threadLog.find((e) => e.type === 'run.ended')?.seq ?? Infinity;
      assert.ok(
        threadLog.filter((e) => e.type === 'approval.requested').every((e) => e.seq > rootEndedSeq),
        'both approvals were raised after the root run had ended',
      );
      assert.deepEqual(
        threadLog.filter((e) => e.type === 'approval.decided').map((e) => e.host),
        ['host-c', 'host-c'],
      );
      assert.deepEqual(
        [...new Set(threadLog.filter((e) => e.type !== 'approval.decided').map((e) => e.host))],
        ['host-a'],
      );

      // Every host's WebSocket: every event of the log, once each, in seq order, with no gap.
      const lastSeq = log.at(-1)?.seq ?? 0;
      await Promise.all(
        clients.map((client) => client.waitFor((m) => m.type === 'event' && m.event.seq === lastSeq)),
      );
      const firstThreadSeq = threadLog[0]?.seq ?? 0;
      for (const [i, client] of clients.entries()) {
        const seen = eventsSeen(client);
        assert.deepEqual(
          seen.map((e) => Number(e.seq)),
          seen.map((_, n) => n + 1),
          `${HOST_NAMES[i]}'s WebSocket saw each seq once, in order, from 1`,
        );
        assert.deepEqual(
          seen.slice(0, log.length).map((e): unknown[] => [e.seq, e.threadId, e.threadSeq, e.type]),
          log.map((e) => [e.seq, e.threadId, e.threadSeq, e.type]),
          `${HOST_NAMES[i]}'s WebSocket saw every event of the log`,
        );
        assert.ok(liveFrom[i]! < firstThreadSeq, `${HOST_NAMES[i]} saw the thread's events live`);
      }
      t.diagnostic(`${log.length} events in the log, each seen once by the WebSocket of each of the 3 hosts`);

      for (const client of clients) client.close();
      await stopFleet(fleet);
    });

    it('50 decisions at once on one approval, spread over the three hosts: one 200, 49 × 409; the CLI on A gets one answer', async (t) => {
      const fleet = await startFleet(t, Promise.resolve());
      const [a] = fleet.hosts;
      const created = await a.api('/api/threads', {
        cwd: fleet.session.scratch.cwd,
        mode: 'supervised',
        prompt: ASK_PROMPT,
      });
      const threadId = String(created.thread.id);
      const runId = String(created.run.id);
      const asked = await pendingApproval(a, 'Bash');
      assert.equal(asked.host?.name, 'host-a');
      await trackedCli(a, threadId, { track: fleet.track });
      const approvalId = String(asked.id);
      // Every host shows it pending before the race starts.
      for (const host of fleet.hosts) await pendingApproval(host, 'Bash');

      // 17/17/16 over A/B/C, allow and deny alternating, sent in a shuffled order: the first one sent
      // tends to win, and which host and which answer that is should not be fixed by the test.
      const decisions = shuffled(
        Array.from({ length: 50 }, (_, i) => ({
          host: i % 3,
          behavior: i % 2 === 0 ? ('allow' as const) : ('deny' as const),
        })),
      );
      const startedAt = Date.now();
      const outcomes = await Promise.all(
        decisions.map(({ host, behavior }) =>
          decide(fleet.hosts[host]!, approvalId, behavior).then((outcome) => ({
            ...outcome,
            host: HOST_NAMES[host]!,
            behavior,
          })),
        ),
      );
      const settledAt = Date.now();
      const won = outcomes.filter((o) => o.status === 200);
      const lost = outcomes.filter((o) => o.status !== 200);
      assert.equal(won.length, 1, `one decision won: ${JSON.stringify(outcomes.map((o) => o.status))}`);
      assert.equal(lost.length, 49);
      assert.deepEqual(
        [...new Set(lost.map((o) => `${o.status} ${String(o.body.error?.code)}`))],
        ['409 CONFLICT'],
        'every other decision is a 409 CONFLICT',
      );
      const winner = won[0]!;
      const expected = winner.behavior === 'allow' ? 'allowed' : 'denied';
      // Lost to the winner, on whichever host: not refused for any other reason (an unreachable owner).
      // Either the host saw the approval settled before it tried, or its commit's compare-and-set did.
      const settledBefore = `Approval ${approvalId} is already ${expected}`;
      const settledInCommit = `The approval ${approvalId} is ${expected}; that change no longer applies`;
      for (const { body } of lost)
        assert.ok(
          [settledBefore, settledInCommit].includes(String(body.error?.message)),
          String(body.error?.message),
        );
      const firstAnswer = HOST_NAMES.map(
        (name) => Math.min(...outcomes.filter((o) => o.host === name).map((o) => o.answeredAt)) - startedAt,
      );
      const inCommit = HOST_NAMES.map(
        (name) =>
          lost.filter((o) => o.host === name && String(o.body.error?.message) === settledInCommit).length,
      );
      assert.equal(winner.body.approval.status, expected);
      const perHost = HOST_NAMES.map((name) => outcomes.filter((o) => o.host === name).length);
      assert.deepEqual(perHost, [17, 17, 16]);
      for (const host of fleet.hosts) {
        const { approvals } = await host.api(`/api/approvals?threadId=${threadId}`);
        assert.deepEqual(
          (approvals as Json[]).map((item): unknown[] => [item.id, item.status]),
          [[approvalId, expected]],
          'every host shows the winning decision',
        );
      }

      const resultAt = await fleet.tools.arrived(String(asked.toolUseId));
      await runCompleted(a, threadId, runId);
      assert.equal(fleet.tools.count(String(asked.toolUseId)), 1, "A's CLI got one answer");
      assert.deepEqual(
        fleet.tools.results(String(asked.toolUseId)).map((r) => r.isError),
        [winner.behavior === 'deny'],
        "the answer is the winner's",
      );
      assert.equal(existsSync(join(fleet.session.scratch.cwd, ASK_FILE)), winner.behavior === 'allow');
      const decided = (await threadEvents(a, threadId)).filter((e) => e.type === 'approval.decided');
      assert.equal(decided.length, 1, 'one decision is in the log');
      t.diagnostic(
        `50 decisions (17/17/16 on A/B/C): all answered in ${settledAt - startedAt} ms; the winner was ` +
          `${winner.behavior} on ${winner.host}; losers refused by the commit's compare-and-set on A/B/C: ` +
          `${inCommit.join('/')} (the rest saw it settled before committing); first answer from A/B/C after ` +
          `${firstAnswer.join('/')} ms; the CLI's tool result reached the mock ` +
          `${resultAt - startedAt} ms after the first POST`,
      );

      await stopFleet(fleet);
    });
  },
);
