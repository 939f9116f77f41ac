// Path rules on real paths: an allow needs the path as written AND where it really leads covered (by one
// rule, or one rule each), so a symlink cannot carry an allowed write out of the allowed tree; a deny rule
// matches either, so a link cannot carry a denied write around the rule.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

import { compilePolicy, evaluatePolicy } from '../../src/policy/policy.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-path-rules-')));
after(() => rmSync(root, { recursive: true, force: true }));
const cwd = join(root, 'repo');
const outside = join(root, 'outside');
mkdirSync(join(cwd, 'src'), { recursive: true });
mkdirSync(join(cwd, 'secrets'), { recursive: true });
mkdirSync(outside);
symlinkSync(outside, join(cwd, 'src/link'));
symlinkSync(join(cwd, 'secrets'), join(cwd, 'src/innocent'));

function behavior(rules: { allow?: string[]; deny?: string[] }, tool: string, file_path: string): string {
  const policy = compilePolicy('supervised', { allow: rules.allow ?? [], deny: rules.deny ?? [] }, cwd);
  return evaluatePolicy(policy, tool, { file_path, content: 'x' }).behavior;
}

describe('path rules follow symlinks', () => {
  it('an allow rule does not follow a symlink out of the allowed tree', () => {
    const allow = { allow: ['Write(src/**)', 'Edit(src/**)'] };
    assert.equal(behavior(allow, 'Write', 'src/a.ts'), 'allow', 'inside, no link');
    assert.equal(behavior(allow, 'Write', 'src/new/dir/b.ts'), 'allow', 'inside, not yet existing');
    assert.equal(behavior(allow, 'Write', 'src/link/pwned.txt'), 'ask', 'through a link out of the cwd');
    assert.equal(
      behavior(allow, 'Write', join(cwd, 'src/link/deep/new.txt')),
      'ask',
      'a new file under the link',
    );
    assert.equal(
      behavior(allow, 'Edit', 'src/innocent/key.pem'),
      'ask',
      'through a link to elsewhere in the cwd',
    );
    assert.equal(behavior(allow, 'Write', 'src/../secrets/x'), 'ask', 'lexical escape');
  });

  it('a symlink whose target does not exist yet is judged by where it points', () => {
    symlinkSync(join(outside, 'new/file.txt'), join(cwd, 'src/dangling'));
    symlinkSync(join(cwd, 'secrets/new.pem'), join(cwd, 'src/dangling-secret'));
    const allow = { allow: ['Write(src/**)'] };
    assert.equal(behavior(allow, 'Write', 'src/dangling'), 'ask', 'a write through it lands outside src');
    const deny = { deny: ['Write(secrets/**)'], allow: ['Write'] };
    assert.equal(behavior(deny, 'Write', 'src/dangling-secret'), 'deny', 'a deny rule on its target');
  });

  it('the path as written and where it leads may be allowed by a rule each, and the verdict names both', () => {
    const both = { allow: ['Write(src/**)', `Write(${outside}/**)`] };
    assert.equal(behavior(both, 'Write', 'src/link/pwned.txt'), 'allow');
    const policy = compilePolicy('supervised', { allow: both.allow, deny: [] }, cwd);
    const verdict = evaluatePolicy(policy, 'Write', { file_path: 'src/link/pwned.txt' });
    assert.equal(verdict.behavior === 'allow' ? verdict.rule : null, `Write(src/**), Write(${outside}/**)`);
    assert.equal(behavior({ allow: [`Write(${outside}/**)`] }, 'Write', 'src/link/pwned.txt'), 'ask');
    assert.equal(
      behavior({ allow: ['Write(src/**)', `Edit(${outside}/**)`] }, 'Write', 'src/link/pwned.txt'),
      'ask',
      'a rule of another tool covers nothing',
    );
  });

  it('a deny rule matches the real path too', () => {
    const deny = { deny: [`Write(${outside}/**)`, 'Edit(secrets/**)'], allow: ['Write', 'Edit'] };
    assert.equal(behavior(deny, 'Write', 'src/link/pwned.txt'), 'deny');
    assert.equal(behavior(deny, 'Edit', 'src/innocent/key.pem'), 'deny');
    assert.equal(behavior(deny, 'Write', 'src/ok.txt'), 'allow');
  });

  it('a cwd reached through a symlink still matches its own relative rules', () => {
    const alias = join(root, 'alias');
    symlinkSync(cwd, alias);
    const policy = compilePolicy('supervised', { allow: ['Write(src/**)'], deny: [] }, alias);
    assert.equal(evaluatePolicy(policy, 'Write', { file_path: 'src/a.ts' }).behavior, 'allow');
    assert.equal(evaluatePolicy(policy, 'Write', { file_path: 'src/link/x' }).behavior, 'ask');
  });
});
