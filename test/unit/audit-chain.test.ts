// The audit trail in the store: canonical JSON as specified, one chained record per decision written
// with its event (people, the policy, cancellations), the genesis record, and verification that names
// the first record that was changed, removed or reordered.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import Database from 'better-sqlite3';

import { canonicalJson } from '../../src/store/canonical-json.js';
import {
  GENESIS_PREV,
  inputDigest,
  sha256Hex,
  verifyAuditRows,
  type AuditRecord,
  type AuditRow,
} from '../../src/store/audit-chain.js';
import { DATABASE_FILE, Supervisor } from '../../src/supervisor/index.js';
import { waitForEvent } from '../e2e/helpers/supervisor-session.js';
import { openFakeSupervisor, startTurn } from '../fixtures/supervisor-fake-query.js';
import { describeEachStore } from '../helpers/store-backends.js';

const records = (rows: AuditRow[]): AuditRecord[] => rows.map((row) => JSON.parse(row.text) as AuditRecord);

describe('audit: canonical JSON', () => {
  it('sorts keys by UTF-16 code units, drops undefined members, has no whitespace', () => {
    assert.equal(canonicalJson({ b: 1, a: [true, null, 'x'], c: undefined }), '{"a":[true,null,"x"],"b":1}');
    assert.equal(canonicalJson({ '\u00e9': 1, z: 2, Z: 3, '\ud83d\ude00': 4 }), '{"Z":3,"z":2,"é":1,"😀":4}');
    assert.equal(canonicalJson({ n: 1e21, m: 0.1, k: -0 }), '{"k":0,"m":0.1,"n":1e+21}');
    assert.equal(canonicalJson('line\n"q"\u0001'), '"line\\n\\"q\\"\\u0001"');
    assert.throws(() => canonicalJson({ x: Number.NaN }), TypeError);
    assert.throws(() => canonicalJson({ x: 1n }), TypeError);
  });
});

describeEachStore('audit: records written with their decisions', () => {
  it('chains a genesis record, a person’s decision and a cancellation; verify passes', async (t) => {
    const { sup, made, thread } = await openFakeSupervisor(t);
    const { fake } = await startTurn(sup, made, thread.id, 'work');
    const first = fake.ask('Bash', { command: 'make test' });
    const asked = await waitForEvent(sup, 'approval.requested');
    await sup.decide(asked.data.approvalId, { behavior: 'allow', decidedBy: { name: 'alice', via: 'web' } });
    await first.result;
    const second = fake.ask('Bash', { command: 'rm -rf build' });
    const again = await waitForEvent(
      sup,
      'approval.requested',
      (e) => e.data.approvalId !== asked.data.approvalId,
    );
    second.withdraw();
    await waitForEvent(sup, 'approval.cancelled');

    const rows = sup.readAudit();
    const [genesis, decided, cancelled] = records(rows);
    assert.equal(rows.length, 3);
    assert.equal(genesis?.kind, 'genesis');
    assert.equal(genesis?.prev, GENESIS_PREV);
    assert.equal(decided?.prev, rows[0]?.hash);
    assert.deepEqual(decided?.decidedBy, { name: 'alice', via: 'web' });
    assert.equal(decided?.outcome, 'allow');
    assert.equal(decided?.tool, 'Bash');
    assert.deepEqual(decided?.input, { command: 'make test' });
    assert.equal(decided?.inputSha256, sha256Hex('{"command":"make test"}'));
    assert.equal(cancelled?.kind, 'cancelled');
    assert.equal(cancelled?.approvalId, again.data.approvalId);
    assert.deepEqual(cancelled?.decidedBy, { name: 'warden', via: 'host' });
    for (const row of rows) assert.equal(row.hash, sha256Hex(row.text), 'hash = SHA-256 of the text');
    assert.deepEqual(sup.verifyAudit(), {
      ok: true,
      records: 3,
      head: rows[2]?.hash,
      covers: { fromEventSeq: 1, throughEventSeq: sup.lastSeq() },
    });
  });

  it('records the policy’s own decisions with the rule that decided', async (t) => {
    const { sup, made, thread } = await openFakeSupervisor(t, { rules: { allow: ['Bash(npm test:*)'] } });
    const { fake } = await startTurn(sup, made, thread.id, 'work');
    assert.equal((await fake.ask('Bash', { command: 'npm test -- --watch' }).result).behavior, 'allow');
    const [, policy] = records(sup.readAudit());
    assert.deepEqual(policy?.decidedBy, { name: 'policy', via: 'policy' });
    assert.deepEqual(policy?.rules, ['Bash(npm test:*)']);
    assert.equal(policy?.outcome, 'allow');
    assert.equal(policy?.inputSha256, inputDigest({ command: 'npm test -- --watch' }));
  });
});

