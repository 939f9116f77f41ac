// `warden run` end to end: the command runs the pinned real CLI against the mock model through an
// in-process Supervisor. Approvals are answered on stdin (a pipe with --ask, and a real terminal under
// `script`), or decided by --yes / --deny, or denied with a notice in a pipe; a background subagent keeps
// the run going until it and the CLI's own follow-up turn are done; Ctrl-C stops everything with 130.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { Supervisor } from '../../src/supervisor/index.js';
import { backgroundSubagentScenario, scenario } from '../../src/testing/index.js';
import { plain, REPO_ROOT, spawnWarden, startCommandSession } from './helpers/server-command.js';
import { processesUsingHome } from './helpers/sdk-session.js';
import { waitForNoProcess } from './helpers/supervisor-session.js';

const QUESTION = /allow \(y\) \/ always \(a\) \/ deny \(n \[reason\]\)\? $/;

const touchScript = () =>
  scenario()
    .on('touch')
    .callTool('Bash', { command: 'touch notes.txt', description: 'Create notes' })
    .thenAnswer((ctx) =>
      ctx.toolResults[0]?.isError === true ? 'could not create it' : 'notes.txt is there',
    )
    .build();

function runArgs(
  session: { scratch: { cwd: string }; dataDir: string },
  prompt: string,
  ...flags: string[]
): string[] {
  return ['run', prompt, '--cwd', session.scratch.cwd, '--data-dir', session.dataDir, ...flags];
}

