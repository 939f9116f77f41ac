// Warden's own guarantees for the session functions, beyond matching the official SDK: bad lines are
// reported and skipped, missing sessions are NotFoundErrors, bad arguments TypeErrors, appends survive a
// truncated last line, and the corners of where transcripts live (long paths, worktrees) are covered.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { deleteSession as officialDeleteSession } from '@anthropic-ai/claude-agent-sdk';

import {
  deleteSession,
  forkSession,
  getSessionInfo,
  getSessionMessages,
  listSessions,
  NotFoundError,
  ProtocolError,
  renameSession,
  tagSession,
  type WardenError,
} from '../../src/index.js';
import { deletedAt } from '../../src/sessions/deleted-marks.js';
import {
  assistant,
  createConfigDir,
  id,
  progress,
  PROJECT_CWD,
  sessionId,
  user,
  type ConfigDir,
} from './sessions-fixtures.js';

let dir: ConfigDir;
let restore: () => void;
const warnings: WardenError[] = [];
const onWarning = (w: WardenError) => warnings.push(w);

beforeEach(() => {
  dir = createConfigDir();
  restore = dir.activate();
  warnings.length = 0;
});
afterEach(() => {
  restore();
  dir.cleanup();
});

describe('malformed transcripts', () => {
  it('skips bad and truncated lines, reporting each with its line number', async () => {
    const a = user('still readable');
    const path = dir.write(sessionId(1), [a, 'not json', '"a string"', assistant('fine', id(a))]);
    writeFileSync(path, `${readFileSync(path, 'utf8')}{"type":"assistant","mess`);
    const messages = await getSessionMessages(sessionId(1), { onWarning });
    assert.deepEqual(
      messages.map((m) => m.type),
      ['user', 'assistant'],
    );
    assert.deepEqual(
      warnings.map((w) => [w.constructor, w.code, /line (\d+)/.exec(w.message)?.[1]]),
      [
        [ProtocolError, 'PROTOCOL_ERROR', '2'],
        [ProtocolError, 'PROTOCOL_ERROR', '3'],
        [ProtocolError, 'PROTOCOL_ERROR', '5'],
      ],
    );
    assert.match(warnings[2]!.message, /truncated: no newline at the end/);
  });

  it('without onWarning, the diagnostic goes to process.emitWarning', async () => {
    dir.write(sessionId(1), [user('x'), '{oops']);
    const seen = new Promise<Error>((resolve) => process.once('warning', resolve));
    await getSessionInfo(sessionId(1));
    const warning = await seen;
    assert.ok(warning instanceof ProtocolError);
  });

  it('a parent chain that loops ends instead of hanging', async () => {
    const a = user('loop', uuidOf(2));
    const b = assistant('back', uuidOf(1));
    Object.assign(a, { uuid: uuidOf(1) });
    Object.assign(b, { uuid: uuidOf(2), parentUuid: uuidOf(1) });
    Object.assign(a, { parentUuid: uuidOf(2) });
    dir.write(sessionId(1), [a, b, user('leaf', uuidOf(2), { uuid: uuidOf(3) })]);
    const messages = await getSessionMessages(sessionId(1));
    assert.equal(messages.length, 3);
  });
});

function uuidOf(n: number): string {
  return `99999999-0000-4000-8000-${String(n).padStart(12, '0')}`;
}

