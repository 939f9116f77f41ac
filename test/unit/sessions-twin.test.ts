// The session functions on hand-written transcripts that cover what the CLI writes and what can go wrong
// (branches, sidechains, compaction, injected context, commands, bad lines): Warden's results must equal
// the official SDK's on every one. Real transcripts are covered by the e2e twin suite.
import assert from 'node:assert/strict';
import { cpSync, readFileSync, utimesSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';

import * as official from '@anthropic-ai/claude-agent-sdk';
import * as warden from '../../src/index.js';
import type { WardenError } from '../../src/index.js';
import {
  assistant,
  attachment,
  createConfigDir,
  id,
  progress,
  PROJECT_CWD,
  sessionId,
  system,
  user,
  type ConfigDir,
} from './sessions-fixtures.js';

function buildCatalogue(dir: ConfigDir): void {
  let n = 0;
  const write = (entries: (Record<string, unknown> | string)[], cwd?: string) =>
    dir.write(sessionId(++n), entries, cwd);
  {
    const a = user('<command-name>/foo</command-name>');
    const b = user('injected context', id(a), { isMeta: true });
    const c = user('real prompt', id(b));
    write([a, b, c, assistant('hi', id(c))]);
  }
  {
    const a = user('with bad lines');
    write([a, '{not json', assistant('hi', id(a)), '[1,2]', '{"type":"user","trunc']);
  }
  {
    const a = user('branches');
    const b = assistant('first branch', id(a));
    const c = assistant('second branch', id(a));
    write([a, b, c, user('after the first', id(b))]);
  }
  {
    const a = user('titled');
    const b = assistant('x', id(a));
    write([
      a,
      b,
      { type: 'summary', summary: 'A summary', leafUuid: id(b) },
      { type: 'ai-title', aiTitle: 'AI title' },
    ]);
  }
  write([assistant('no prompt at all', null)]);
  {
    const a = user('with notes');
    const s = system('informational', id(a));
    write([a, s, assistant('x', id(s))]);
  }
  write([user('a subagent', null, { isSidechain: true })]);
  write([
    user([
      { type: 'text', text: '  multi\nline   prompt  ' },
      { type: 'text', text: 'second block' },
    ]),
  ]);
  {
    const a = user('[Request interrupted by user]');
    write([a, user('after an interrupt', id(a))]);
  }
  {
    const a = user('before compaction');
    const b = assistant('x', id(a));
    const boundary = system('compact_boundary', null, { logicalParentUuid: id(b) });
    const summary = user('summary of the conversation', id(boundary), { isCompactSummary: true });
    write([a, b, boundary, summary, assistant('after', id(summary))]);
  }
  {
    const a = user('moving', null, { cwd: '/first' });
    const b = assistant('x', id(a), { cwd: '/second', gitBranch: 'dev' });
    write([a, b, { type: 'last-prompt', lastPrompt: 'the last prompt', leafUuid: id(b) }]);
  }
  write([]);
  write([user('x'.repeat(300))]);
  {
    const a = user('retitled');
    write([a, { type: 'custom-title', customTitle: 'Mine' }, { type: 'ai-title', aiTitle: 'Generated' }]);
  }
  write([
    user([
      { type: 'tool_result', tool_use_id: 't', content: 'r' },
      { type: 'text', text: 'after a tool' },
    ]),
  ]);
  {
    const a = user('through progress');
    const p = progress(id(a));
    const b = assistant('x', id(p));
    const c = user('a later branch', id(a));
    write([a, p, b, c, progress(id(b))]);
  }
  {
    const a = user('ends in notes');
    const b = assistant('x', id(a));
    const c = user('abandoned', id(a));
    write([a, b, c, attachment(id(b))]);
    const d = user('ends in a system entry');
    const e = assistant('x', id(d));
    write([d, e, user('abandoned', id(d)), system('local_command', id(e))]);
  }
  {
    const a = user('a subagent hangs off me');
    write([a, assistant('sidechain', id(a), { isSidechain: true })]);
  }
  {
    const a = user('tagged');
    write([a, { type: 'tag', tag: 'blue' }]);
    const b = user('untagged');
    write([b, { type: 'tag', tag: 'blue' }, { type: 'tag', tag: '' }]);
  }
  {
    const a = user('<bash-input>ls -la</bash-input>');
    write([a, user('then typed', id(a))]);
    write([user('<local-command-stdout>out</local-command-stdout>'), user('<some-tag>x</some-tag> rest')]);
  }
  {
    const a = user('orphan test');
    write([a, assistant('x', id(a)), user('an orphan', 'missing-parent')]);
    const b = user('reversed');
    const c = assistant('x', id(b));
    write([c, b]);
  }
  {
    const a = user('transcript only');
    const b = assistant('visible', id(a), { isVisibleInTranscriptOnly: true });
    const c = user([{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'no', is_error: true }], id(b), {
      toolDenialKind: 'permission-rule',
    });
    const d = user('<task-notification>done</task-notification>', id(c), {
      origin: { kind: 'task-notification', producer: 'session-task' },
    });
    write([a, b, c, d]);
  }
  {
    const a = user('from the sdk', null, { entrypoint: 'sdk-ts' });
    write([{ type: 'queue-operation', operation: 'enqueue', timestamp: '2025-06-01T00:00:00.000Z' }, a]);
    write([user('from a terminal', null, { entrypoint: 'cli' })]);
    write([user('bad time', null, { timestamp: 'garbage' })]);
  }
  write([user('in another project', null, { cwd: '/elsewhere' })], '/elsewhere');
  // Equal mtimes: the order falls back to the session id.
  for (let i = 1; i <= n; i++) {
    const file = `${dir.project(PROJECT_CWD)}/${sessionId(i)}.jsonl`;
    try {
      utimesSync(file, 1_700_000_000 + (i % 3), 1_700_000_000 + (i % 3));
    } catch {
      // in the other project
    }
  }
}

/** Absent and undefined are the same to an application; see test/e2e/twin/session-checks.ts. */
function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? null)) as unknown;
}