describe('audit: a store from before the audit trail', () => {
  it('a data directory from before the audit gets a genesis record naming where it starts', async (t) => {
    const { sup, made, thread, dataDir } = await openFakeSupervisor(t);
    const { fake } = await startTurn(sup, made, thread.id, 'work');
    fake.ask('Bash', { command: 'ls' });
    const asked = await waitForEvent(sup, 'approval.requested');
    await sup.decide(asked.data.approvalId, { behavior: 'deny' });
    await sup.close();
    // As the migration leaves a data directory that an older Warden wrote: an empty audit table.
    const db = new Database(join(dataDir, DATABASE_FILE));
    db.exec('DELETE FROM audit');
    const lastEvent = (db.prepare('SELECT max(seq) AS seq FROM events').get() as { seq: number }).seq;
    db.close();
    const reopened = await Supervisor.open({
      dataDir,
      query: () => {
        throw new Error('no CLI here');
      },
    });
    t.after(() => reopened.close());
    const [genesis] = records(reopened.readAudit());
    assert.equal(genesis?.kind, 'genesis');
    assert.equal(genesis?.eventSeq, lastEvent);
    assert.match(genesis?.note ?? '', new RegExp(`events 1 to ${lastEvent} `));
    assert.equal(reopened.verifyAudit().ok, true);
  });
});

describe('audit: verify', () => {
  const chain = (): AuditRow[] => {
    const rows: AuditRow[] = [];
    let prev = GENESIS_PREV;
    for (let seq = 1; seq <= 4; seq += 1) {
      const text = canonicalJson({ kind: seq === 1 ? 'genesis' : 'decision', prev, seq, tool: 'Bash' });
      const hash = sha256Hex(text);
      rows.push({ seq, hash, text });
      prev = hash;
    }
    return rows;
  };

  it('names the first broken record and what is wrong with it', () => {
    assert.equal(verifyAuditRows(chain()).ok, true);
    const cases: [string, (rows: AuditRow[]) => AuditRow[], number, RegExp][] = [
      [
        'a changed byte',
        (r) => r.map((row) => (row.seq === 3 ? { ...row, text: row.text.replace('Bash', 'Bask') } : row)),
        3,
        /does not match its hash/,
      ],
      ['a removed record', (r) => r.filter((row) => row.seq !== 2), 3, /records 2 to 2 are missing/],
      [
        'a recomputed hash',
        (r) =>
          r.map((row) =>
            row.seq === 2
              ? {
                  ...row,
                  text: row.text.replace('Bash', 'Bask'),
                  hash: sha256Hex(row.text.replace('Bash', 'Bask')),
                }
              : row,
          ),
        3,
        /is not the hash of record 2/,
      ],
      [
        'broken JSON',
        (r) => r.map((row) => (row.seq === 4 ? { ...row, text: row.text.slice(1) } : row)),
        4,
        /not valid JSON/,
      ],
      ['no genesis', () => [], 1, /genesis record is missing/],
    ];
    for (const [name, tamper, seq, problem] of cases) {
      const result = verifyAuditRows(tamper(chain()));
      assert.equal(result.ok, false, name);
      assert.equal(result.ok === false && result.seq, seq, name);
      assert.match(result.ok === false ? result.problem : '', problem, name);
    }
  });
});
