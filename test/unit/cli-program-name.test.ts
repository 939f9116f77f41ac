// The commands warden prints name the program as a shell can run it from anywhere: `warden` when the
// `warden` on PATH is this very program (an installed package), not when only npm's node_modules/.bin
// (which a person's own shell lacks) has it; otherwise the node command line that started it, with the
// `--import` module made an absolute URL so it is found from any directory, and quoted for the shell.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { shellQuote } from '../../src/cli/program-name.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/print-warden-program.ts', import.meta.url));
const PROGRAM_NAME = new URL('../../src/cli/program-name.ts', import.meta.url).href;
const root = mkdtempSync(join(tmpdir(), 'warden-program-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** What the fixture prints when started as `node --import tsx <script>` with this PATH, from `cwd`. */
function printed(script: string, path: string, cwd = root): string {
  const result = spawnSync(process.execPath, ['--import', 'tsx', script], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: { PATH: path, HOME: cwd },
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, result.stderr);
  return result.stdout.trim();
}

describe('the program name in printed commands', () => {
  const nodeDir = join(root, 'node-bin');
  mkdirSync(nodeDir);
  symlinkSync(process.execPath, join(nodeDir, 'node'));

  it('is warden when the warden on PATH is this program', () => {
    // An installed bin: executable, linked from a folder on PATH.
    const script = join(root, 'installed.mts');
    writeFileSync(
      script,
      readFileSync(FIXTURE, 'utf8').replace('../../src/cli/program-name.js', PROGRAM_NAME),
    );
    chmodSync(script, 0o755);
    const bin = join(root, 'bin');
    mkdirSync(bin);
    symlinkSync(script, join(bin, 'warden'));
    assert.equal(printed(script, `${bin}:${nodeDir}`), 'warden');
    assert.notEqual(printed(script, nodeDir), 'warden', 'not on PATH');
  });

  it('is not warden when only node_modules/.bin has it, nor when another warden is on PATH', () => {
    const npmBin = join(root, 'project', 'node_modules', '.bin');
    mkdirSync(npmBin, { recursive: true });
    symlinkSync(FIXTURE, join(npmBin, 'warden'));
    assert.notEqual(printed(FIXTURE, `${npmBin}:${nodeDir}`), 'warden');
    const other = join(root, 'other');
    mkdirSync(other);
    copyFileSync(FIXTURE, join(other, 'warden'));
    spawnSync('chmod', ['+x', join(other, 'warden')]);
    assert.notEqual(printed(FIXTURE, `${other}:${nodeDir}`), 'warden');
  });

  it('is otherwise the node command line that started it, absolute, and it runs from any directory', () => {
    const line = printed(FIXTURE, nodeDir);
    assert.match(
      line,
      /^node --import file:\/\/\/\S+\/tsx\/dist\/loader\.mjs \S+\/test\/fixtures\/print-warden-program\.ts$/,
    );
    // Run as printed, from a directory with no node_modules: it names itself the same way.
    const again = spawnSync('/bin/sh', ['-c', line], { cwd: root, env: { PATH: nodeDir }, encoding: 'utf8' });
    assert.equal(again.status, 0, again.stderr);
    assert.equal(again.stdout.trim(), line);
  });

  it('quotes what the shell would split or expand', () => {
    assert.equal(shellQuote('/tmp/plain-path_1.2/data'), '/tmp/plain-path_1.2/data');
    assert.equal(shellQuote('/tmp/a dir/data'), `'/tmp/a dir/data'`);
    assert.equal(shellQuote(`it's $HOME`), `'it'\\''s $HOME'`);
  });
});