describe('missing sessions and bad arguments', () => {
  const missing = sessionId(99);

  it('the readers answer nothing, as the official SDK does', async () => {
    assert.equal(await getSessionInfo(missing), undefined);
    assert.deepEqual(await getSessionMessages(missing), []);
    assert.equal(await getSessionInfo('../../etc/passwd'), undefined);
  });

  it('the mutations throw NotFoundError (code NOT_FOUND) with the official text', async () => {
    for (const call of [
      () => renameSession(missing, 'x'),
      () => tagSession(missing, 'x'),
      () => deleteSession(missing),
      () => forkSession(missing),
    ])
      await assert.rejects(call(), (error: unknown) => {
        assert.ok(error instanceof NotFoundError);
        assert.equal(error.code, 'NOT_FOUND');
        assert.equal(error.resource, 'session');
        assert.equal(error.id, missing);
        assert.equal(error.message, `Session ${missing} not found in any project directory`);
        return true;
      });
    await assert.rejects(renameSession(missing, 'x', { dir: '/somewhere' }), {
      message: `Session ${missing} not found in project directory for /somewhere`,
    });
  });

  it('forking at a message that is not there is a NotFoundError for the message', async () => {
    dir.write(sessionId(1), [user('x')]);
    await assert.rejects(forkSession(sessionId(1), { upToMessageId: missing }), (error: unknown) => {
      assert.ok(error instanceof NotFoundError);
      assert.equal(error.resource, 'message');
      return true;
    });
  });

  it('bad ids and options are TypeErrors, at once', async () => {
    await assert.rejects(renameSession('../escape', 'x'), {
      name: 'TypeError',
      message: 'Invalid sessionId: ../escape',
    });
    dir.write(sessionId(1), [user('x')]);
    await assert.rejects(renameSession(sessionId(1), '   '), TypeError);
    await assert.rejects(tagSession(sessionId(1), ''), TypeError);
    await assert.rejects(listSessions({ limit: -1 }), TypeError);
    await assert.rejects(listSessions({ dir: 5 as unknown as string }), TypeError);
    await assert.rejects(
      getSessionMessages(sessionId(1), { includeSystemMessages: 'yes' as unknown as boolean }),
      TypeError,
    );
    await assert.rejects(listSessions({ onWarning: 'loud' as unknown as () => void }), TypeError);
  });
});

