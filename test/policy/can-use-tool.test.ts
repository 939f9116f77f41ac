// The policy from an SDK application's own canUseTool: the example of docs/policy.md run on the requests
// the CLI sends (allowed, denied, asked with the reason), and decideToolCall's answers in the SDK's shape.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

import type { CanUseToolContext, PermissionResult } from '../../src/index.js';
import { ValidationError } from '../../src/protocol/errors.js';
import { decideToolCall, policyFor } from '../../src/policy/index.js';
import { guardedCanUseTool } from './can-use-tool-example.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-can-use-tool-')));
after(() => rmSync(root, { recursive: true, force: true }));
const cwd = join(root, 'repo');
mkdirSync(join(cwd, 'src'), { recursive: true });

function context(extra: Partial<CanUseToolContext> = {}): CanUseToolContext {
  return { signal: new AbortController().signal, toolUseID: 'toolu_1', requestId: 'r1', ...extra };
}

describe("the policy in an application's canUseTool", () => {
  it('the example allows, denies and asks a person with the reason', async () => {
    const asked: { toolName: string; reason: string }[] = [];
    const canUseTool = guardedCanUseTool(cwd, (toolName, _input, reason) => {
      asked.push({ toolName, reason });
      return Promise.resolve({ behavior: 'deny', message: 'a person said no' });
    });
    assert.deepEqual(await canUseTool('Bash', { command: 'npm test' }, context()), {
      behavior: 'allow',
      updatedInput: { command: 'npm test' },
    });
    assert.deepEqual(await canUseTool('Write', { file_path: 'src/a.ts', content: 'x' }, context()), {
      behavior: 'allow',
      updatedInput: { file_path: 'src/a.ts', content: 'x' },
    });
    const denied = await canUseTool('Bash', { command: 'git status && rm -rf src' }, context());
    assert.equal(denied?.behavior, 'deny');
    assert.match(denied?.behavior === 'deny' ? denied.message : '', /Bash\(rm:\*\)/u);
    assert.equal(asked.length, 0, 'nobody was asked');

    const protectedWrite = await canUseTool('Write', { file_path: '.git/config', content: 'x' }, context());
    assert.deepEqual(protectedWrite, { behavior: 'deny', message: 'a person said no' });
    const sensitive = context({
      decisionReason: `Claude requested permissions to edit ${cwd}/notes.txt which is a sensitive file.`,
    });
    await canUseTool('Edit', { file_path: 'notes.txt', old_string: 'a', new_string: 'b' }, sensitive);
    await canUseTool('Bash', { command: 'curl example.com' }, context());
    assert.deepEqual(
      asked.map((a) => a.toolName),
      ['Write', 'Edit', 'Bash'],
    );
    assert.match(asked[0]!.reason, /\.git\/config is protected/u);
    assert.match(asked[1]!.reason, /the CLI marks this as sensitive/u);
    assert.match(asked[2]!.reason, /auto-edits asks/u);
  });

  it("reads the CLI's blocked path from the context", () => {
    const policy = policyFor({ mode: 'full-access', cwd });
    const blocked = context({ blockedPath: join(cwd, '.git/config') });
    assert.equal(decideToolCall(policy, 'Bash', { command: 'sed -i s/a/b/ f' }, blocked).behavior, 'ask');
    assert.equal(decideToolCall(policy, 'Bash', { command: 'sed -i s/a/b/ f' }, context()).behavior, 'allow');
  });

  it('never allows a question for a person unasked; a deny rule still denies it', () => {
    const full = policyFor({ mode: 'full-access', cwd, rules: { allow: ['ExitPlanMode'] } });
    for (const toolName of ['AskUserQuestion', 'ExitPlanMode']) {
      const answer = decideToolCall(full, toolName, {}, context());
      assert.equal(answer.behavior, 'ask', toolName);
    }
    const denying = policyFor({ mode: 'full-access', cwd, rules: { deny: ['AskUserQuestion'] } });
    const denied: PermissionResult | { behavior: 'ask' } = decideToolCall(denying, 'AskUserQuestion', {});
    assert.deepEqual(denied, {
      behavior: 'deny',
      message: 'Denied by the policy: denied by rule AskUserQuestion',
    });
  });

  it('checks the settings once, naming the bad field', () => {
    assert.throws(
      () => policyFor({ mode: 'full-access', cwd, rules: { deny: ['Bash('] } }),
      (error: unknown) => error instanceof ValidationError && error.field === 'rules.deny[0]',
    );
    assert.throws(
      () => policyFor({ mode: 'yolo' as 'full-access', cwd }),
      (error: unknown) => error instanceof ValidationError && error.field === 'mode',
    );
  });
});
