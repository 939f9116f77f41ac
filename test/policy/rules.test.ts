// The rules matcher and the mode policy: what each pattern covers, what it must not (compound commands,
// path escapes, symlinks out of the cwd), and the order deny rule → allow rule → mode.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { ValidationError } from '../../src/protocol/errors.js';
import { compilePolicy, evaluatePolicy, validateRules } from '../../src/policy/policy.js';
import { compileRule, ruleMatches } from '../../src/policy/rules.js';

const CWD = '/home/dev/repo';

function matches(
  rule: string,
  tool: string,
  input: Record<string, unknown>,
  effect: 'allow' | 'deny' = 'allow',
): boolean {
  return ruleMatches(compileRule(rule), tool, input, CWD, effect);
}

describe('permission rules', () => {
  it('Bash prefixes are word-bounded; exact patterns and * globs match whole commands', () => {
    const rule = 'Bash(git status:*)';
    assert.equal(matches(rule, 'Bash', { command: 'git status' }), true);
    assert.equal(matches(rule, 'Bash', { command: 'git status --short' }), true);
    assert.equal(matches(rule, 'Bash', { command: 'git statusx' }), false);
    assert.equal(matches(rule, 'Bash', { command: 'git commit' }), false);
    assert.equal(matches(rule, 'Read', { file_path: 'git status' }), false, 'the tool name must match');
    assert.equal(matches('Bash(npm test)', 'Bash', { command: 'npm test' }), true);
    assert.equal(matches('Bash(npm test)', 'Bash', { command: 'npm test -- x' }), false);
    assert.equal(matches('Bash(npm run *)', 'Bash', { command: 'npm run build' }), true);
    assert.equal(matches('Bash', 'Bash', { command: 'anything at all' }), true);
  });

  it('a compound command never matches an allow rule, and matches a deny rule through any part', () => {
    for (const command of [
      'git status && rm -rf /',
      'git status; curl x',
      'git status | sh',
      'git status $(rm x)',
      'git status > /etc/x',
    ])
      assert.equal(matches('Bash(git status:*)', 'Bash', { command }), false, command);
    assert.equal(matches('Bash(rm:*)', 'Bash', { command: 'ls && rm -rf /' }, 'deny'), true);
    assert.equal(matches('Bash(rm:*)', 'Bash', { command: 'echo $(rm x)' }, 'deny'), true);
    assert.equal(matches('Bash(rm:*)', 'Bash', { command: 'ls -l' }, 'deny'), false);
  });

  it('path globs: * stays in a segment, ** crosses, relative globs start at the cwd, .. is resolved first', () => {
    assert.equal(matches('Read(/etc/*)', 'Read', { file_path: '/etc/hostname' }), true);
    assert.equal(matches('Read(/etc/*)', 'Read', { file_path: '/etc/ssh/sshd_config' }), false);
    assert.equal(matches('Read(/etc/**)', 'Read', { file_path: '/etc/ssh/sshd_config' }), true);
    assert.equal(
      matches('Read(//etc/*)', 'Read', { file_path: '/etc/hostname' }),
      true,
      'Claude Code spelling',
    );
    assert.equal(matches('Edit(src/**)', 'Edit', { file_path: 'src/a/b.ts' }), true);
    assert.equal(matches('Edit(src/**)', 'Edit', { file_path: '/home/dev/repo/src/x.ts' }), true);
    assert.equal(matches('Edit(src/**)', 'Edit', { file_path: 'src/../../etc/passwd' }), false);
    assert.equal(matches('Edit(src/**/*.ts)', 'Edit', { file_path: 'src/x.ts' }), true);
  });

  it('WebFetch domains and tool-name globs', () => {
    assert.equal(
      matches('WebFetch(domain:example.com)', 'WebFetch', { url: 'https://docs.example.com/a' }),
      true,
    );
    assert.equal(
      matches('WebFetch(domain:example.com)', 'WebFetch', { url: 'https://example.com.evil.io/' }),
      false,
    );
    assert.equal(matches('mcp__github__*', 'mcp__github__create_issue', {}), true);
    assert.equal(matches('mcp__github__*', 'mcp__gitlab__x', {}), false);
  });

  it('malformed rules are ValidationErrors naming the field', () => {
    for (const bad of ['Bash(', 'Bash()', '', 'two words', 42])
      assert.throws(
        () => validateRules({ allow: [bad] }),
        (e: unknown) => e instanceof ValidationError && e.field === 'rules.allow[0]',
      );
    assert.throws(() => validateRules({ ask: [] }), ValidationError);
    assert.deepEqual(validateRules(undefined), { allow: [], deny: [] });
  });
});

describe('mode policy', () => {
  it('deny rule, then allow rule, then the mode', () => {
    const rules = { allow: ['Bash(make:*)'], deny: ['Read(/etc/*)'] };
    const full = compilePolicy('full-access', rules, CWD);
    assert.equal(evaluatePolicy(full, 'Read', { file_path: '/etc/shadow' }).behavior, 'deny');
    assert.equal(evaluatePolicy(full, 'Bash', { command: 'curl x | sh' }).behavior, 'allow');
    const supervised = compilePolicy('supervised', rules, CWD, true);
    assert.equal(evaluatePolicy(supervised, 'Bash', { command: 'make test' }).behavior, 'allow');
    const unconfined = compilePolicy('supervised', rules, CWD, false);
    assert.equal(evaluatePolicy(unconfined, 'Bash', { command: 'make' }).behavior, 'allow');
    assert.equal(
      evaluatePolicy(unconfined, 'Bash', { command: 'make test' }).reason,
      'Bash(make:*) does not cover test: with no sandbox here, an option or operand not known to write no file is asked',
    );
    assert.equal(evaluatePolicy(supervised, 'Bash', { command: 'touch f' }).behavior, 'ask');
    assert.equal(evaluatePolicy(supervised, 'Write', { file_path: 'f.txt' }).behavior, 'ask');
  });

  it('auto-edits allows edits inside the cwd only, symlinks resolved', (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-policy-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const cwd = join(dir, 'repo');
    mkdirSync(join(cwd, 'src'), { recursive: true });
    symlinkSync('/etc', join(cwd, 'escape'));
    const policy = compilePolicy('auto-edits', { allow: [], deny: [] }, cwd);
    const verdict = (tool: string, input: Record<string, unknown>) =>
      evaluatePolicy(policy, tool, input).behavior;
    assert.equal(verdict('Edit', { file_path: join(cwd, 'src/a.ts') }), 'allow');
    assert.equal(
      verdict('Write', { file_path: 'src/new/deep/file.ts' }),
      'allow',
      'relative, not yet existing',
    );
    assert.equal(verdict('MultiEdit', { file_path: join(cwd, 'README.md') }), 'allow');
    assert.equal(verdict('NotebookEdit', { notebook_path: join(cwd, 'n.ipynb') }), 'allow');
    assert.equal(verdict('Edit', { file_path: '/etc/hosts' }), 'ask');
    assert.equal(verdict('Edit', { file_path: join(cwd, '../outside.txt') }), 'ask');
    assert.equal(
      verdict('Write', { file_path: join(cwd, 'escape/hosts') }),
      'ask',
      'a symlink out of the cwd',
    );
    assert.equal(verdict('Bash', { command: 'touch f' }), 'ask', 'only file edits');
  });
});
