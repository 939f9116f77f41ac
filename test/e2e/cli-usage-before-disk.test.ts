// Usage errors are reported before anything is written: a bad flag, a missing prompt, a --cwd that is no
// directory, flags that do not go with --demo, a malformed `warden inbox`, and in every other command an
// unknown flag, a missing value, a bad number, a flag that goes with one it lacks — each exits 2 with one
// line `warden: …` followed by the command's usage (no stack, none of node:util's own wording), and the
// data directory it named (and the default one, under the scratch HOME) is never created.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { spawnWarden } from './helpers/server-command.js';

const CASES: { args: (dataDir: string, missing: string) => string[]; message: RegExp }[] = [
  { args: (d) => ['run', '--data-dir', d], message: /warden run needs a prompt/ },
  { args: (d) => ['run', 'hello', '--mode', 'yolo', '--data-dir', d], message: /--mode must be one of/ },
  { args: (d) => ['run', 'hello', '--bogus', '--data-dir', d], message: /Unknown option '--bogus'/ },
  {
    args: (d, missing) => ['run', 'hello', '--cwd', missing, '--data-dir', d],
    message: /--cwd ".*" is not an existing directory/,
  },
  {
    args: (d) => ['run', '--demo', '--data-dir', d],
    message: /--data-dir does not apply to warden run --demo/,
  },
  { args: (d) => ['run', 'x', '--yes', '--deny', '--data-dir', d], message: /Pass --yes or --deny/ },
  { args: (d) => ['inbox', 'maybe', 'a1', '--data-dir', d], message: /answers with allow, always or deny/ },
  { args: (d) => ['inbox', 'allow', '--data-dir', d], message: /needs the approval's id/ },
  {
    args: (d) => ['inbox', 'allow', 'a1', 'because', '--data-dir', d],
    message: /Only a deny takes a reason/,
  },
  {
    args: (d) => ['serve', '--park-after', '10', '--data-dir', d],
    message: /--park-after must be a duration/,
  },
  { args: (d) => ['serve', '--bogus', '--data-dir', d], message: /^warden: Unknown option '--bogus'$/m },
  { args: (d) => ['serve', '--data-dir', d, '--port'], message: /^warden: --port needs a value: --port N$/m },
  { args: (d) => ['serve', '--port', 'abc', '--data-dir', d], message: /--port must be 0-65535, got 'abc'/ },
  { args: (d) => ['serve', '--host-name', 'h1', '--data-dir', d], message: /--host-name goes with --store/ },
  { args: () => ['demo', '--port', '70000'], message: /--port must be 0-65535/ },
  { args: () => ['demo', '--nope'], message: /^warden: Unknown option '--nope'$/m },
  { args: (d) => ['inbox', '--json=1', '--data-dir', d], message: /--json takes no value/ },
  { args: (d) => ['status', '--port', '--data-dir', d], message: /--port needs a value: --port N/ },
  { args: (d) => ['login', '-x', '--data-dir', d], message: /^warden: Unknown option '-x'$/m },
  { args: (d) => ['token', 'frob', '--data-dir', d], message: /Unknown action 'frob'/ },
  { args: (d) => ['audit', '--since', 'soon', '--data-dir', d], message: /--since must be an ISO 8601 date/ },
  { args: () => ['hosts'], message: /warden hosts needs --store/ },
  { args: () => ['fly'], message: /^warden: Unknown command 'fly'$/m },
];

describe('usage errors', () => {
  for (const { args, message } of CASES) {
    it(`exit 2 and nothing on disk: ${args('DATA', 'MISSING').join(' ')}`, async (t) => {
      const root = mkdtempSync(join(tmpdir(), 'warden-usage-'));
      t.after(() => rmSync(root, { recursive: true, force: true }));
      const home = join(root, 'home');
      const dataDir = join(root, 'data');
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, TMPDIR: tmpdir() };
      const warden = spawnWarden(args(dataDir, join(root, 'no-such-dir')), env, { closeStdin: true });
      assert.deepEqual(await warden.exited, { code: 2, signal: null });
      assert.match(warden.stderr(), message);
      // One line that says what is wrong, then the usage of the command it was about.
      const [line = '', blank, usage = ''] = warden.stderr().split('\n');
      assert.match(line, /^warden: \S/, warden.stderr());
      assert.equal(blank, '', warden.stderr());
      assert.match(usage, /^Usage: warden /, warden.stderr());
      assert.doesNotMatch(
        warden.stderr(),
        /^\s+at |To specify|argument missing/m,
        'no stack, no node:util wording',
      );
      assert.equal(warden.stdout(), '');
      assert.equal(existsSync(dataDir), false, 'the data directory was not created');
      assert.deepEqual(readdirSync(root), [], 'nothing was written (not even a default data directory)');
    });
  }
});
