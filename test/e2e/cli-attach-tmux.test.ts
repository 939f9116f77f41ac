// The terminal and the browser together, on real pseudo-terminals (tmux): `warden serve` runs on a data
// directory; `warden run` in a tmux pane finds it, creates its thread there and asks its approval in the
// pane; the approval answered as the browser answers it (a login session, from the server's origin)
// withdraws the pane's question, names who answered, and the run goes on and ends (exit 0), leaving the
// thread in the server. Then a thread started the browser's way asks, and `warden inbox` in another pane
// answers it with a typed deny reason. Real CLI through the mock model throughout.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { scenario } from '../../src/testing/index.js';
import { REPO_ROOT, startCommandSession, type CommandSession } from './helpers/server-command.js';
import { pollFor, startServe, type Json, type ServeProcess } from './helpers/serve-process.js';
import { loginWithLink } from './helpers/server-login.js';

const hasTmux = (() => {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const script = () =>
  scenario()
    .on('terminal')
    .callTool('Bash', { command: 'touch from-terminal.txt', description: 'Create a file' })
    .thenAnswer((ctx) => (ctx.toolResults[0]?.isError === true ? 'not made' : 'from-terminal.txt is there'))
    .on('browser')
    .callTool('Bash', { command: 'touch from-browser.txt', description: 'Create a file' })
    .thenAnswer((ctx) => `browser thread: ${ctx.toolResults[0]?.text ?? ''}`)
    .build();

/** A tmux server of the test's own (its socket in the scratch dir), killed at teardown. */
function tmux(session: CommandSession, t: { after(fn: () => void): void }) {
  const socket = join(session.scratch.dir, 'tmux.sock');
  const env = { ...session.env, TERM: 'xterm-256color' };
  const run = (...args: string[]): string =>
    execFileSync('tmux', ['-S', socket, '-f', '/dev/null', ...args], { env, encoding: 'utf8' });
  t.after(() => {
    try {
      run('kill-server');
    } catch {
      // Already gone.
    }
  });
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  return {
    /** Starts `warden <args>` in a new window; its exit code is written to `<name>.exit`. */
    start(name: string, args: string[]): { exitFile: string } {
      const exitFile = join(session.scratch.dir, `${name}.exit`);
      const command = [process.execPath, '--import', 'tsx', 'src/cli/main.ts', ...args].map(quote).join(' ');
      const shell = `cd ${quote(REPO_ROOT)} && ${command}; echo $? > ${quote(exitFile)}; sleep 600`;
      const exists = (() => {
        try {
          run('has-session', '-t', 'w');
          return true;
        } catch {
          return false;
        }
      })();
      if (exists) run('new-window', '-t', 'w', '-n', name, shell);
      else run('new-session', '-d', '-s', 'w', '-n', name, '-x', '200', '-y', '60', shell);
      return { exitFile };
    },
    screen: (name: string): string => run('capture-pane', '-p', '-J', '-S', '-300', '-t', `w:${name}`),
    keys: (name: string, text: string): void => {
      run('send-keys', '-t', `w:${name}`, '-l', text);
      run('send-keys', '-t', `w:${name}`, 'Enter');
    },
  };
}

async function screenShows(read: () => string, pattern: RegExp, what: string): Promise<string> {
  return pollFor(what, () => {
    const text = read();
    return Promise.resolve(pattern.test(text) ? text : undefined);
  });
}

async function exitCode(exitFile: string): Promise<number> {
  return pollFor('the command exited', () => {
    const text = existsSync(exitFile) ? readFileSync(exitFile, 'utf8').trim() : '';
    return Promise.resolve(text === '' ? undefined : Number(text));
  });
}

/** Decides as the browser does: a session from a login link, a request from the server's own origin. */
async function decideInBrowser(serve: ServeProcess, approvalId: string, body: Json): Promise<number> {
  const link = /(http:\/\/127\.0\.0\.1:\d+\/login#\S+)/.exec(serve.process.stdout())?.[1];
  assert.ok(link !== undefined, serve.process.stdout());
  const { cookie } = await loginWithLink(link);
  const response = await fetch(`${serve.url}/api/approvals/${approvalId}/decision`, {
    method: 'POST',
    headers: { cookie, origin: serve.url, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

async function pendingOf(serve: ServeProcess, threadId?: string): Promise<Json> {
  return pollFor('a pending approval', async () => {
    const query = threadId === undefined ? '' : `&threadId=${threadId}`;
    const { approvals } = await serve.api(`/api/approvals?status=pending${query}`);
    const [first] = approvals as Json[];
    return first;
  });
}

describe('warden run beside warden serve (tmux)', { skip: !hasTmux && 'no tmux', timeout: 240_000 }, () => {
  it('a terminal run is answered in the browser; warden inbox answers a browser thread', async (t) => {
    const session = await startCommandSession(t, script());
    const serve = await startServe(session.world, session.dataDir, session.env, { args: ['--stop-agents'] });
    const panes = tmux(session, t);

    // 1. `warden run` finds the server and asks in its terminal.
    const { exitFile } = panes.start('run', [
      'run',
      '[[terminal]] make a file',
      '--cwd',
      session.scratch.cwd,
      '--data-dir',
      session.dataDir,
    ]);
    const asking = await screenShows(
      () => panes.screen('run'),
      /allow \(y\) \/ always \(a\) \/ deny \(n \[reason\]\)\?/,
      'the question in the terminal',
    );
    assert.match(asking, /a server runs on .*: the thread is created there/);
    assert.match(asking, /\? Allow Bash: touch from-terminal\.txt/);
    assert.equal(
      asking.match(/\? (Allow|permission needed)/g)?.length,
      1,
      'one question line for the request',
    );

    // 2. The browser answers it; the terminal's question is withdrawn and says who answered.
    const approval = await pendingOf(serve);
    const { threads } = await serve.api('/api/threads');
    assert.equal(threads.length, 1, 'the run created its thread in the server');
    assert.equal(approval.threadId, threads[0].id);
    assert.equal(await decideInBrowser(serve, approval.id, { behavior: 'allow' }), 200);
    assert.equal(await exitCode(exitFile), 0, panes.screen('run'));
    const after = panes.screen('run');
    assert.match(after, /\(answered elsewhere\)/, 'the question was withdrawn');
    assert.match(after, /✓ allowed \(answered in the browser by \S+\)/);
    assert.match(after, /from-terminal\.txt is there/);
    assert.match(after, /the thread stays in the server/);
    assert.equal(existsSync(join(session.scratch.cwd, 'from-terminal.txt')), true);
    const detail = await serve.api(`/api/threads/${approval.threadId}`);
    assert.deepEqual(
      (detail.runs as { status: string }[]).map((run) => run.status),
      ['completed'],
      'the server shows the terminal’s run completed',
    );

    // 3. A thread started the browser's way asks; `warden inbox` in another terminal answers it.
    const created = await serve.api('/api/threads', {
      cwd: session.scratch.cwd,
      mode: 'supervised',
      prompt: '[[browser]] make another file',
    });
    const browserApproval = await pendingOf(serve, String(created.thread.id));
    const inbox = panes.start('inbox', ['inbox', '--data-dir', session.dataDir]);
    const listed = await screenShows(
      () => panes.screen('inbox'),
      /deny \(n \[reason\]\) \/ skip \(s\) \/ quit \(q\)\?/,
      'the inbox question',
    );
    assert.match(listed, /1 approval waiting:/);
    assert.match(listed, /“(\[\[browser\]\] )?make another file” · Bash · waiting \d+s/);
    panes.keys('inbox', 'n not in this folder');
    assert.equal(await exitCode(inbox.exitFile), 0, panes.screen('inbox'));
    assert.match(panes.screen('inbox'), /✗ denied/);
    const settled = await serve.api(`/api/approvals?threadId=${String(created.thread.id)}`);
    assert.deepEqual(
      [settled.approvals[0].id, settled.approvals[0].status, settled.approvals[0].decision.message],
      [browserApproval.id, 'denied', 'not in this folder'],
    );
    assert.equal(existsSync(join(session.scratch.cwd, 'from-browser.txt')), false);
  });
});
