// Rule suggestions (src/policy/suggest.ts): the narrowest rule that covers this request and enough past
// approvals of the thread, and nothing the history shows denied — a command's word prefix, a folder for
// file edits, the MCP tool itself; nothing for a protected write or too few approvals.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

import { suggestRule, type PastRequest } from '../../src/policy/suggest.js';

const cwd = mkdtempSync(join(tmpdir(), 'warden-suggest-'));
const elsewhere = mkdtempSync(join(tmpdir(), 'warden-suggest-elsewhere-'));
after(() => {
  rmSync(cwd, { recursive: true, force: true });
  rmSync(elsewhere, { recursive: true, force: true });
});
const context = { cwd, osEnforced: true };

const bash = (command: string, outcome: PastRequest['outcome'] = 'allowed'): PastRequest => ({
  toolName: 'Bash',
  input: { command },
  outcome,
});
const edit = (file_path: string, outcome: PastRequest['outcome'] = 'allowed'): PastRequest => ({
  toolName: 'Edit',
  input: { file_path, old_string: 'a', new_string: 'b' },
  outcome,
});

describe('suggestRule', () => {
  it('a command prefix that ends on a word, not an option', () => {
    const history = [bash('npm test -- a'), bash('npm test -- b'), bash('npm test -- c')];
    assert.deepEqual(suggestRule(bash('npm test -- d'), history, context), {
      rule: 'Bash(npm test:*)',
      approvals: 3,
    });
  });

  it('none when the prefix would cover what a person denied, and no wider prefix is safe either', () => {
    const history = [
      bash('npm test -- a'),
      bash('npm test -- b'),
      bash('npm test -- c'),
      bash('npm test --bail', 'denied'),
    ];
    assert.equal(suggestRule(bash('npm test -- d'), history, context), undefined);
  });

  it('the narrowest prefix that leaves the denied out', () => {
    const history = [
      bash('git push origin a'),
      bash('git push origin b'),
      bash('git push origin c'),
      bash('git push --force upstream', 'denied'),
    ];
    assert.equal(suggestRule(bash('git push origin d'), history, context)?.rule, 'Bash(git push origin:*)');
  });

  it('none before the approvals are enough (configurable)', () => {
    const history = [bash('make a'), bash('make b')];
    assert.equal(suggestRule(bash('make c'), history, context), undefined);
    assert.equal(suggestRule(bash('make c'), history, { ...context, after: 2 })?.rule, 'Bash(make:*)');
    assert.equal(suggestRule(bash('make c'), [...history, bash('make d', 'pending')], context), undefined);
  });

  it('none for a compound command, or one the parse cannot see through', () => {
    const history = [bash('make a && make b'), bash('make a && make b'), bash('make a && make b')];
    assert.equal(suggestRule(bash('make a && make b'), history, context), undefined);
    assert.equal(
      suggestRule(bash('eval "$X"'), [bash('eval "$X"'), bash('eval "$X"'), bash('eval "$X"')], context),
      undefined,
    );
  });

  it('file edits under the narrowest folder that covers them', () => {
    const history = [
      edit('src/ui/a.ts'),
      edit('src/ui/b.ts'),
      edit('src/ui/c.ts'),
      edit('src/core/x.ts', 'denied'),
    ];
    assert.deepEqual(suggestRule(edit('src/ui/d.ts'), history, context), {
      rule: 'Edit(src/ui/**)',
      approvals: 3,
    });
    const spread = [edit('src/ui/a.ts'), edit('src/core/b.ts'), edit('src/db/c.ts')];
    assert.equal(suggestRule(edit('src/ui/d.ts'), spread, context)?.rule, 'Edit(src/**)');
    assert.equal(
      suggestRule(edit('src/ui/d.ts'), [...spread, edit('src/x.ts', 'denied')], context),
      undefined,
      'a denied edit in src/ leaves no folder',
    );
  });

  it('a read outside the cwd: its folder, as an absolute rule', () => {
    const read = (file_path: string): PastRequest => ({
      toolName: 'Read',
      input: { file_path },
      outcome: 'allowed',
    });
    const history = ['a', 'b', 'c'].map((name) => read(join(elsewhere, 'notes', `${name}.txt`)));
    assert.equal(
      suggestRule(read(join(elsewhere, 'notes', 'd.txt')), history, context)?.rule,
      `Read(/${elsewhere}/notes/**)`,
    );
  });

  it('the same MCP tool, and not another', () => {
    const mcp = (toolName: string, outcome: PastRequest['outcome'] = 'allowed'): PastRequest => ({
      toolName,
      input: { sql: 'select 1' },
      outcome,
    });
    const history = [
      mcp('mcp__db__query'),
      mcp('mcp__db__query'),
      mcp('mcp__db__query'),
      mcp('mcp__db__drop', 'denied'),
    ];
    assert.deepEqual(suggestRule(mcp('mcp__db__query'), history, context), {
      rule: 'mcp__db__query',
      approvals: 3,
    });
    assert.equal(suggestRule(mcp('mcp__db__drop'), history, context), undefined);
  });

  it('nothing for a protected write, however often it was approved', () => {
    const history = [edit('.vscode/a.json'), edit('.vscode/b.json'), edit('.vscode/c.json')];
    assert.equal(suggestRule(edit('.vscode/d.json'), history, context), undefined);
  });
});
