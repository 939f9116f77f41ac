// Finding 1 of the third security review, against the real CLI: in auto-edits the agent writes a git
// directory made of ordinary files (`HEAD`, `config` naming an fsmonitor and a work tree, `objects/`,
// `refs/`) into a folder of the cwd — no protected name among them, so the mode allows each write — and
// a person approves what reads as a plain `git -C planted status` (or a supervised thread has rules for
// both). Git would take that folder for a
// repository and run the fsmonitor (the first check shows it does, outside Warden); every CLI Warden
// starts has `safe.bareRepository=explicit` and `core.fsmonitor=false` in its environment, so git
// refuses the folder and nothing runs, with the sandbox on and off.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';

import { Supervisor, type StoredEvent } from '../../src/supervisor/index.js';
import { scenario, startTestWorld } from '../../src/testing/index.js';
import { waitForEvent } from '../e2e/helpers/supervisor-session.js';
import { answerEveryApproval } from './sandbox-helpers.js';

const PLANTED: Readonly<Record<string, string>> = {
  'planted/HEAD': 'ref: refs/heads/main\n',
  'planted/config':
    '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ..\n\tfsmonitor = "touch MARKER"\n',
  'planted/objects/info/packs': '',
  'planted/refs/heads/.keep': '',
};
const STATUS = 'git -C planted status --short';

/** A thread that lets the writes happen: auto-edits, or supervised with rules a person wrote for them. */
const THREADS = {
  'auto-edits': { mode: 'auto-edits', rules: { allow: [] } },
  supervised: {
    mode: 'supervised',
    rules: { allow: ['Write(planted/**)', 'Bash(git -C planted status:*)'] },
  },
} as const;

async function plant(t: TestContext, sandbox: 'auto' | 'off', kind: keyof typeof THREADS) {
  let track = scenario().on('plant');
  for (const [file_path, content] of Object.entries(PLANTED))
    track = track.callTool('Write', { file_path, content });
  track = track.callTool('Bash', { command: STATUS, description: 'Show the status' });
  const world = await startTestWorld(t, {
    prefix: 'warden-plant-',
    script: track.thenAnswer('done').build(),
  });
  const { cwd } = world.scratch;
  const sup = await Supervisor.open({
    dataDir: world.dataDir,
    claudePath: world.claudePath,
    env: world.env,
    sandbox,
    onWarning: () => undefined,
  });
  world.defer(() => sup.close({ stopAgents: true }));
  const { mode, rules } = THREADS[kind];
  const thread = await sup.createThread({ cwd, mode, rules: { allow: [...rules.allow] } });
  const results: Extract<StoredEvent, { type: 'tool.result' }>[] = [];
  // A person who approves the plain-looking status card, and the results as they come.
  const person = answerEveryApproval(sup, world, { behavior: 'allow' }, (event) => {
    if (event.type === 'tool.result') results.push(event);
  });
  const run = await sup.send(thread.id, '[[plant]] plant a repository');
  const ended = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === run.id, 90_000);
  assert.equal(person.refused(), undefined, 'every approval was answered');
  const approvals = sup.getThread(thread.id).approvals;
  return { cwd, ended, approvals, results };
}

describe('a git directory made of ordinary files runs nothing', { timeout: 180_000 }, () => {
  it('is a real attack on this git outside Warden', (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-plant-bare-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    for (const [path, content] of Object.entries(PLANTED)) {
      execFileSync('sh', [
        '-c',
        'mkdir -p "$(dirname "$1")" && printf %s "$2" > "$1"',
        'sh',
        join(dir, path),
        content,
      ]);
    }
    const env = { PATH: process.env.PATH ?? '', HOME: dir, GIT_CONFIG_NOSYSTEM: '1' };
    execFileSync('git', ['-C', 'planted', 'status', '--short'], { cwd: dir, env, stdio: 'ignore' });
    assert.equal(existsSync(join(dir, 'MARKER')), true, 'git ran the planted fsmonitor');
  });

  for (const kind of ['auto-edits', 'supervised'] as const)
    for (const sandbox of ['auto', 'off'] as const)
      it(`in ${kind}, with whatever is asked approved (sandbox ${sandbox})`, async (t) => {
        const { cwd, ended, approvals, results } = await plant(t, sandbox, kind);
        assert.equal(ended.data.status, 'completed');
        // The writes are allowed (by the mode, or the rule); the status is asked, and approved — except
        // under the rule where the OS holds the protected paths (with no sandbox its `--short` is asked).
        const asked = kind === 'supervised' && sandbox === 'auto' ? [] : [['Bash', 'allowed']];
        assert.deepEqual(
          approvals.map((approval) => [approval.toolName, approval.status]),
          asked,
        );
        for (const path of Object.keys(PLANTED)) assert.equal(existsSync(join(cwd, path)), true, path);
        const status = results.at(-1);
        assert.match(
          status?.data.text ?? '',
          /cannot use bare repository .*safe\.bareRepository is 'explicit'/u,
        );
        assert.equal(existsSync(join(cwd, 'MARKER')), false, 'no fsmonitor ran');
        assert.equal(existsSync(join(cwd, 'planted', 'MARKER')), false);
      });
});
