// `warden status` and `warden audit` on a PostgreSQL store, the real command spawned: with `--store` or
// WARDEN_STORE_URL they read the database while the fleet's hosts keep running on it (no server asked,
// nothing written, no host registered); status judges a pid only for this machine's host and shows another
// host's lease; audit exports the trail as the store holds it, verify finds a record changed in the
// database; an empty database and an unreachable server are reported (the password never printed).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { jsonlLine } from '../../src/server/audit-export.js';
import type { EventDraft } from '../../src/store/event-types.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { runWarden } from '../e2e/helpers/server-command.js';
import { freshDatabase, storeBackends, testCluster } from '../helpers/store-backends.js';

const enabled = storeBackends().some((backend) => backend.name === 'postgres');

/** Runs `warden …` with `env` over this process's (WARDEN_STORE_URL unset unless given). */
const warden = (args: string[], env: Record<string, string> = {}) =>
  runWarden(args, { ...process.env, WARDEN_STORE_URL: '', WARDEN_HOST_NAME: '', ...env });

const created: EventDraft = {
  type: 'thread.created',
  data: { cwd: '/w', mode: 'supervised', model: null, rules: { allow: [], deny: [] } },
};
const processStarted = (pid: number): EventDraft => ({
  type: 'session.process_started',
  data: { generation: 1, pid, startTime: null },
});
const runCreated: EventDraft = {
  type: 'run.created',
  data: {
    runId: 'run-1',
    status: 'running',
    trigger: 'human',
    prompt: 'hi',
    userMessageId: 'u1',
    generation: 1,
  },
};
const requested = (approvalId: string, command: string): EventDraft => ({
  type: 'approval.requested',
  data: {
    approvalId,
    runId: 'run-1',
    subagentId: null,
    toolName: 'Bash',
    input: { command },
    toolUseId: `tool-${approvalId}`,
    requestId: `request-${approvalId}`,
    suggestions: [],
    alwaysAllowRules: [],
    blockedPath: null,
    decisionReason: null,
    generation: 1,
  },
});
const decided: EventDraft = {
  type: 'approval.decided',
  data: {
    approvalId: 'ap-1',
    behavior: 'allow',
    message: null,
    interrupt: false,
    updatedPermissions: null,
    by: 'user',
  },
};

/** What a reader must not change: the log head, the trail, the hosts and the gone host-b's heartbeat. */
const WRITTEN = `SELECT (SELECT seq FROM warden_log_head) AS head, (SELECT count(*) FROM warden_audit) AS audit,
  (SELECT json_agg(json_build_object('name', name, 'beat', CASE WHEN name = 'host-b' THEN heartbeat_at END)
                   ORDER BY name) FROM warden_hosts)::text AS hosts`;