describe('session functions on hand-written transcripts: Warden equals the official SDK', () => {
  const dir = createConfigDir();
  const warnings: WardenError[] = [];
  const onWarning = (w: WardenError) => warnings.push(w);
  let restore: () => void = () => undefined;
  before(() => {
    buildCatalogue(dir);
    restore = dir.activate();
  });
  after(() => {
    restore();
    dir.cleanup();
  });

  it('listSessions, with and without options', async () => {
    for (const options of [
      {},
      { dir: PROJECT_CWD },
      { dir: '/elsewhere' },
      { dir: '/nowhere' },
      { limit: 3 },
      { limit: 4, offset: 2 },
      { limit: 0 },
      { offset: 100 },
      { includeProgrammatic: false },
    ]) {
      const expected = await official.listSessions(options);
      assert.deepEqual(
        plain(await warden.listSessions({ ...options, onWarning })),
        plain(expected),
        JSON.stringify(options),
      );
    }
    assert.ok((await official.listSessions()).length > 20);
  });

  it('getSessionInfo and getSessionMessages of every session (and of missing ones)', async () => {
    const ids = [...Array.from({ length: 40 }, (_, i) => sessionId(i + 1)), 'not-a-uuid', '../../etc/passwd'];
    for (const sid of ids) {
      assert.deepEqual(
        plain(await warden.getSessionInfo(sid, { onWarning })),
        plain(await official.getSessionInfo(sid)),
        `getSessionInfo ${sid}`,
      );
      for (const options of [
        {},
        { includeSystemMessages: true },
        { limit: 2, offset: 1 },
        { dir: PROJECT_CWD },
      ]) {
        assert.deepStrictEqual(
          await warden.getSessionMessages(sid, { ...options, onWarning }),
          await official.getSessionMessages(sid, options),
          `getSessionMessages ${sid} ${JSON.stringify(options)}`,
        );
      }
    }
  });

  it('malformed and truncated lines were skipped with a warning each, never a crash', () => {
    const malformed = warnings.filter((w) => w.code === 'PROTOCOL_ERROR');
    assert.ok(malformed.length >= 3);
    assert.ok(malformed.every((w) => /^Skipped a malformed line \d+ of transcript /.test(w.message)));
  });

  it('rename, tag and untag append the same lines', async () => {
    const copies = [createConfigDir(), createConfigDir()];
    try {
      const target = sessionId(1);
      const files: string[] = [];
      for (const [i, sdk] of [official, warden].entries()) {
        const copy = copies[i]!;
        cpSync(dir.root, copy.root, { recursive: true });
        const undo = copy.activate();
        try {
          await sdk.renameSession(target, '  A new title  ');
          await sdk.tagSession(target, 'green\u200b', { dir: PROJECT_CWD });
          await sdk.tagSession(target, null);
        } finally {
          undo();
        }
        files.push(readFileSync(`${copy.project(PROJECT_CWD)}/${target}.jsonl`, 'utf8'));
      }
      assert.equal(files[1], files[0]);
    } finally {
      for (const copy of copies) copy.cleanup();
    }
  });

  it('a fork has the same messages (new uuids), title and first prompt', async () => {
    const source = sessionId(10); // the compacted session
    const upTo = (await official.getSessionMessages(source))[0]!.uuid;
    const describeFork = async (
      sdk: typeof official,
      options: { upToMessageId?: string; title?: string },
    ) => {
      const { sessionId: forkId } = await sdk.forkSession(source, options);
      const info = await official.getSessionInfo(forkId);
      const messages = await official.getSessionMessages(forkId, { includeSystemMessages: true });
      return {
        info: {
          ...info,
          sessionId: undefined,
          lastModified: undefined,
          fileSize: undefined,
          createdAt: undefined,
        },
        messages: messages.map((m) => ({
          ...m,
          uuid: undefined,
          session_id: m.session_id === forkId,
          timestamp: undefined,
        })),
      };
    };
    for (const options of [{}, { upToMessageId: upTo }, { title: 'Named' }]) {
      assert.deepEqual(
        plain(await describeFork(warden as unknown as typeof official, options)),
        plain(await describeFork(official, options)),
        JSON.stringify(options),
      );
    }
  });
});
