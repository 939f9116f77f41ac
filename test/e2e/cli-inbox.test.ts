// `warden inbox` against a real `warden serve` (real CLI, mock model): with no server it says so and
// writes nothing; it lists the approvals of threads started over the API with their titles — an escape
// sequence in a prompt shown as a marker, never sent to the terminal — as text and as JSON; it answers
// them from stdin (--ask): a deny with a typed reason that reaches the model, an allow; and answers one by
// id, where the same answer again is refused (exit 1), since it is no longer pending.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { scenario } from '../../src/testing/index.js';
import { plain, spawnWarden, startCommandSession, type CommandSession } from './helpers/server-command.js';
import { createThread, pollFor, startServe, type ServeProcess } from './helpers/serve-process.js';

const script = () =>
  scenario()
    .on('first')
    .callTool('Bash', { command: 'touch first.txt', description: 'Create the first file' })
    .thenAnswer((ctx) => `first: ${ctx.toolResults[0]?.isError === true ? ctx.toolResults[0].text : 'made'}`)
    .on('second')
    .callTool('Bash', { command: 'touch second.txt', description: 'Create the second file' })
    .thenAnswer('second: made')
    .on('third')
    .callTool('Bash', { command: 'touch third.txt', description: 'Create the third file' })
    .thenAnswer('third: made')
    .build();

async function inbox(session: CommandSession, args: string[], input?: string) {
  const command = spawnWarden(['inbox', '--data-dir', session.dataDir, ...args], session.env);
  if (input !== undefined) command.child.stdin.end(input);
  else command.child.stdin.end();
  const { code } = await command.exited;
  return { code, stdout: plain(command.stdout()), stderr: plain(command.stderr()) };
}

async function pending(serve: ServeProcess, count: number) {
  return pollFor(`${count} pending approvals`, async () => {
    const { approvals } = await serve.api('/api/approvals?status=pending');
    return approvals.length === count ? (approvals as Record<string, any>[]) : undefined; // eslint-disable-line @typescript-eslint/no-explicit-any
  });
}

describe('warden inbox', { timeout: 180_000 }, () => {
  it('says when no server runs, and writes nothing', async (t) => {
    const session = await startCommandSession(t);
    const result = await inbox(session, []);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /no server is running on .*: approvals wait in a running warden serve/);
    assert.equal(existsSync(session.dataDir), false);
  });

  it('lists pending approvals across threads and answers them', async (t) => {
    const session = await startCommandSession(t, script());
    const serve = await startServe(session.world, session.dataDir, session.env, { args: ['--stop-agents'] });
    const first = await createThread(serve, session.scratch.cwd, '[[first]] Make \x1b[2Jthe first file');
    await pending(serve, 1);
    const second = await createThread(serve, session.scratch.cwd, '[[second]] Make the second file');
    await pending(serve, 2);

    const listed = await inbox(session, []);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^2 approvals waiting:$/m);
    assert.ok(!listed.stdout.includes('\x1b'), 'no escape sequence reaches the terminal');
    assert.match(listed.stdout, /“(\[\[first\]\] )?Make ⟨U\+001B⟩\[2Jthe first file” · Bash · waiting \d+s/);
    assert.match(listed.stdout, /Bash: touch second\.txt/);
    assert.match(listed.stdout, /warden inbox allow\|always\|deny ID/);

    const json = await inbox(session, ['--json']);
    assert.equal(json.code, 0, json.stderr);
    const rows = (JSON.parse(json.stdout) as { approvals: Record<string, unknown>[] }).approvals;
    assert.deepEqual(
      rows.map((row) => [row.threadId, row.toolName, (row.input as { command: string }).command]),
      [
        [first.threadId, 'Bash', 'touch first.txt'],
        [second.threadId, 'Bash', 'touch second.txt'],
      ],
    );
    // The server's title (its first prompt, without a test marker when the server drops them).
    assert.match(String(rows[1]?.threadTitle), /^(\[\[second\]\] )?Make the second file$/);

    // One line per answer: a deny with its reason, then an allow.
    const answered = await inbox(session, ['--ask'], 'n use the staging copy instead\nmaybe\ny\n');
    assert.equal(answered.code, 0, answered.stderr);
    assert.match(answered.stderr, /\[1\/2\] “(\[\[first\]\] )?Make ⟨U\+001B⟩\[2Jthe first file” · Bash/);
    assert.match(answered.stderr, /\? Allow Bash: touch first\.txt/);
    assert.match(
      answered.stderr,
      /always \(a\) adds exactly: Bash\(touch first\.txt\) — for this CLI session, this thread or this project \(asked next\)/,
    );
    assert.match(
      answered.stderr,
      /allow \(y\) \/ always \(a\) \/ deny \(n \[reason\]\) \/ skip \(s\) \/ quit \(q\)\? /,
    );
    assert.match(answered.stderr, /✗ denied/);
    assert.match(answered.stderr, /answer y, a, n \(n <reason> to say why\), s or q/);
    assert.match(answered.stderr, /✓ allowed/);
    assert.match(answered.stderr, /2 answered\./);
    const { approvals } = await serve.api(`/api/approvals?threadId=${first.threadId}`);
    assert.equal(approvals[0].status, 'denied');
    assert.equal(approvals[0].decision.message, 'use the staging copy instead');
    await pollFor('the second file', () =>
      Promise.resolve(existsSync(join(session.scratch.cwd, 'second.txt')) ? true : undefined),
    );
    assert.equal(existsSync(join(session.scratch.cwd, 'first.txt')), false);

    // By id, for scripts: once, then refused.
    const third = await createThread(serve, session.scratch.cwd, '[[third]] Make the third file');
    const [approval] = await pollFor('the third approval', async () => {
      const list = await serve.api(`/api/approvals?status=pending&threadId=${third.threadId}`);
      const approvals = list.approvals as { id: string }[];
      return approvals.length === 1 ? approvals : undefined;
    });
    assert.ok(approval !== undefined);
    const once = await inbox(session, ['allow', approval.id]);
    assert.equal(once.code, 0, once.stderr);
    assert.match(once.stdout, /✓ allowed/);
    const again = await inbox(session, ['deny', approval.id, 'too late']);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /already allowed/);
    const empty = await inbox(session, []);
    assert.match(empty.stdout, /No approval is waiting\./);
  });
});