const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('warden run', () => {
  it('asks on stdin (--ask in a pipe), runs the allowed command and exits 0', async (t) => {
    const session = await startCommandSession(t, touchScript());
    const warden = spawnWarden(runArgs(session, '[[touch]] make a notes file', '--ask'), session.env);
    await warden.waitFor('stderr', QUESTION);
    assert.match(warden.stderr(), /\? Allow Bash: touch notes\.txt/);
    warden.child.stdin.write('maybe\n');
    await warden.waitFor('stderr', /answer y, a or n\n/);
    warden.child.stdin.write('y\n');
    assert.deepEqual(await warden.exited, { code: 0, signal: null });
    const out = warden.stdout();
    for (const line of [
      '> [[touch]] make a notes file',
      '• Bash: touch notes.txt',
      '? permission needed: Bash: touch notes.txt',
      '  ✓ allowed',
      '  ↳ (Bash completed with no output)',
      'notes.txt is there',
      '— turn completed',
    ])
      assert.ok(out.includes(line), `stdout has ${JSON.stringify(line)}:\n${out}`);
    assert.equal(existsSync(join(session.scratch.cwd, 'notes.txt')), true);
  });

  it(
    'asks by itself on a terminal, and the answer is read from it',
    { skip: !hasScript && 'no `script`' },
    async (t) => {
      const session = await startCommandSession(t, touchScript());
      const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
      const command = [
        process.execPath,
        '--import',
        'tsx',
        'src/cli/main.ts',
        ...runArgs(session, '[[touch]] make it'),
      ]
        .map(quote)
        .join(' ');
      const warden = spawnWarden(
        [],
        { ...session.env, TERM: 'xterm' },
        {
          command: { file: 'script', args: ['-qefc', command, '/dev/null'] },
        },
      );
      await warden.waitFor('stdout', /deny \(n \[reason\]\)\? $/);
      warden.child.stdin.write('a\n');
      // Always asks for how long; Enter keeps this CLI session.
      await warden.waitFor('stdout', /scope \(1\/2\/3, Enter = 1\)\? $/);
      warden.child.stdin.write('\n');
      assert.deepEqual(await warden.exited, { code: 0, signal: null });
      const out = plain(warden.stdout());
      assert.match(out, /working… \d+s/, 'the spinner ran');
      assert.match(out, /✓ always allowed/);
      assert.equal(existsSync(join(session.scratch.cwd, 'notes.txt')), true);
    },
  );

  it('in a pipe, --yes allows and --deny denies without asking', async (t) => {
    const session = await startCommandSession(t, touchScript());
    const denied = spawnWarden(runArgs(session, '[[touch]] first', '--deny'), session.env, {
      closeStdin: true,
    });
    assert.deepEqual(await denied.exited, { code: 0, signal: null });
    assert.match(denied.stdout(), /✗ denied/);
    assert.match(denied.stdout(), /could not create it/);
    assert.doesNotMatch(denied.stderr(), /deny \(n/);
    assert.equal(existsSync(join(session.scratch.cwd, 'notes.txt')), false, 'the denied command did not run');

    const allowed = spawnWarden(runArgs(session, '[[touch]] second', '--yes'), session.env, {
      closeStdin: true,
    });
    assert.deepEqual(await allowed.exited, { code: 0, signal: null });
    assert.match(allowed.stdout(), /✓ allowed/);
    assert.doesNotMatch(allowed.stderr(), /not a terminal/);
    assert.equal(existsSync(join(session.scratch.cwd, 'notes.txt')), true);
  });

  it('in a pipe without --yes or --deny, denies and says so', async (t) => {
    const session = await startCommandSession(t, touchScript());
    const warden = spawnWarden(runArgs(session, '[[touch]] go'), session.env, { closeStdin: true });
    assert.deepEqual(await warden.exited, { code: 0, signal: null });
    assert.match(warden.stderr(), /stdin is not a terminal, so permission requests are denied \(pass --yes/);
    assert.match(warden.stdout(), /✗ denied/);
    assert.equal(existsSync(join(session.scratch.cwd, 'notes.txt')), false);
  });

  it('waits for a background subagent and the turn the CLI starts when it reports', async (t) => {
    const script = backgroundSubagentScenario();
    const session = await startCommandSession(t, script);
    const warden = spawnWarden(runArgs(session, '[[bg]] look around', '--yes'), session.env, {
      closeStdin: true,
    });
    assert.deepEqual(await warden.exited, { code: 0, signal: null }, warden.stderr());
    const out = warden.stdout();
    const at = (text: string): number => {
      const index = out.indexOf(text);
      assert.ok(index >= 0, `stdout has ${JSON.stringify(text)}:\n${out}`);
      return index;
    };
    at('  │ [Inspect host] subagent started');
    at('  │ [Inspect host] ? permission needed: Read: /etc/hostname');
    at('  │ [Inspect host] ? permission needed: Bash: cat /etc/os-release');
    assert.equal(
      out.match(/│ \[Inspect host\]\s+✓ allowed/g)?.length,
      2,
      'both subagent approvals, marked as its',
    );
    const ended = at('  │ [Inspect host] subagent completed: Host inspected.');
    assert.ok(at('The background agent reported back.') > ended, 'the CLI-started turn came last');
  });

  it('stops the thread on Ctrl-C: exit 130, approval cancelled, run interrupted, no process left', async (t) => {
    const session = await startCommandSession(t, touchScript());
    const warden = spawnWarden(runArgs(session, '[[touch]] wait for me', '--ask'), session.env);
    await warden.waitFor('stderr', QUESTION);
    assert.notDeepEqual(processesUsingHome(session.scratch.home), [], 'the CLI is running');
    warden.child.kill('SIGINT');
    assert.deepEqual(await warden.exited, { code: 130, signal: null });
    assert.match(warden.stderr(), /interrupted; stopping the agent/);
    await waitForNoProcess(session.scratch.home);
    assert.deepEqual(processesUsingHome(session.scratch.home), [], 'no CLI process is left');
    assert.equal(existsSync(join(session.scratch.cwd, 'notes.txt')), false);

    const sup = await Supervisor.open({ dataDir: session.dataDir });
    t.after(() => sup.close({ stopAgents: true }));
    const [thread] = sup.listThreads();
    const view = sup.getThread(thread!.id);
    assert.deepEqual(
      view.approvals.map((a) => [a.status, a.reason]),
      [['cancelled', 'thread_stopped']],
    );
    assert.deepEqual(
      view.runs.map((r) => r.status),
      ['interrupted'],
    );
    assert.equal(sup.recovered.threads, 0, 'the command closed its thread cleanly');
  });

  it('exits 1 when the run fails', async (t) => {
    const script = scenario().on('fail').failWith(400, 'mock: invalid request').build();
    const session = await startCommandSession(t, script);
    const warden = spawnWarden(runArgs(session, '[[fail]] this will not work', '--yes'), session.env, {
      closeStdin: true,
    });
    assert.deepEqual(await warden.exited, { code: 1, signal: null });
    assert.match(warden.stdout(), /— turn failed/);
  });

  it('exits 2 on usage errors, saying what is wrong', async (t) => {
    const session = await startCommandSession(t);
    const cases = [
      [['run'], /needs a prompt/],
      [['run', 'x', '--yes', '--deny'], /--yes or --deny, not both/],
      [['run', 'x', '--mode', 'yolo'], /--mode must be one of supervised, auto-edits, full-access/],
      [['run', 'x', '--port', '1'], /--port does not apply to 'warden run'/],
      [['fly'], /Unknown command 'fly'/],
      [
        [
          'run',
          'x',
          '--cwd',
          join(REPO_ROOT, 'no-such-dir'),
          '--data-dir',
          join(session.scratch.dir, 'other'),
        ],
        /is not an existing directory/,
      ],
    ] as const;
    // Independent processes: run them side by side.
    await Promise.all(
      cases.map(async ([args, message]) => {
        const warden = spawnWarden(args, session.env, { closeStdin: true });
        const exit = await warden.exited;
        assert.equal(exit.code, 2, `${args.join(' ')}: ${warden.stderr()}`);
        assert.match(warden.stderr(), message);
      }),
    );
  });
});