describe('mutations', () => {
  it('an append after a line cut short by a killed CLI starts on a line of its own', async () => {
    const path = dir.write(sessionId(1), [user('first')]);
    writeFileSync(path, `${readFileSync(path, 'utf8')}{"type":"assistant","cut`);
    await renameSession(sessionId(1), 'Renamed', { onWarning });
    const info = await getSessionInfo(sessionId(1), { onWarning });
    assert.equal(info?.customTitle, 'Renamed');
    assert.equal(readFileSync(path, 'utf8').split('\n').filter(Boolean).length, 3);
  });

  it('deleteSession removes the transcript and its subagent transcripts', async () => {
    const path = dir.write(sessionId(1), [user('x')]);
    const subagents = join(dir.project(PROJECT_CWD), sessionId(1), 'subagents');
    mkdirSync(subagents, { recursive: true });
    writeFileSync(join(subagents, 'agent-a1.jsonl'), '{}\n');
    await deleteSession(sessionId(1));
    assert.equal(existsSync(path), false);
    assert.equal(existsSync(join(dir.project(PROJECT_CWD), sessionId(1))), false);
    assert.deepEqual(await listSessions(), []);
  });

  it('a repeated deleteSession removes a subagent folder the first call left behind, and resolves', async () => {
    const path = dir.write(sessionId(1), [user('x')]);
    const folder = join(dir.project(PROJECT_CWD), sessionId(1));
    await deleteSession(sessionId(1));
    assert.notEqual(await deletedAt(path), undefined, 'the deletion is recorded');
    // What a first call leaves when the folder could not be removed: the transcript gone, the folder there.
    mkdirSync(join(folder, 'subagents'), { recursive: true });
    writeFileSync(join(folder, 'subagents', 'agent-a1.jsonl'), '{}\n');
    await deleteSession(sessionId(1));
    assert.equal(existsSync(folder), false);
    // No record of a first call: still not found.
    await assert.rejects(() => deleteSession(sessionId(2)), NotFoundError);
  });

  it("deleteSession reads the official SDK's record of a deletion", async () => {
    const path = dir.write(sessionId(3), [user('x')]);
    await officialDeleteSession(sessionId(3));
    assert.equal(existsSync(path), false);
    assert.notEqual(await deletedAt(path), undefined);
    mkdirSync(join(dir.project(PROJECT_CWD), sessionId(3)), { recursive: true });
    await deleteSession(sessionId(3));
    assert.equal(existsSync(join(dir.project(PROJECT_CWD), sessionId(3))), false);
  });

  it('forkSession remaps every uuid and link, leaves subagent and progress entries behind', async () => {
    const a = user('fork me');
    const p = progress(id(a));
    const b = assistant('answer', id(a));
    const side = assistant('subagent work', id(a), { isSidechain: true });
    const c = user('via progress', id(p));
    dir.write(sessionId(1), [a, p, b, side, c, { type: 'tools-used', tools: ['Bash'] }]);
    const { sessionId: forkId } = await forkSession(sessionId(1), { title: 'The fork' });
    const lines = readFileSync(join(dir.project(PROJECT_CWD), `${forkId}.jsonl`), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(
      lines.map((l) => l.type),
      ['user', 'assistant', 'user', 'tools-used', 'custom-title'],
    );
    const [fa, fb, fc] = lines;
    const old = new Set([id(a), id(p), id(b), id(side), id(c)]);
    for (const line of lines) {
      assert.equal(line.sessionId, forkId);
      assert.ok(!old.has(String(line.uuid)), 'a new uuid');
    }
    assert.equal(fb!.parentUuid, fa!.uuid, 'links follow the new uuids');
    assert.equal(fc!.parentUuid, null, 'a link to an entry left behind is cut');
    assert.deepEqual(fa!.forkedFrom, { sessionId: sessionId(1), messageUuid: id(a) });
    assert.equal(fb!.requestSessionId, sessionId(1));
    const info = await getSessionInfo(forkId);
    assert.equal(info?.customTitle, 'The fork');
    assert.equal(info?.firstPrompt, 'fork me');
  });
});

describe('where transcripts live', () => {
  it('a cwd longer than 200 characters: the hashed project folder is found, other cwds with the prefix are not', async () => {
    const long = `/home/dev/${'deep-folder/'.repeat(20)}project`;
    const other = `${long}-other`;
    const base = long.replace(/[^a-zA-Z0-9]/g, '-').slice(0, 200);
    for (const [n, cwd, hash] of [
      [1, long, 'abc123'],
      [2, other, 'def456'],
    ] as const) {
      const folder = join(dir.root, 'projects', `${base}-${hash}`);
      mkdirSync(folder, { recursive: true });
      writeFileSync(
        join(folder, `${sessionId(n)}.jsonl`),
        `${JSON.stringify({ ...user(`in ${n}`), cwd, sessionId: sessionId(n) })}\n`,
      );
    }
    assert.deepEqual(
      (await listSessions({ dir: long })).map((s) => s.sessionId),
      [sessionId(1)],
    );
    assert.equal((await getSessionInfo(sessionId(2), { dir: long }))?.sessionId, undefined);
    assert.equal((await getSessionInfo(sessionId(2), { dir: other }))?.sessionId, sessionId(2));
  });

  it('listSessions({ dir }) includes the sessions of the git worktrees, unless includeWorktrees is false', async () => {
    const repo = join(dir.root, 'repo');
    const tree = join(dir.root, 'repo-feature');
    mkdirSync(repo);
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', repo, '-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
        stdio: 'ignore',
      });
    git('init', '-q');
    git('commit', '-q', '--allow-empty', '-m', 'init');
    git('worktree', 'add', '-q', tree);
    dir.write(sessionId(1), [user('in the main checkout', null, { cwd: repo })], repo);
    dir.write(sessionId(2), [user('in the worktree', null, { cwd: tree })], tree);
    assert.deepEqual((await listSessions({ dir: repo })).map((s) => s.sessionId).sort(), [
      sessionId(1),
      sessionId(2),
    ]);
    assert.deepEqual(
      (await listSessions({ dir: repo, includeWorktrees: false })).map((s) => s.sessionId),
      [sessionId(1)],
    );
  });
});
