// The audit record of an "always allow" (format v2): the rules granted (not the ones offered, when a
// person narrowed them), the scope, where the rules are kept and, for the project, the settings file the
// CLI writes them to — so a reviewer tells a session grant from a write to the project's settings. A
// trail written by the first format (test/fixtures/audit/v1-trail.jsonl, as an older Warden exported
// it) still verifies, alone and with v2 records chained after it; its CSV rows leave the new columns empty.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import Database from 'better-sqlite3';

import { csvHeader, csvLine, CSV_COLUMNS } from '../../src/server/audit-export.js';
import {
  AUDIT_FORMAT_VERSION,
  sha256Hex,
  verifyAuditRows,
  type AuditRecord,
  type AuditRow,
} from '../../src/store/audit-chain.js';
import { canonicalJson } from '../../src/store/canonical-json.js';
import { DATABASE_FILE, Supervisor } from '../../src/supervisor/index.js';
import { waitForEvent } from '../e2e/helpers/supervisor-session.js';
import {
  fakeQueries,
  openFakeSupervisor,
  startTurn,
  type FakeQuery,
} from '../fixtures/supervisor-fake-query.js';
import { describeEachStore } from '../helpers/store-backends.js';
import { parseCsv } from '../helpers/csv.js';

const SUGGEST_PREFIX = [
  {
    type: 'addRules',
    rules: [{ toolName: 'Bash', ruleContent: 'npm test:*' }],
    behavior: 'allow',
    destination: 'localSettings',
  },
];

const records = (rows: AuditRow[]): AuditRecord[] => rows.map((row) => JSON.parse(row.text) as AuditRecord);

/** Asks for `command` and resolves with its approval id once it is pending (the CLI may suggest a prefix). */
async function ask(
  sup: Supervisor,
  fake: FakeQuery,
  command: string,
  suggestions: unknown[] = [],
): Promise<{ id: string; done: Promise<unknown> }> {
  const { result } = fake.ask('Bash', { command }, { suggestions });
  const requested = await waitForEvent(sup, 'approval.requested', (e) => e.data.input.command === command);
  return { id: requested.data.approvalId, done: result };
}

/** The v1 trail as its rows: each line's canonical JSON without `hash`, and the hash beside it. */
function v1Rows(): AuditRow[] {
  const text = readFileSync(new URL('../fixtures/audit/v1-trail.jsonl', import.meta.url), 'utf8');
  return text
    .trim()
    .split('\n')
    .map((line) => {
      const { hash, ...record } = JSON.parse(line) as { hash: string; seq: number };
      return { seq: record.seq, hash, text: canonicalJson(record) };
    });
}

describeEachStore('audit: an always-allow says its scope and where its rules went', () => {
  it('session, thread (a narrowed rule) and project grants, each with its destination', async (t) => {
    const { sup, made, thread, cwd } = await openFakeSupervisor(t);
    const { fake } = await startTurn(sup, made, thread.id, 'work');
    const alice = { name: 'alice', via: 'web' } as const;

    const session = await ask(sup, fake, 'make build');
    await sup.decide(session.id, { behavior: 'allow_always', decidedBy: alice });
    await session.done;
    const narrowed = await ask(sup, fake, 'npm test -- --watch', SUGGEST_PREFIX);
    await sup.decide(narrowed.id, {
      behavior: 'allow_always',
      scope: 'thread',
      rules: ['Bash(npm test -- --watch)'],
      decidedBy: alice,
    });
    await narrowed.done;
    const project = await ask(sup, fake, 'git status');
    await sup.decide(project.id, { behavior: 'allow_always', scope: 'project', decidedBy: alice });
    await project.done;

    const always = records(sup.readAudit()).filter((r) => r.outcome === 'allow_always');
    assert.deepEqual(
      always.map((r) => [r.approvalId, r.v, r.rules, r.grant]),
      [
        [
          session.id,
          AUDIT_FORMAT_VERSION,
          ['Bash(make build)'],
          { scope: 'session', destination: 'session', settingsFile: null, sessionId: 'session-1' },
        ],
        [
          narrowed.id,
          AUDIT_FORMAT_VERSION,
          ['Bash(npm test -- --watch)'],
          { scope: 'thread', destination: 'warden', settingsFile: null, sessionId: null },
        ],
        [
          project.id,
          AUDIT_FORMAT_VERSION,
          ['Bash(git status)'],
          {
            scope: 'project',
            destination: 'localSettings',
            settingsFile: join(cwd, '.claude', 'settings.local.json'),
            sessionId: null,
          },
        ],
      ],
    );
    // The decision itself carries it too (the approval's record, as the API shows it).
    assert.deepEqual(sup.getApproval(project.id).decision?.grant, {
      scope: 'project',
      rules: ['Bash(git status)'],
      destination: 'localSettings',
      settingsFile: join(cwd, '.claude', 'settings.local.json'),
      sessionId: null,
    });
    const allowOnce = await ask(sup, fake, 'ls -la');
    await sup.decide(allowOnce.id, { behavior: 'allow', decidedBy: alice });
    await allowOnce.done;
    const once = records(sup.readAudit()).find((r) => r.approvalId === allowOnce.id);
    assert.deepEqual([once?.rules, once?.grant], [[], null], 'an allow once adds nothing');
    assert.equal(sup.verifyAudit().ok, true);

    // The CSV: the new columns at the end, filled for the always-allows only.
    const [header, ...lines] = parseCsv(csvHeader() + sup.readAudit().map(csvLine).join(''));
    assert.deepEqual(header?.slice(-4), ['scope', 'destination', 'settings_file', 'session_id']);
    const column = (line: string[] | undefined, name: (typeof CSV_COLUMNS)[number]) =>
      line?.[CSV_COLUMNS.indexOf(name)];
    const byApproval = (id: string) => lines.find((line) => column(line, 'approval_id') === id);
    assert.deepEqual(
      ['scope', 'destination', 'settings_file', 'session_id', 'rules'].map((name) =>
        column(byApproval(project.id), name as (typeof CSV_COLUMNS)[number]),
      ),
      ['project', 'localSettings', join(cwd, '.claude', 'settings.local.json'), '', 'Bash(git status)'],
    );
    assert.deepEqual(
      ['scope', 'destination', 'session_id'].map((name) =>
        column(byApproval(session.id), name as (typeof CSV_COLUMNS)[number]),
      ),
      ['session', 'session', 'session-1'],
    );
    assert.deepEqual(
      ['scope', 'destination', 'settings_file'].map((name) =>
        column(byApproval(allowOnce.id), name as (typeof CSV_COLUMNS)[number]),
      ),
      ['', '', ''],
    );
  });
});

