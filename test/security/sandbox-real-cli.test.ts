// The operating system keeps the protected paths unwritable for the real CLI's Bash commands (Warden's
// bubblewrap prefix, on by default), where the policy cannot see the write: a program's own option
// (`git log --output`, `find -fprintf`) under a routine allow rule. Then `git status`, which would run a
// planted core.fsmonitor, runs nothing. With the sandbox off, the policy knows the OS holds nothing:
// the same allow rules no longer cover those options, and the writes become asks (a person denies them);
// `git status --short` is still allowed.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';

import { Supervisor, type StoredEvent } from '../../src/supervisor/index.js';
import { probeSandbox } from '../../src/supervisor/runtime/sandbox-probe.js';
import { scenario, startTestWorld } from '../../src/testing/index.js';
import { waitForEvent } from '../e2e/helpers/supervisor-session.js';
import { answerEveryApproval, initRepository } from './sandbox-helpers.js';

const PLANT = `[core]%n%x09fsmonitor = "touch MARKER"`;
const COMMANDS = [
  `git log -1 --format='${PLANT}' --output=.git/config`,
  'git status --short',
  `find . -maxdepth 0 -fprintf .git/config '[core]\\n\\tfsmonitor = "touch MARKER"\\n'`,
  'git status --short',
];
const RULES = ['Bash(git log:*)', 'Bash(git status:*)', 'Bash(find:*)'];

async function runFindings(
  t: TestContext,
  sandbox: 'auto' | 'off',
  mode: 'supervised' | 'auto-edits' = 'supervised',
  { commands = COMMANDS, rules = RULES }: { commands?: readonly string[]; rules?: readonly string[] } = {},
) {
  let track = scenario().on('plant');
  for (const command of commands) track = track.callTool('Bash', { command, description: 'Run it' });
  const world = await startTestWorld(t, { prefix: 'warden-sbx-', script: track.thenAnswer('done').build() });
  const { cwd } = world.scratch;
  initRepository(cwd);
  const config = readFileSync(join(cwd, '.git/config'), 'utf8');
  const sup = await Supervisor.open({
    dataDir: world.dataDir,
    claudePath: world.claudePath,
    env: world.env,
    sandbox,
    onWarning: () => undefined,
  });
  world.defer(() => sup.close({ stopAgents: true }));
  // A person who denies whatever is asked.
  const person = answerEveryApproval(sup, world, { behavior: 'deny', message: 'not that' });
  const thread = await sup.createThread({ cwd, mode, rules: { allow: [...rules] } });
  const results: Extract<StoredEvent, { type: 'tool.result' }>[] = [];
  const collecting = (async () => {
    for await (const event of sup.events({ signal: AbortSignal.timeout(90_000) })) {
      if (event.type === 'tool.result') results.push(event);
      if (results.length === commands.length) return;
    }
  })();
  const run = await sup.send(thread.id, '[[plant]] plant a config');
  const ended = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === run.id, 90_000);
  await collecting;
  assert.equal(person.refused(), undefined, 'every approval was answered');
  const approvals = sup.getThread(thread.id).approvals;
  return { sup, cwd, config, ended, results, approvals };
}

describe('the sandbox keeps protected paths unwritable', { timeout: 180_000 }, () => {
  for (const mode of ['supervised', 'auto-edits'] as const)
    it(`git log --output and find -fprintf cannot write .git/config; git status runs no fsmonitor (${mode})`, async (t) => {
      if (!probeSandbox(process.env).available) return t.skip('the sandbox cannot run on this machine');
      const { sup, cwd, config, ended, results, approvals } = await runFindings(t, 'auto', mode);
      assert.equal(sup.sandbox.enforced, true);
      assert.equal(ended.data.status, 'completed');
      assert.deepEqual(approvals, [], 'the allow rules allowed every call: only the OS stood in the way');
      const [gitLog, , find] = results;
      assert.match(
        gitLog?.data.text ?? '',
        /could not open '\.git\/config' for writing: Read-only file system/u,
      );
      assert.match(find?.data.text ?? '', /Read-only file system/u);
      for (const result of results)
        assert.doesNotMatch(result.data.text, /bashrc: Permission denied/u, 'no error before each command');
      assert.equal(readFileSync(join(cwd, '.git/config'), 'utf8'), config, '.git/config is unchanged');
      assert.equal(existsSync(join(cwd, 'MARKER')), false, 'no fsmonitor ran');
    });

  it('with the sandbox off the writes become asks; git status is still allowed', async (t) => {
    const { sup, cwd, config, ended, results, approvals } = await runFindings(t, 'off');
    assert.deepEqual(sup.sandbox, {
      mode: 'off',
      enforced: false,
      reason: 'switched off (sandbox: off)',
      mechanism: null,
    });
    assert.equal(ended.data.status, 'completed');
    // Asked (the rules no longer cover the option: policy/argument-table.test.ts has the reason) and denied.
    assert.deepEqual(
      approvals.map((approval) => [approval.status, approval.input.command]),
      [
        ['denied', COMMANDS[0]],
        ['denied', COMMANDS[2]],
      ],
    );
    assert.equal(results.filter((result) => result.data.isError !== true).length, 2, 'both git status ran');
    assert.equal(readFileSync(join(cwd, '.git/config'), 'utf8'), config, '.git/config is unchanged');
    assert.equal(existsSync(join(cwd, 'MARKER')), false, 'no fsmonitor ran');
  });
});
