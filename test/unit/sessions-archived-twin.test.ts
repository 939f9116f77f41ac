// `archived` in listSessions and getSessionInfo, on hand-written transcripts and marks: Warden's value must
// equal the official SDK's — set by the mark, cleared by a prompt a person sent after it (but not by tool
// results, injected context or turns the CLI started), absent when there is no valid mark.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import * as official from '@anthropic-ai/claude-agent-sdk';
import * as warden from '../../src/index.js';
import { assistant, createConfigDir, id, PROJECT_CWD, sessionId, user } from './sessions-fixtures.js';

/** The fixtures' entries are stamped 2026-01-01T00:00:SS; marks are set around them. */
const BEFORE = '2025-12-31T23:00:00.000Z';
const AFTER = '2026-01-02T00:00:00.000Z';

interface Case {
  name: string;
  entries: Record<string, unknown>[];
  /** The raw content of archived.json, or undefined for none. */
  mark: string | undefined;
}

function mark(archived: boolean, at: string): string {
  return JSON.stringify({ archived, at, by: 'sdk' });
}

function laterEntry(extra: Record<string, unknown>, content: unknown = 'a later prompt') {
  const first = user('first prompt');
  const later = user(content, id(first), { timestamp: '2026-01-01T12:00:00.000Z', ...extra });
  return [first, assistant('x', id(first)), later];
}

const CASES: Case[] = [
  { name: 'never archived', entries: laterEntry({}), mark: undefined },
  { name: 'archived after every prompt', entries: laterEntry({}), mark: mark(true, AFTER) },
  { name: 'archived, then prompted', entries: laterEntry({}), mark: mark(true, BEFORE) },
  { name: 'unarchived', entries: laterEntry({}), mark: mark(false, AFTER) },
  {
    name: 'mark between the prompts',
    entries: laterEntry({}),
    mark: mark(true, '2026-01-01T06:00:00+00:00'),
  },
  { name: 'later injected context only', entries: laterEntry({ isMeta: true }), mark: mark(true, BEFORE) },
  {
    name: 'later tool result only',
    entries: laterEntry({}, [{ type: 'tool_result', tool_use_id: 't', content: 'r' }]),
    mark: mark(true, BEFORE),
  },
  {
    name: 'later CLI-started turn',
    entries: laterEntry(
      { origin: { kind: 'task-notification' } },
      '<task-notification>x</task-notification>',
    ),
    mark: mark(true, BEFORE),
  },
  {
    name: 'later human origin',
    entries: laterEntry({ origin: { kind: 'human' } }),
    mark: mark(true, BEFORE),
  },
  {
    name: 'later command name only',
    entries: laterEntry({}, '<command-name>/foo</command-name>'),
    mark: mark(true, BEFORE),
  },
  {
    name: 'later command message',
    entries: laterEntry({}, '<command-message>foo</command-message>\n<command-name>/foo</command-name>'),
    mark: mark(true, BEFORE),
  },
  {
    name: 'later interrupt note',
    entries: laterEntry({}, '[Request interrupted by user]'),
    mark: mark(true, BEFORE),
  },
  {
    name: 'later image',
    entries: laterEntry({}, [
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: '' } },
    ]),
    mark: mark(true, BEFORE),
  },
  {
    name: 'later queued command',
    entries: [
      ...laterEntry({ isMeta: true }),
      {
        type: 'attachment',
        uuid: '22222222-2222-4222-8222-000000000001',
        parentUuid: null,
        isSidechain: false,
        timestamp: '2026-01-01T13:00:00.000Z',
        attachment: { type: 'queued_command', prompt: 'queued while running' },
      },
    ],
    mark: mark(true, BEFORE),
  },
  {
    name: 'mark without a time zone',
    entries: laterEntry({}),
    mark: '{"archived":true,"at":"2026-01-02T00:00:00"}',
  },
  { name: 'mark not JSON', entries: laterEntry({}), mark: '{archived' },
  { name: 'mark too large', entries: laterEntry({}), mark: `${mark(true, AFTER)}${' '.repeat(5000)}` },
];

describe('archived in listSessions and getSessionInfo: Warden equals the official SDK', () => {
  const dir = createConfigDir();
  const ids = CASES.map((_, index) => sessionId(500 + index));
  let restore: () => void = () => undefined;
  before(() => {
    for (const [index, { entries, mark: content }] of CASES.entries()) {
      const path = dir.write(ids[index]!, entries);
      if (content === undefined) continue;
      const folder = join(path.replace(/\.jsonl$/, ''));
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, 'archived.json'), content);
    }
    restore = dir.activate();
  });
  after(() => {
    restore();
    dir.cleanup();
  });

  it('listSessions reports archived per session as the official one does', async () => {
    const theirs = new Map((await official.listSessions({ dir: PROJECT_CWD })).map((s) => [s.sessionId, s]));
    const ours = new Map((await warden.listSessions({ dir: PROJECT_CWD })).map((s) => [s.sessionId, s]));
    for (const [index, { name }] of CASES.entries()) {
      const sid = ids[index]!;
      assert.ok(theirs.has(sid), `the official SDK lists ${name}`);
      assert.equal(ours.get(sid)?.archived, theirs.get(sid)?.archived, name);
    }
    // The cases cover every outcome, so equality above is not vacuous.
    const values = new Set(CASES.map((_, index) => theirs.get(ids[index]!)?.archived));
    assert.deepEqual([...values].sort(), [false, true, undefined].sort());
  });

  it('getSessionInfo reports the same archived', async () => {
    for (const [index, { name }] of CASES.entries()) {
      const sid = ids[index]!;
      const theirs = await official.getSessionInfo(sid);
      const ours = await warden.getSessionInfo(sid);
      assert.equal(ours?.archived, theirs?.archived, name);
    }
  });

  it('archiveSession then a prompt: archived, then not', async () => {
    const sid = sessionId(600);
    dir.write(sid, [user('prompted before the mark', null, { timestamp: '2020-01-01T00:00:00.000Z' })]);
    await warden.archiveSession(sid);
    assert.equal((await warden.getSessionInfo(sid))?.archived, true);
    assert.equal((await official.getSessionInfo(sid))?.archived, true);
    dir.write(sid, [
      user('prompted before the mark', null, { timestamp: '2020-01-01T00:00:00.000Z' }),
      user('prompted after the mark', null, { timestamp: new Date(Date.now() + 60_000).toISOString() }),
    ]);
    assert.equal((await warden.getSessionInfo(sid))?.archived, false);
    assert.equal((await official.getSessionInfo(sid))?.archived, false);
  });
});