describe(
  'warden status and warden audit on PostgreSQL (spawned)',
  { skip: enabled ? false : 'PostgreSQL is not available', timeout: 240_000 },
  () => {
    it('read the fleet from the database while its hosts run, and write nothing', async (t) => {
      const url = await freshDatabase(t);
      const database = decodeURIComponent(new URL(url).pathname.slice(1));
      const server = await testCluster();
      const a = PostgresStore.open(url, { host: { name: 'host-a' } });
      t.after(() => a.close());
      // host-a's CLI is this very process (alive); host-b's pid is on another machine, and host-b is gone.
      a.commit('thread-a', [
        created,
        processStarted(process.pid),
        runCreated,
        requested('ap-1', 'ls'),
        requested('ap-2', 'rm -rf build'),
      ]);
      await a.durable();
      a.commit('thread-a', [decided]);
      await a.durable();
      const b = PostgresStore.open(url, { host: { name: 'host-b' } });
      b.commit('thread-b', [created, processStarted(2_000_000_000)]);
      await b.durable();
      b.close();
      const before = await server.sql(WRITTEN, [], database);

      const [byFlag, byEnv, exported, since, verified] = await Promise.all([
        warden(['status', '--store', url, '--host-name', 'host-a']),
        warden(['status'], { WARDEN_STORE_URL: url, WARDEN_HOST_NAME: 'host-a' }),
        warden(['audit', '--store', url]),
        warden(['audit', '--since', '2999-01-01'], { WARDEN_STORE_URL: url }),
        warden(['audit', 'verify', '--store', url]),
      ]);

      assert.equal(byFlag.code, 0, byFlag.stderr);
      const where = `127.0.0.1:${new URL(url).port}/${database}`;
      const lines = byFlag.stdout.trimEnd().split('\n');
      assert.equal(
        lines[0],
        `Store: PostgreSQL at ${where} (read from the database; this machine's host: host-a)`,
      );
      assert.equal(lines[1], 'Hosts: host-a live, host-b expired');
      assert.equal(lines[2], 'CLI processes:');
      assert.equal(
        lines[3],
        `  thread thread-a  pid ${process.pid}  running  piped (ends with its host)  1 pending approval  /w`,
      );
      assert.match(
        lines[4] ?? '',
        /^ {2}thread thread-b {2}pid 2000000000 {2}on host host-b \(unreachable: no heartbeat for \d+ s\) {2}piped \(ends with its host\) {2}0 pending approvals {2}\/w$/,
      );
      assert.equal(lines.length, 5);
      assert.equal(byEnv.code, 0, byEnv.stderr);
      // The same, but for the seconds since host-b's heartbeat, which went on between the two reads.
      const seconds = (text: string) => text.replace(/no heartbeat for \d+ s/, 'no heartbeat for N s');
      assert.equal(seconds(byEnv.stdout), seconds(byFlag.stdout));

      assert.equal(exported.code, 0, exported.stderr);
      const rows = a.readAudit({ limit: 1000 });
      const genesisEventSeq = (JSON.parse(rows[0]?.text ?? '{}') as { eventSeq: number }).eventSeq;
      assert.equal(rows.length, 2, 'the genesis record and the decision');
      assert.equal(exported.stdout, rows.map(jsonlLine).join(''));
      assert.equal(since.code, 0, since.stderr);
      assert.equal(since.stdout, '');
      assert.equal(verified.code, 0, verified.stderr);
      assert.equal(
        verified.stdout,
        `Audit trail intact: 2 records, every decision of the log from event ${genesisEventSeq + 1} through ${a.lastSeq()}; the last one's hash is ${rows.at(-1)?.hash ?? ''}\n`,
      );

      // Nothing was written: the log, the trail and the hosts (no reader registered or beat for the gone
      // host-b) are as before; host-a beats on its own.
      assert.deepEqual(await server.sql(WRITTEN, [], database), before);
      // host-a was not disturbed: it still commits.
      a.commit('thread-a', [{ type: 'thread.titled', data: { title: 'still here', source: 'user' } }]);

      // A record changed in the database: verify names it, exit code 1.
      await server.sql(
        "UPDATE warden_audit SET record = replace(record, 'allow', 'deny') WHERE seq = 2",
        [],
        database,
      );
      const broken = await warden(['audit', 'verify', '--store', url]);
      assert.equal(broken.code, 1, broken.stderr);
      assert.match(broken.stdout, /^Audit trail broken at record 2: .* \(records 1 to 1 are intact\)\n$/);

      // The decision's record removed, the chain that is left whole: the log says what is missing.
      await server.sql('DELETE FROM warden_audit WHERE seq > 1', [], database);
      const truncated = await warden(['audit', 'verify', '--store', url]);
      assert.equal(truncated.code, 1, truncated.stderr);
      assert.match(
        truncated.stdout,
        /^Audit trail broken at record 2: the log's event \d+ is a decision with no audit record \(1 of the log's decisions after event \d+ are missing from the trail: records were removed\)/,
      );
    });

    it('say so for a database no Warden has used, and for a server that cannot be reached', async (t) => {
      const empty = await freshDatabase(t);
      const unreachable = 'postgres://warden:s3cret-pw@127.0.0.1:1/nowhere';
      const [status, audit, statusDown, auditDown, badUrl, hostNameAlone] = await Promise.all([
        warden(['status', '--store', empty]),
        warden(['audit', 'verify', '--store', empty]),
        warden(['status', '--store', unreachable]),
        warden(['audit', '--store', unreachable]),
        warden(['audit'], { WARDEN_STORE_URL: 'mysql://x@y/z' }),
        warden(['status', '--host-name', 'host-a']),
      ]);
      assert.equal(status.code, 0, status.stderr);
      assert.match(status.stdout, /No Warden has run on this database yet\.\n$/);
      assert.equal(audit.code, 1);
      assert.match(
        audit.stderr,
        /^warden: no Warden has run on the database at 127\.0\.0\.1:\d+\/\S+ yet\n$/,
      );
      assert.equal(statusDown.code, 1);
      assert.match(statusDown.stderr, /^warden: cannot read the store at 127\.0\.0\.1:1\/nowhere: /);
      assert.equal(auditDown.code, 1);
      assert.match(auditDown.stderr, /^warden: cannot read the audit trail at 127\.0\.0\.1:1\/nowhere: /);
      for (const output of [statusDown, auditDown]) assert.doesNotMatch(output.stderr, /s3cret-pw/);
      assert.equal(badUrl.code, 2);
      assert.match(badUrl.stderr, /must be a postgres:\/\/ or postgresql:\/\/ URL/);
      assert.equal(hostNameAlone.code, 2);
      assert.match(hostNameAlone.stderr, /--host-name goes with --store/);
    });
  },
);