describe('audit: a trail of the first format (v1)', () => {
  it('verifies as it was exported, and its CSV rows leave the new columns empty', () => {
    const rows = v1Rows();
    for (const row of rows)
      assert.equal(sha256Hex(row.text), row.hash, `record ${row.seq} hashes as exported`);
    const result = verifyAuditRows(rows);
    assert.deepEqual(result, { ok: true, records: 6, head: rows.at(-1)?.hash });
    assert.ok(
      records(rows).every((r) => r.v === 1 && !('grant' in r)),
      'v1 records have no grant member',
    );

    const [header, ...lines] = parseCsv(csvHeader() + rows.map(csvLine).join(''));
    assert.equal(header?.length, CSV_COLUMNS.length);
    const always = lines.find((line) => line[CSV_COLUMNS.indexOf('outcome')] === 'allow_always');
    assert.equal(always?.[CSV_COLUMNS.indexOf('rules')], 'Bash(make build)');
    assert.deepEqual(always?.slice(-4), ['', '', '', '']);
  });

  it('a store holding a v1 trail chains v2 records after it, and the whole chain verifies', async (t) => {
    const { sup, thread, dataDir } = await openFakeSupervisor(t);
    await sup.close();
    // As a store an older Warden wrote: its audit table holds the v1 trail.
    const fixture = v1Rows();
    const db = new Database(join(dataDir, DATABASE_FILE));
    db.transaction(() => {
      db.exec('DELETE FROM audit');
      const insert = db.prepare('INSERT INTO audit (seq, hash, record) VALUES (?, ?, ?)');
      for (const row of fixture) insert.run(row.seq, row.hash, row.text);
    })();
    db.close();

    const { query, made } = fakeQueries();
    const reopened = await Supervisor.open({ dataDir, query });
    t.after(() => reopened.close());
    const { fake } = await startTurn(reopened, made, thread.id, 'again');
    const asked = await ask(reopened, fake, 'npm test');
    await reopened.decide(asked.id, { behavior: 'allow_always', scope: 'project' });
    await asked.done;

    const rows = reopened.readAudit();
    assert.deepEqual(rows.slice(0, fixture.length), fixture, 'the v1 records are kept as they were');
    const added = records(rows).at(-1);
    assert.equal(added?.v, AUDIT_FORMAT_VERSION);
    assert.equal(added?.seq, fixture.length + 1);
    assert.equal(added?.prev, fixture.at(-1)?.hash);
    assert.equal(added?.grant?.scope, 'project');
    const verified = reopened.verifyAudit();
    assert.deepEqual(verified.ok ? { ...verified, covers: undefined } : verified, {
      ok: true,
      records: fixture.length + 1,
      head: rows.at(-1)?.hash,
      covers: undefined,
    });
    // The log here is the reopened store's own: the v1 records' events are not in it.
    assert.equal(verified.ok && verified.covers?.throughEventSeq, reopened.lastSeq());
  });
});
