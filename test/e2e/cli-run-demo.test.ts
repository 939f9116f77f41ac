// `warden run --demo`: the terminal front end offline — the demo's scripted model, the real CLI, every file
// in a temporary directory that is gone afterwards. The root turn completes first and says the background
// agent will ask in a few seconds; then the subagent's two requests are answered on stdin (--ask), one
// allowed, one denied with a typed reason the subagent hears. Once it has reported, the CLI's own turn
// asks a question (answered with a number) and shows a plan (approved), then writes the note the answer
// chose (allowed); the transcript carries no test marker and none of the Agent tool's internal metadata.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { describe, it } from 'node:test';

import { plain, spawnWarden, startCommandSession } from './helpers/server-command.js';

describe('warden run --demo', { timeout: 180_000 }, () => {
  it('runs the demo in the terminal, offline, and leaves nothing behind', async (t) => {
    const session = await startCommandSession(t);
    const env = { PATH: session.env.PATH!, HOME: session.scratch.home, TMPDIR: session.scratch.tmpdir };
    const warden = spawnWarden(['run', '--demo', '--ask'], env);
    t.after(() => {
      if (warden.child.exitCode === null) warden.child.kill('SIGKILL');
    });
    await warden.waitFor('stderr', /\? Allow Read \(subagent Inspect the host\): \/etc\/hostname/);
    await warden.waitFor('stderr', /deny \(n \[reason\]\)\? $/);
    warden.child.stdin.write('y\n');
    await warden.waitFor('stderr', /\? Allow Bash \(subagent Inspect the host\)/);
    await warden.waitFor('stderr', /deny \(n \[reason\]\)\? $/);
    warden.child.stdin.write('n not the OS release, thanks\n');
    // The CLI's own turn: the question, with its options numbered, then the plan the answer shaped.
    await warden.waitFor('stderr', /\? \[Note\] Where should I write down what the background agent found\?/);
    await warden.waitFor('stderr', /2\) NOTES\.md — the project's notes file/);
    await warden.waitFor('stderr', /a number, or your own answer \(- to decline\)\? $/);
    warden.child.stdin.write('2\n');
    await warden.waitFor('stderr', /\? Approve this plan/);
    await warden.waitFor('stderr', /1\. Create `NOTES\.md` in the project folder/);
    await warden.waitFor('stderr', /approve \(y\) \/ send back with feedback \(n <feedback>\)\? $/);
    warden.child.stdin.write('y\n');
    await warden.waitFor('stderr', /\? Allow Write: \S+\/NOTES\.md/);
    await warden.waitFor('stderr', /deny \(n \[reason\]\)\? $/);
    warden.child.stdin.write('y\n');
    assert.deepEqual(await warden.exited, { code: 0, signal: null }, warden.stderr());

    const out = plain(warden.stdout());
    const at = (text: string): number => {
      const index = out.indexOf(text);
      assert.ok(index >= 0, `stdout has ${JSON.stringify(text)}:\n${out}`);
      return index;
    };
    at('> Find out which machine this project runs on');
    const launched = at('  ↳ Async agent launched successfully.');
    const completed = at('— turn completed');
    assert.ok(at('it will ask in a few seconds') < completed, 'the note comes with the completed turn');
    const asked = at('  │ [Inspect the host] ? permission needed: Read: /etc/hostname');
    assert.ok(launched < completed && completed < asked, 'the run completed before the subagent asked');
    at('  │ [Inspect the host]   ✓ allowed');
    at('  │ [Inspect the host]   ✗ denied: not the OS release, thanks');
    const reported = at(
      '  │ [Inspect the host] subagent completed: Done, but I was not allowed to read the OS release.',
    );
    const question = at(
      '? permission needed: AskUserQuestion: Where should I write down what the background agent found?',
    );
    at(
      'Your questions have been answered: "Where should I write down what the background agent found?"="NOTES.md"',
    );
    const plan = at('? permission needed: ExitPlanMode: the plan “Write down which machine this is”');
    const written = at('NOTES.md is written: I was not allowed to read the OS release.');
    assert.ok(
      asked < reported && reported < question && question < plan && plan < written,
      'the question and the plan come after the subagent reported, in that order',
    );
    assert.doesNotMatch(
      out,
      /\{"questions"|\{"plan"/,
      'the question and the plan are shown in words, not JSON',
    );
    assert.ok(!out.includes('[['), 'no test marker');
    assert.doesNotMatch(out, /internal metadata|agentId:/, 'none of the Agent tool’s bookkeeping');
    assert.deepEqual(
      readdirSync(session.scratch.tmpdir).filter((name) => name.startsWith('warden-demo-')),
      [],
      'the demo removed its temporary directory',
    );
  });

  it('with --yes every call is allowed and the question declined, so the run goes to its end', async (t) => {
    const session = await startCommandSession(t);
    const env = { PATH: session.env.PATH!, HOME: session.scratch.home, TMPDIR: session.scratch.tmpdir };
    const warden = spawnWarden(['run', '--demo', '--yes'], env, { closeStdin: true });
    t.after(() => {
      if (warden.child.exitCode === null) warden.child.kill('SIGKILL');
    });
    assert.deepEqual(await warden.exited, { code: 0, signal: null }, warden.stderr());
    assert.match(warden.stderr(), /--yes answers no questions: the agent’s question is declined/);
    const out = plain(warden.stdout());
    assert.match(out, /subagent completed: Done\. This machine runs /);
    assert.match(out, /✗ denied: Not answered: warden run --yes allows tool calls but answers no questions/);
    // Declined, the question leaves the default note, whose plan and write --yes allows.
    assert.match(out, /HOST\.md is written: This machine runs /);
  });
});
