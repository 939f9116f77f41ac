// The audit export's CSV: RFC 4180 quoting (quotes doubled, fields with a comma, quote or line break
// quoted) and no formula injection (a field starting with =, +, -, @, tab or CR is made text with a
// leading '); the JSON Lines line is the record's canonical JSON with its hash.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { canonicalJson } from '../../src/store/canonical-json.js';
import { csvField, csvHeader, csvLine, CSV_COLUMNS, jsonlLine } from '../../src/server/audit-export.js';
import {
  chainRecord,
  GENESIS_PREV,
  genesisDraft,
  sha256Hex,
  type AuditDraft,
} from '../../src/store/audit-chain.js';
import { parseCsv } from '../helpers/csv.js';

describe('audit export', () => {
  it('escapes quotes and line breaks, and neutralises formula characters', () => {
    assert.equal(csvField('plain'), 'plain');
    assert.equal(csvField('say "hi"'), '"say ""hi"""');
    assert.equal(csvField('two\nlines'), '"two\nlines"');
    assert.equal(csvField('a,b'), '"a,b"');
    assert.equal(csvField('=1+1'), "'=1+1");
    assert.equal(csvField('+1'), "'+1");
    assert.equal(csvField('-2'), "'-2");
    assert.equal(csvField('@SUM(A1)'), "'@SUM(A1)");
    assert.equal(csvField('\t=x'), "'\t=x");
    assert.equal(csvField('=HYPERLINK("http://x","y")'), '"\'=HYPERLINK(""http://x"",""y"")"');
    assert.equal(csvField(null), '');
  });

  it('a record with hostile input reads back field for field, nothing starting as a formula', () => {
    const genesis = chainRecord(genesisDraft('2026-01-01T00:00:00.000Z', 0), 1, GENESIS_PREV);
    const hostile = "=cmd|' /C calc'!A0";
    const draft: AuditDraft = {
      ...genesisDraft('2026-01-01T00:00:01.000Z', 0),
      kind: 'decision',
      eventSeq: 7,
      tool: '@Bash',
      input: { command: hostile },
      decidedBy: { name: 'alice', via: 'web' },
      outcome: 'deny',
      reason: 'No: "rm"\nwould delete\r\neverything',
    };
    delete draft.note;
    const { row } = chainRecord(draft, 2, genesis.row.hash);
    const text = csvHeader() + csvLine(genesis.row) + csvLine(row);
    const [header, , line] = parseCsv(text);
    assert.deepEqual(header, [...CSV_COLUMNS]);
    const field = (name: (typeof CSV_COLUMNS)[number]) => line?.[CSV_COLUMNS.indexOf(name)];
    assert.equal(field('tool'), "'@Bash");
    assert.equal(field('input'), JSON.stringify({ command: hostile }));
    assert.equal(field('reason'), 'No: "rm"\nwould delete\r\neverything');
    assert.equal(field('decided_by'), 'alice');
    assert.equal(field('hash'), row.hash);
    for (const value of line ?? []) assert.doesNotMatch(value, /^[=+\-@\t\r]/);

    const exported = JSON.parse(jsonlLine(row)) as Record<string, unknown>;
    assert.equal(exported.hash, row.hash);
    delete exported.hash;
    assert.equal(sha256Hex(canonicalJson(exported)), row.hash, 'the hash is recomputed from the line alone');
  });
});
