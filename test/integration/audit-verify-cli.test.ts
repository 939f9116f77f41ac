/* eslint-disable @typescript-eslint/no-explicit-any -- exported records are inspected loosely */
// `warden audit` and `warden audit verify`, the real command spawned (`node --import tsx src/cli/main.ts`):
// with the server running (asked over its API) and without (the store read read-only), an always-allow's
// scope and settings file in both formats; then one byte of a record's payload is changed in the
// database file and verify fails naming that record (exit code 1).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import Database from 'better-sqlite3';

import { createServer } from '../../src/server/index.js';
import { inputDigest } from '../../src/store/audit-chain.js';
import { DATABASE_FILE } from '../../src/supervisor/index.js';
import { runWarden } from '../e2e/helpers/server-command.js';
import { waitForEvent } from '../e2e/helpers/supervisor-session.js';
import { openFakeSupervisor, startTurn } from '../fixtures/supervisor-fake-query.js';
import { parseCsv } from '../helpers/csv.js';

const warden = (...args: string[]) => runWarden(args);

describe('warden audit verify (spawned)', () => {
  it('passes, then names the record whose byte was changed in the database file', async (t) => {
    const { sup, made, thread, dataDir, cwd } = await openFakeSupervisor(t);
    const server = await createServer({ supervisor: sup, dataDir, onError: () => undefined });
    const command = 'echo audit-marker-7f3a';
    const { fake } = await startTurn(sup, made, thread.id, 'work');
    const asked = fake.ask('Bash', { command });
    const event = await waitForEvent(sup, 'approval.requested');
    const alice = server.deciders.create('alice').token;
    const answer = await fetch(`${server.url}/api/approvals/${event.data.approvalId}/decision`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice}`, 'content-type': 'application/json' },
      body: JSON.stringify({ behavior: 'allow' }),
    });
    assert.equal(answer.status, 200);
    await asked.result;
    // An always-allow written to the project's settings: `warden audit` says so.
    const always = fake.ask('Bash', { command: 'make build' });
    const second = await waitForEvent(
      sup,
      'approval.requested',
      (e) => e.data.input.command === 'make build',
    );
    await sup.decide(second.data.approvalId, { behavior: 'allow_always', scope: 'project' });
    await always.result;

    // With the server running: the command asks it.
    const online = await warden('audit', 'verify', '--data-dir', dataDir);
    assert.equal(online.code, 0, online.stderr);
    assert.match(
      online.stdout,
      /^Audit trail intact: 3 records, every decision of the log from event 1 through \d+; the last one's hash is [0-9a-f]{64}\n$/,
    );
    const exported = await warden('audit', '--data-dir', dataDir);
    assert.equal(exported.code, 0, exported.stderr);
    const records = exported.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, any>);
    const decided = records.find((r) => r.kind === 'decision');
    assert.deepEqual(decided?.decidedBy, { name: 'alice', via: 'api' });
    assert.equal(decided?.inputSha256, inputDigest({ command }));
    const settingsFile = join(cwd, '.claude', 'settings.local.json');
    assert.deepEqual(records.at(-1)?.grant, {
      scope: 'project',
      destination: 'localSettings',
      settingsFile,
      sessionId: null,
    });
    const csv = await warden('audit', '--format', 'csv', '--data-dir', dataDir);
    assert.equal(csv.code, 0, csv.stderr);
    const [header, , , project] = parseCsv(csv.stdout);
    assert.deepEqual(header?.slice(-4), ['scope', 'destination', 'settings_file', 'session_id']);
    assert.deepEqual(project?.slice(-4), ['project', 'localSettings', settingsFile, '']);

    await server.close();
    await sup.close();

    // Without a server: the store read read-only; the export is the same.
    const offline = await warden('audit', 'verify', '--data-dir', dataDir);
    assert.equal(offline.code, 0, offline.stderr);
    // The log grew by the close (runs ended): the same records, checked against more of it.
    const beyondEvent = (text: string) => text.replace(/through \d+;/, 'through N;');
    assert.equal(beyondEvent(offline.stdout), beyondEvent(online.stdout));
    assert.equal((await warden('audit', '--data-dir', dataDir)).stdout, exported.stdout);
    assert.equal((await warden('audit', '--format', 'csv', '--data-dir', dataDir)).stdout, csv.stdout);

    // One byte of the record's payload: its inputSha256 appears in the file once, in the audit record only.
    const path = join(dataDir, DATABASE_FILE);
    assert.equal(
      existsSync(`${path}-wal`) && readFileSync(`${path}-wal`).length > 0,
      false,
      'checkpointed at close',
    );
    const bytes = readFileSync(path);
    const original = Buffer.from(bytes);
    const needle = Buffer.from(String(decided?.inputSha256));
    const at = bytes.indexOf(needle);
    assert.ok(at >= 0, 'the record is in the file');
    assert.equal(bytes.indexOf(needle, at + 1), -1, 'once');
    bytes[at + 10] = bytes[at + 10] === 0x30 ? 0x31 : 0x30; // one hex digit for another
    writeFileSync(path, bytes);

    const broken = await warden('audit', 'verify', '--data-dir', dataDir);
    assert.equal(broken.code, 1);
    assert.match(
      broken.stdout,
      new RegExp(
        `^Audit trail broken at record ${String(decided?.seq)}: its content does not match its hash`,
      ),
    );

    // Every record but the genesis one deleted: the chain that is left is whole, the log says what is
    // missing.
    writeFileSync(path, original);
    const db = new Database(path);
    db.prepare('DELETE FROM audit WHERE seq > 1').run();
    const decisions = db
      .prepare<[], { seq: number }>(
        "SELECT seq FROM events WHERE type IN ('permission.decided', 'approval.decided') ORDER BY seq",
      )
      .all();
    db.close();
    const truncated = await warden('audit', 'verify', '--data-dir', dataDir);
    assert.equal(truncated.code, 1, truncated.stdout);
    assert.equal(
      truncated.stdout,
      `Audit trail broken at record 2: the log's event ${decisions[0]?.seq} is a decision with no audit record (${decisions.length} of the log's decisions after event 0 are missing from the trail: records were removed) (records 1 to 1 are intact)\n`,
    );
  });
});
