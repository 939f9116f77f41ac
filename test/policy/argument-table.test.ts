// Where the OS does not hold the protected paths, a prefix rule covers past its words only what
// argument-table.ts knows writes no file: finding 2's writes through a program's own options become
// asks, while the routine reads the rules were written for stay allowed. With a sandbox the same rules
// cover them all (the OS refuses the write: sandbox-real-cli.test.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { literalWords, unclassifiedWord } from '../../src/policy/argument-table.js';
import { compilePolicy, evaluatePolicy } from '../../src/policy/policy.js';

const RULES = [
  'Bash(git log:*)',
  'Bash(git show:*)',
  'Bash(git diff:*)',
  'Bash(git status:*)',
  'Bash(git format-patch:*)',
  'Bash(git archive:*)',
  'Bash(find:*)',
  'Bash(sort:*)',
  'Bash(uniq:*)',
  'Bash(split:*)',
  'Bash(curl:*)',
  'Bash(wget:*)',
  'Bash(yq:*)',
  'Bash(ls:*)',
  'Bash(grep:*)',
  'Bash(head:*)',
];
const WRITES = [
  `git log -1 --format='[core]%n%x09fsmonitor = "touch M"' --output=.git/config`,
  'git show HEAD --output=.git/config',
  'git diff --output .git/config',
  'git format-patch -1 -o .git/hooks HEAD',
  'git archive -o .mcp.json HEAD',
  `find . -maxdepth 0 -fprintf .git/config 'x'`,
  'find . -fprint .envrc',
  'find . -fls .npmrc',
  'sort -o .git/config a.txt',
  'sort --output=.git/config a.txt',
  'uniq a.txt .git/config',
  'split -b 1 a.txt .git/hooks/x',
  'curl -o .git/config http://127.0.0.1/x',
  'wget -O .git/config http://127.0.0.1/x',
  'yq -i .a=1 .pre-commit-config.yaml',
];
const READS = [
  'git log --oneline -5',
  'git log -n 3 --format=%H -- src',
  'git show --stat HEAD',
  'git diff --cached --name-only',
  'git status --short',
  'ls -la src',
  'grep -rn TODO src',
  'head -n 20 a.txt',
  'find . -name "*.ts" -type f -print',
  'sort -u a.txt',
  'uniq -c a.txt',
];

function verdict(command: string, osEnforced: boolean) {
  return evaluatePolicy(compilePolicy('supervised', { allow: RULES, deny: [] }, '/w', osEnforced), 'Bash', {
    command,
  });
}

describe('allow rules with no sandbox', () => {
  for (const command of WRITES)
    it(`asks for ${command}; the sandbox's OS holds it otherwise`, () => {
      const unconfined = verdict(command, false);
      assert.equal(unconfined.behavior, 'ask', unconfined.reason);
      assert.match(unconfined.reason, /with no sandbox here/u);
      assert.equal(verdict(command, true).behavior, 'allow');
    });

  for (const command of READS)
    it(`still allows ${command}`, () => {
      const unconfined = verdict(command, false);
      assert.equal(unconfined.behavior, 'allow', unconfined.reason);
    });

  it('names the words a person wrote: exact rules and Bash alone are not narrowed', () => {
    assert.equal(literalWords('git log:*'), 2);
    assert.equal(literalWords('npm run *'), 2);
    assert.equal(literalWords('npm test'), Number.POSITIVE_INFINITY);
    const exact = compilePolicy('supervised', { allow: ['Bash(make build)', 'Bash'], deny: [] }, '/w', false);
    assert.equal(evaluatePolicy(exact, 'Bash', { command: 'make build' }).behavior, 'allow');
    const narrow = compilePolicy('supervised', { allow: ['Bash(make build)'], deny: [] }, '/w', false);
    assert.equal(evaluatePolicy(narrow, 'Bash', { command: 'make build' }).behavior, 'allow');
    assert.equal(unclassifiedWord(['make', 'build'], 1), 'build', 'a program with no row');
    assert.equal(unclassifiedWord(['ls', '-la'], 1), undefined, 'combined flags of the row');
    assert.equal(unclassifiedWord(['ls', '-lo'], 1), '-lo');
    assert.equal(unclassifiedWord(['uniq', 'a', 'b'], 1), 'b', 'uniq writes its second operand');
  });

  it('full-access still allows every call', () => {
    const full = compilePolicy('full-access', { allow: RULES, deny: [] }, '/w', false);
    assert.equal(evaluatePolicy(full, 'Bash', { command: WRITES[0] ?? '' }).behavior, 'allow');
  });
});
