// `warden run` answering beyond yes and no, with the real CLI through the mock model (stdin a pipe with
// --ask): "always" asks for how long and shows the exact rule (the project spelled out), and the thread
// rule lands on the thread's record; `x` denies and stops the turn; the model's questions are asked one
// by one with their numbered options, and the model reads the answers.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { Supervisor } from '../../src/supervisor/index.js';
import { scenario } from '../../src/testing/index.js';
import { decisionsScript } from './helpers/decisions-scripts.js';
import { spawnWarden, startCommandSession, type CommandSession } from './helpers/server-command.js';

const touchScript = () =>
  scenario()
    .on('touch')
    .callTool('Bash', { command: 'touch notes.txt', description: 'Create notes' })
    .thenAnswer((ctx) =>
      ctx.toolResults[0]?.isError === true ? 'could not create it' : 'notes.txt is there',
    )
    .build();

function runArgs(session: CommandSession, prompt: string): string[] {
  return ['run', prompt, '--cwd', session.scratch.cwd, '--data-dir', session.dataDir, '--ask'];
}

/** The data directory's records, read after the command has exited. */
async function records(session: CommandSession) {
  const supervisor = await Supervisor.open({ dataDir: session.dataDir });
  try {
    const [thread] = supervisor.listThreads();
    assert.ok(thread !== undefined);
    return { thread, approvals: supervisor.listApprovals({ threadId: thread.id }) };
  } finally {
    await supervisor.close();
  }
}

describe('warden run: scopes, deny-and-stop, questions', { timeout: 120_000 }, () => {
  it('always asks for how long, with the exact rule; a thread rule goes on the record', async (t) => {
    const session = await startCommandSession(t, touchScript());
    const warden = spawnWarden(runArgs(session, '[[touch]] make a notes file'), session.env);
    await warden.waitFor('stderr', /deny \(n \[reason\]\)\? $/);
    assert.match(
      warden.stderr(),
      /always \(a\) adds exactly: Bash\(touch notes\.txt\) — for this CLI session, this thread or this project/,
    );
    assert.match(warden.stderr(), /or deny and stop the turn \(x \[reason\]\)/);
    warden.child.stdin.write('a\n');
    await warden.waitFor('stderr', /scope \(1\/2\/3, Enter = 1\)\? $/);
    const asked = warden.stderr();
    assert.match(asked, /always allow Bash\(touch notes\.txt\) for:/);
    assert.match(asked, /1\) this CLI session/);
    assert.match(asked, /2\) this thread \(kept by Warden across restarts, until removed\)/);
    assert.ok(
      asked.includes(
        `3) this project (written to ${session.scratch.cwd}/.claude/settings.local.json by the CLI; Warden cannot remove it)`,
      ),
      asked,
    );
    warden.child.stdin.write('4\n');
    await warden.waitFor('stderr', /answer 1, 2 or 3\n/);
    warden.child.stdin.write('2\n');
    assert.deepEqual(await warden.exited, { code: 0, signal: null }, warden.stderr());
    assert.match(
      warden.stdout(),
      /✓ always allowed\n\s+for this thread \(kept by Warden across restarts, until removed\): Bash\(touch notes\.txt\)\n/,
    );
    assert.doesNotMatch(warden.stdout(), /for this session/);
    assert.equal(existsSync(join(session.scratch.cwd, 'notes.txt')), true);
    assert.equal(existsSync(join(session.scratch.cwd, '.claude', 'settings.local.json')), false);
    const { thread, approvals } = await records(session);
    assert.deepEqual(
      thread.grants.map((g) => [g.rule, g.scope, g.approvalId]),
      [['Bash(touch notes.txt)', 'thread', approvals[0]?.id]],
    );
    assert.equal(approvals[0]?.decision?.behavior, 'allow_always');
  });

  it('x denies and stops the turn, with the reason', async (t) => {
    const session = await startCommandSession(t, touchScript());
    const warden = spawnWarden(runArgs(session, '[[touch]] make it'), session.env);
    await warden.waitFor('stderr', /deny \(n \[reason\]\)\? $/);
    warden.child.stdin.write('x not now\n');
    // The turn was stopped, so the run did not complete: the exit status says so.
    assert.deepEqual(await warden.exited, { code: 1, signal: null }, warden.stderr());
    assert.match(warden.stdout(), /✗ denied: not now/);
    assert.match(warden.stdout(), /— turn interrupted/);
    assert.equal(existsSync(join(session.scratch.cwd, 'notes.txt')), false);
    const { approvals } = await records(session);
    assert.equal(approvals[0]?.status, 'denied');
    assert.equal(approvals[0]?.decision?.interrupt, true);
    assert.equal(approvals[0]?.decision?.message, 'not now');
  });

  it('asks the model’s questions with numbered options; the model reads the answers', async (t) => {
    const session = await startCommandSession(t, decisionsScript());
    const warden = spawnWarden(runArgs(session, '[[ask]] pick a database'), session.env);
    await warden.waitFor('stderr', /a number, or your own answer \(- to decline\)\? $/);
    const first = warden.stderr();
    assert.match(first, /\? \[Database\] Which database should the service use\? \(1\/2\)/);
    assert.match(first, /1\) PostgreSQL — One server, shared by every host/);
    assert.match(first, /2\) SQLite — A file next to the service/);
    warden.child.stdin.write('3\n');
    await warden.waitFor('stderr', /pick from 1 to 2 \(one only\), or type your own answer\n/);
    warden.child.stdin.write('2\n');
    await warden.waitFor('stderr', /numbers \(e\.g\. 1,3\), or your own answer \(- to decline\)\? $/);
    assert.match(warden.stderr(), /3\) Benchmarks — Compared with the last release/);
    warden.child.stdin.write('1,3\n');
    assert.deepEqual(await warden.exited, { code: 0, signal: null }, warden.stderr());
    const expected =
      '"Which database should the service use?"="SQLite", "Which checks should run before a release?"="Unit tests, Benchmarks"';
    const results = (session.mock?.requests ?? []).flatMap((r) => r.toolResults ?? []);
    assert.ok(
      results.some((r) => r.text.includes(expected)),
      `the model read the answers: ${JSON.stringify(results)}`,
    );
    const { approvals } = await records(session);
    assert.deepEqual(approvals[0]?.decision?.updatedInput?.answers, {
      'Which database should the service use?': 'SQLite',
      'Which checks should run before a release?': 'Unit tests, Benchmarks',
    });
  });
});
