// Warden's bubblewrap prefix for the CLI's Bash commands: the script's words are quoted (a cwd with a
// quote or a `$` in its name cannot inject), the table's globs expand at each command, a prefix the
// environment had still runs, and, run as the CLI runs it, a held path that exists is read-only while
// the rest of the tree stays writable and an absent one mounts nothing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import {
  bubblewrapScript,
  shellQuote,
  writeBubblewrapPrefix,
} from '../../src/supervisor/runtime/bubblewrap-prefix.js';
import { probeSandbox } from '../../src/supervisor/runtime/sandbox-probe.js';

describe('the bubblewrap prefix', () => {
  it('quotes every word it did not mean for the shell', () => {
    assert.equal(shellQuote(`a'b $x`), `'a'\\''b $x'`);
    const script = bubblewrapScript({
      bwrap: '/usr/bin/bwrap',
      shell: '/bin/bash',
      held: [`/w/it's $HOME/.git/config`, '/w/p/lefthook.*', `/w/$(x)/*.code-workspace`],
    });
    assert.match(script, /'\/w\/it'\\''s \$HOME\/\.git\/config'/u);
    assert.match(script, / '\/w\/p\/'lefthook\.\* /u, 'a glob of the table expands');
    assert.match(script, / '\/w\/\$\(x\)\/'\*\.code-workspace;/u);
    assert.match(
      script,
      /exec '\/usr\/bin\/bwrap' --dev-bind \/ \/ "\$@" --die-with-parent -- '\/bin\/bash' -c "\$command"/u,
    );
  });

  it('runs a prefix the environment had, inside, as the CLI would', () => {
    const script = bubblewrapScript({ bwrap: 'b', shell: 's', held: [], innerPrefix: '/opt/my log -v' });
    assert.match(script, /-- '\/opt\/my log' -v "\$command"$/mu);
  });

  it('holds what exists at each command, and nothing else changes', (t) => {
    const support = probeSandbox(process.env);
    if (support.bwrap === undefined) return t.skip('bubblewrap cannot run here');
    const dir = mkdtempSync(join(tmpdir(), 'warden-bwp-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const config = join(dir, 'config');
    const absent = join(dir, '.envrc');
    writeFileSync(config, 'kept\n');
    writeFileSync(join(dir, 'lefthook.yml'), 'kept\n');
    const prefix = writeBubblewrapPrefix(join(dir, 'data'), {
      bwrap: support.bwrap,
      shell: '/bin/sh',
      held: [config, absent, join(dir, 'lefthook.*')],
    });
    assert.equal(statSync(prefix).mode & 0o777, 0o700);
    // As the CLI runs it: `'<prefix>' '<command string>'` through its shell.
    const run = (command: string) =>
      spawnSync('/bin/sh', ['-c', `${shellQuote(prefix)} ${shellQuote(command)}`], {
        cwd: dir,
        encoding: 'utf8',
      });
    const refused = run('echo x >> config');
    assert.notEqual(refused.status, 0);
    assert.match(refused.stderr, /Read-only file system/u);
    assert.notEqual(run('echo x > lefthook.yml').status, 0, 'the glob held lefthook.yml');
    assert.equal(readFileSync(config, 'utf8'), 'kept\n');
    assert.equal(run('echo made > other && cat other').stdout, 'made\n', 'the rest stays writable');
    assert.equal(existsSync(absent), false, 'no placeholder for an absent path');
    assert.equal(run('echo x > .envrc').status, 0, 'an absent one is the policy’s to guard');
    assert.notEqual(run('echo y > .envrc').status, 0, 'once it exists, the next command holds it');
    assert.equal(readFileSync(absent, 'utf8'), 'x\n');
    assert.equal(run('exit 7').status, 7, "the command's exit status comes through");
  });
});
