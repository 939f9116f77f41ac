// src/policy is a room of its own: published as `warden/policy` (package.json `exports`, built to
// dist/policy/), pure of the layers above it (no import from the supervisor, the server or the command),
// and its entry point gives an application what it needs to call it.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import * as policy from '../../src/policy/index.js';

const repo = join(import.meta.dirname, '..', '..');
const room = join(repo, 'src', 'policy');

describe('warden/policy', () => {
  it('is a subpath of the package, like the others', () => {
    const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    assert.deepEqual(manifest.exports['./policy'], {
      types: './dist/policy/index.d.ts',
      import: './dist/policy/index.js',
    });
  });

  it('imports nothing from the supervisor, the server or the command', () => {
    for (const file of readdirSync(room).filter((name) => name.endsWith('.ts'))) {
      const source = readFileSync(join(room, file), 'utf8');
      const specifiers = [...source.matchAll(/from '([^']+)'/gu)].map((match) => match[1]!);
      for (const specifier of specifiers)
        assert.doesNotMatch(specifier, /^\.\.\/(supervisor|server|cli|testing)\//u, `${file}: ${specifier}`);
    }
  });

  it('exports the function, its tables and the canUseTool adapter', () => {
    for (const name of [
      'evaluatePolicy',
      'decidingStep',
      'compilePolicy',
      'validateRules',
      'validateMode',
      'policyFor',
      'decideToolCall',
      'alwaysAllowRules',
      'analyzeShell',
      'compileRule',
      'ruleMatches',
      'protectedEntryFor',
    ])
      assert.equal(typeof (policy as Record<string, unknown>)[name], 'function', name);
    assert.ok(policy.POLICY_ORDER.length > 0 && policy.PROTECTED_PATHS.length > 0);
    assert.deepEqual(policy.THREAD_MODES, ['supervised', 'auto-edits', 'full-access']);
  });
});
