// `GET /api/audit` asked questions: records of one thread, of one decider, with one outcome, newest
// first a page at a time (`order=desc&limit=&before=`), as JSON Lines and as CSV with the always-allow's
// scope and settings file; a filter whose value cannot be one is refused with 400 naming it, never
// answered with everything.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { CSV_COLUMNS } from '../../src/server/audit-export.js';
import { createServer } from '../../src/server/index.js';
import type { AuditRecord } from '../../src/store/audit-chain.js';
import type { DecidedBy } from '../../src/store/records.js';
import type { Supervisor } from '../../src/supervisor/index.js';
import { waitForEvent } from '../e2e/helpers/supervisor-session.js';
import { openFakeSupervisor, startTurn, type FakeQuery } from '../fixtures/supervisor-fake-query.js';
import { parseCsv } from '../helpers/csv.js';

type Exported = AuditRecord & { hash: string };

const ALICE: DecidedBy = { name: 'alice', via: 'web' };
const BOB: DecidedBy = { name: 'bob', via: 'api' };

/** Asks for `command` on `fake`, answers it as `decision` says, and waits for the CLI to have the answer. */
async function decided(
  sup: Supervisor,
  fake: FakeQuery,
  command: string,
  decision: Parameters<Supervisor['decide']>[1],
): Promise<string> {
  const { result } = fake.ask('Bash', { command });
  const asked = await waitForEvent(sup, 'approval.requested', (e) => e.data.input.command === command);
  await sup.decide(asked.data.approvalId, decision);
  await result;
  return asked.data.approvalId;
}

describe('GET /api/audit: filters, order and pages', () => {
  it('answers by thread, decider and outcome, newest first in pages, and refuses bad filters', async (t) => {
    const { sup, made, thread, dataDir, cwd } = await openFakeSupervisor(t);
    const server = await createServer({ supervisor: sup, dataDir, onError: () => undefined });
    t.after(() => server.close());
    const other = await sup.createThread({ cwd, mode: 'supervised' });
    const first = await startTurn(sup, made, thread.id, 'one');
    const second = await startTurn(sup, made, other.id, 'two');
    await decided(sup, first.fake, 'make test', { behavior: 'allow', decidedBy: ALICE });
    await decided(sup, first.fake, 'rm -rf build', { behavior: 'deny', decidedBy: BOB });
    const project = await decided(sup, second.fake, 'git status', {
      behavior: 'allow_always',
      scope: 'project',
      decidedBy: ALICE,
    });
    await decided(sup, second.fake, 'curl example.com', { behavior: 'deny', decidedBy: ALICE });

    const get = async (query: string) => {
      const response = await fetch(`${server.url}/api/audit?${query}`, {
        headers: { authorization: `Bearer ${server.token}` },
      });
      return { status: response.status, text: await response.text() };
    };
    const jsonl = async (query: string): Promise<Exported[]> => {
      const { status, text } = await get(`format=jsonl&${query}`);
      assert.equal(status, 200, text);
      return text === ''
        ? []
        : text
            .trimEnd()
            .split('\n')
            .map((line) => JSON.parse(line) as Exported);
    };
    const commands = (records: Exported[]) => records.map((r) => r.input?.command);

    assert.deepEqual(commands(await jsonl(`threadId=${other.id}`)), ['git status', 'curl example.com']);
    assert.deepEqual(commands(await jsonl('decider=alice')), ['make test', 'git status', 'curl example.com']);
    assert.deepEqual(commands(await jsonl('outcome=deny')), ['rm -rf build', 'curl example.com']);
    assert.deepEqual(commands(await jsonl(`decider=alice&outcome=deny&threadId=${other.id}`)), [
      'curl example.com',
    ]);
    assert.deepEqual(await jsonl('decider=carol'), [], 'a decider with no records: none');

    // Newest first, two at a time: the genesis record comes last.
    const page1 = await jsonl('order=desc&limit=2');
    assert.deepEqual(commands(page1), ['curl example.com', 'git status']);
    const page2 = await jsonl(`order=desc&limit=2&before=${page1.at(-1)?.seq}`);
    assert.deepEqual(commands(page2), ['rm -rf build', 'make test']);
    const page3 = await jsonl(`order=desc&limit=2&before=${page2.at(-1)?.seq}`);
    assert.deepEqual(
      page3.map((r) => r.kind),
      ['genesis'],
    );
    assert.deepEqual(commands(await jsonl('order=desc&outcome=deny&limit=1')), ['curl example.com']);
    assert.deepEqual(commands(await jsonl('after=2&before=4')), ['rm -rf build']);

    // The CSV of the always-allows says where the rule went.
    const csv = await get('format=csv&outcome=allow_always');
    assert.equal(csv.status, 200);
    const [header, ...lines] = parseCsv(csv.text);
    assert.deepEqual(header, [...CSV_COLUMNS]);
    assert.equal(lines.length, 1);
    const field = (name: (typeof CSV_COLUMNS)[number]) => lines[0]?.[CSV_COLUMNS.indexOf(name)];
    assert.equal(field('approval_id'), project);
    assert.equal(field('scope'), 'project');
    assert.equal(field('destination'), 'localSettings');
    assert.equal(field('settings_file'), join(cwd, '.claude', 'settings.local.json'));
    assert.equal(field('rules'), 'Bash(git status)');

    const refused: [string, RegExp][] = [
      ['outcome=maybe', /^outcome: outcome must be one of allow, allow_always, deny, cancelled, expired$/],
      ['threadId=../etc', /^threadId: threadId must be a thread id/],
      ['threadId=', /^threadId: threadId must be a thread id/],
      ['decider=Alice!', /^decider: decider must be a decider's name/],
      ['order=up', /^order: order must be asc or desc$/],
      ['limit=0', /^limit: limit must be a whole number from 1 to 1000$/],
      ['limit=5000', /^limit: limit must be a whole number from 1 to 1000$/],
      ['before=x', /^before: before must be a record number/],
      ['after=5&before=3', /^before: before must be greater than after$/],
      ['format=xml', /^format: format must be jsonl or csv$/],
      ['thread=abc', /Unrecognized key.*thread/],
    ];
    for (const [query, message] of refused) {
      const { status, text } = await get(query);
      assert.equal(status, 400, query);
      const { error } = JSON.parse(text) as { error: { code: string; message: string } };
      assert.equal(error.code, 'VALIDATION', query);
      assert.match(error.message, message, query);
    }
  });
});
